import { containsText, countEqual } from '@qm/platform';
import { type Connection, type HydratedDocument, type Model, Schema } from 'mongoose';
import { USER_ROLES, USER_STATUSES, type UserRole } from '@qm/contracts/rest';
import type { Decision, UserRecord, UserStatus } from '../domain/users';

/** Stored user: the domain record plus bookkeeping for work that must be finished after a crash. */
export interface StoredUser extends UserRecord {
  /** Whether Keycloak's user is known to be enabled (approved users must be). */
  kcEnabled: boolean;
  /** A decision email (approval or rejection) still has to go out. */
  decisionMailPending: boolean;
  decidedAt?: Date | null;
  decidedBy?: number | null;
  /** While in the future, one sweeper is sending the decision email (claimDecisionMail). */
  decisionMailClaimedUntil?: Date | null;
  /**
   * Open work for the sweeper, each carried only while it is open so that the sweeper asks for it by
   * one indexed equality, not by reading every user (docs/adr/042): a registration not linked to its
   * Keycloak user yet, an approval whose Keycloak user is not enabled yet.
   */
  linkPending?: true;
  enablePending?: true;
}

const text = { type: String, default: undefined };
const count = { type: Number, default: undefined };

const userSchema = new Schema<StoredUser>(
  {
    id: { type: Number, required: true },
    username: { type: String, required: true },
    usernameKey: { type: String, required: true },
    email: { type: String, required: true },
    emailKey: { type: String, required: true },
    firstName: { type: String, required: true },
    lastName: { type: String, required: true },
    phoneNumber: { type: String, default: '' },
    role: { type: String, enum: USER_ROLES, required: true },
    status: { type: String, enum: USER_STATUSES, required: true },
    isAdmin: { type: Boolean, default: false },
    address: text,
    bio: text,
    licenseNumber: text,
    yearsOfExperience: count,
    rank: text,
    barretNumber: text,
    division: text,
    specialization: text,
    serviceYears: count,
    rejectionReason: text,
    kcId: { type: String, default: null },
    kcEnabled: { type: Boolean, default: false },
    decisionMailPending: { type: Boolean, default: false },
    decidedAt: { type: Date, default: null },
    decidedBy: { type: Number, default: null },
    decisionMailClaimedUntil: { type: Date, default: null },
    linkPending: { type: Boolean },
    enablePending: { type: Boolean },
  },
  { collection: 'users', versionKey: false, timestamps: true, strict: true },
);
// Unique keys are the single source of truth for "already taken" (case-insensitive via the *Key fields).
userSchema.index({ id: 1 }, { unique: true });
userSchema.index({ usernameKey: 1 }, { unique: true });
userSchema.index({ emailKey: 1 }, { unique: true });
userSchema.index({ kcId: 1 });
userSchema.index({ status: 1 });
// The dashboard's counts per role: an equality every store engine serves from this index (ADR 004).
userSchema.index({ role: 1 });
// The sweeper's open work (docs/adr/042).
userSchema.index({ linkPending: 1 }, { sparse: true });
userSchema.index({ enablePending: 1 }, { sparse: true });
userSchema.index({ decisionMailPending: 1, decidedAt: 1 });

/** The user profiles (collection `users`); lookups by key answer null when no user has it. */
export interface UserStore {
  model: Model<StoredUser>;
  /** Builds the model's indexes. */
  init(): Promise<HydratedDocument<StoredUser>>;
  byId(id: number): Promise<StoredUser | null>;
  byUsernameKey(key: string): Promise<StoredUser | null>;
  byEmailKey(key: string): Promise<StoredUser | null>;
  byKcId(kcId: string): Promise<StoredUser | null>;
  /** Forgot-password: the account named by username or email. */
  byUsernameOrEmail(input: string): Promise<StoredUser | null>;
  insert(user: Partial<StoredUser>): Promise<void>;
  setKcId(id: number, kcId: string, kcEnabled: boolean): Promise<void>;
  setKcEnabled(id: number, kcEnabled: boolean): Promise<void>;
  /** The decision, only if the user is still pending (single-document conditional update). */
  decide(id: number, decision: Decision, adminId: number, at: Date): Promise<StoredUser | null>;
  decisionMailSent(id: number): Promise<void>;
  /**
   * Takes the pending decision email for sending until `until`, unless another sweeper holds it
   * (docs/adr/025): of the replicas that read the same pending mail, one sends it. A sender that
   * dies leaves it to be taken again once `until` has passed.
   */
  claimDecisionMail(id: number, now: Date, until: Date): Promise<boolean>;
  /** Sets `set` and removes `unset`; null when the user is gone. */
  updateProfile(
    id: number,
    set: Partial<UserRecord>,
    unset: (keyof UserRecord)[],
  ): Promise<StoredUser | null>;
  /** False when there was no such user. */
  remove(id: number): Promise<boolean>;
  /** How many users match one equality (indexed: status, role), without reading them. */
  count(filter: { status: UserStatus } | { role: UserRole }): Promise<number>;
  /** Every user (of one status), in id order. */
  list(status?: UserStatus): Promise<StoredUser[]>;
  /** One page of the users matching the administrators' search and filters, in id order, and their count. */
  search(q: UserSearch): Promise<{ users: StoredUser[]; total: number }>;
  /** Registrations whose Keycloak user was never linked (the process died in between). At most 100. */
  unlinkedBefore(cutoff: Date): Promise<StoredUser[]>;
  /** Approved users whose Keycloak account has not been enabled yet. At most 100. */
  approvedNotEnabled(): Promise<StoredUser[]>;
  /** Decisions older than `cutoff` whose email has not gone out. At most 100. */
  decisionMailsPending(cutoff: Date): Promise<StoredUser[]>;
  /**
   * Sets `linkPending` and `enablePending` on users written before they existed (reading every user
   * once); how many it marked.
   */
  markOpenWork(): Promise<number>;
}

/** The administrators' user list: a text in the username, names or email, a status, a role, a page. */
export interface UserSearch {
  text?: string;
  status?: UserStatus;
  role?: UserRole;
  page: number;
  pageSize: number;
}

function searchFilter(q: UserSearch): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (q.status) filter.status = q.status;
  if (q.role) filter.role = q.role;
  const contains = containsText(q.text);
  if (contains) {
    filter.$or = ['username', 'firstName', 'lastName', 'email'].map((field) => ({ [field]: contains }));
  }
  return filter;
}

export function createUserStore(conn: Connection): UserStore {
  const Users = conn.model<StoredUser>('User', userSchema);
  const lean = (q: ReturnType<typeof Users.findOne>) => q.lean<StoredUser>().exec();

  return {
    model: Users,
    init: () => Users.init(),
    byId: (id: number) => lean(Users.findOne({ id })),
    byUsernameKey: (key: string) => lean(Users.findOne({ usernameKey: key })),
    byEmailKey: (key: string) => lean(Users.findOne({ emailKey: key })),
    byKcId: (kcId: string) => lean(Users.findOne({ kcId })),
    async byUsernameOrEmail(input: string): Promise<StoredUser | null> {
      const key = input.trim().toLowerCase();
      return (
        (await lean(Users.findOne({ usernameKey: key }))) ?? (await lean(Users.findOne({ emailKey: key })))
      );
    },
    async insert(user: Partial<StoredUser>): Promise<void> {
      await Users.create(user);
    },
    async setKcId(id: number, kcId: string, kcEnabled: boolean): Promise<void> {
      await Users.updateOne({ id }, { $set: { kcId, kcEnabled }, $unset: { linkPending: 1 } });
    },
    async setKcEnabled(id: number, kcEnabled: boolean): Promise<void> {
      await Users.updateOne(
        { id },
        kcEnabled ? { $set: { kcEnabled }, $unset: { enablePending: 1 } } : { $set: { kcEnabled } },
      );
    },
    decide(id: number, decision: Decision, adminId: number, at: Date): Promise<StoredUser | null> {
      return Users.findOneAndUpdate(
        { id, status: 'pending' },
        {
          $set: {
            status: decision.status,
            rejectionReason: decision.rejectionReason ?? undefined,
            decisionMailPending: true,
            decidedAt: at,
            decidedBy: adminId,
            // An approval's Keycloak user is enabled next; the sweeper finishes it if that fails.
            ...(decision.status === 'approved' ? { enablePending: true } : {}),
          },
        },
        { new: true },
      )
        .lean<StoredUser>()
        .exec();
    },
    async decisionMailSent(id: number): Promise<void> {
      await Users.updateOne({ id }, { $set: { decisionMailPending: false } });
    },
    async claimDecisionMail(id: number, now: Date, until: Date): Promise<boolean> {
      const res = await Users.updateOne(
        {
          id,
          decisionMailPending: true,
          $or: [{ decisionMailClaimedUntil: null }, { decisionMailClaimedUntil: { $lte: now } }],
        },
        { $set: { decisionMailClaimedUntil: until } },
      );
      return res.modifiedCount === 1;
    },
    updateProfile(
      id: number,
      set: Partial<UserRecord>,
      unset: (keyof UserRecord)[],
    ): Promise<StoredUser | null> {
      const update: Record<string, unknown> = {};
      if (Object.keys(set).length) update.$set = set;
      if (unset.length) update.$unset = Object.fromEntries(unset.map((k) => [k, 1]));
      return Users.findOneAndUpdate({ id }, update, { new: true }).lean<StoredUser>().exec();
    },
    async remove(id: number): Promise<boolean> {
      const res = await Users.deleteOne({ id });
      return res.deletedCount === 1;
    },
    // Counted by the engine through the index: FerretDB's own count reads every matching user.
    count: (filter: { status: UserStatus } | { role: UserRole }) => countEqual(Users, filter),
    list(status?: UserStatus): Promise<StoredUser[]> {
      return Users.find(status ? { status } : {})
        .sort({ id: 1 })
        .lean<StoredUser[]>()
        .exec();
    },
    async search(q: UserSearch): Promise<{ users: StoredUser[]; total: number }> {
      const filter = searchFilter(q);
      const [users, total] = await Promise.all([
        Users.find(filter)
          .sort({ id: 1 })
          .skip((q.page - 1) * q.pageSize)
          .limit(q.pageSize)
          .lean<StoredUser[]>()
          .exec(),
        Users.countDocuments(filter).exec(),
      ]);
      return { users, total };
    },
    unlinkedBefore(cutoff: Date): Promise<StoredUser[]> {
      return Users.find({ linkPending: true, kcId: null, createdAt: { $lt: cutoff } })
        .limit(100)
        .lean<StoredUser[]>()
        .exec();
    },
    approvedNotEnabled(): Promise<StoredUser[]> {
      return Users.find({ enablePending: true, status: 'approved', kcEnabled: false, kcId: { $ne: null } })
        .limit(100)
        .lean<StoredUser[]>()
        .exec();
    },
    async markOpenWork(): Promise<number> {
      // Each filter holds per document at the moment it is marked, so a link or an enabling racing it wins.
      const [link, enable] = await Promise.all([
        Users.updateMany(
          { kcId: null, linkPending: { $exists: false } },
          { $set: { linkPending: true } },
        ).exec(),
        Users.updateMany(
          { status: 'approved', kcEnabled: false, enablePending: { $exists: false } },
          { $set: { enablePending: true } },
        ).exec(),
      ]);
      return link.modifiedCount + enable.modifiedCount;
    },
    decisionMailsPending(cutoff: Date): Promise<StoredUser[]> {
      return Users.find({ decisionMailPending: true, decidedAt: { $lt: cutoff } })
        .limit(100)
        .lean<StoredUser[]>()
        .exec();
    },
  };
}
