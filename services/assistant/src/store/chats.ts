import { DEFAULT_CHAT_SESSION_NAME, type ChatRole } from '@qm/contracts/rest';
import { addFeeds, feedsOf, nextSequence } from '@qm/platform';
import { type Connection, Schema } from 'mongoose';

/**
 * Chat sessions and their messages (docs/product.md §3 chat_sessions, chat_messages). A session's messages
 * are a feed (@qm/platform feeds), so its newest page costs two indexed reads however long the
 * conversation grows. Deleting is marking: messages get isDeleted and sessions stop being active,
 * one conditional update each per user, so a repeated clear changes nothing more.
 */

export interface ChatSession {
  id: number;
  userId: number;
  name: string;
  contextData: Record<string, unknown>;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface StoredMessage {
  id: number;
  sessionId: number;
  userId: number;
  role: ChatRole;
  content: string;
  metadata: { intent?: string; actionTaken?: string; engine?: string };
  isDeleted: boolean;
  createdAt: Date;
}

const sessionSchema = new Schema<ChatSession & { _id: number }>(
  {
    _id: { type: Number, required: true },
    id: { type: Number, required: true },
    userId: { type: Number, required: true },
    name: { type: String, required: true },
    contextData: { type: Schema.Types.Mixed, default: {} },
    isActive: { type: Boolean, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'chat_sessions', versionKey: false, strict: true, autoIndex: false, minimize: false },
);
sessionSchema.index({ userId: 1, isActive: 1 });

const messageSchema = new Schema<StoredMessage & { _id: number }>(
  {
    _id: { type: Number, required: true },
    id: { type: Number, required: true },
    sessionId: { type: Number, required: true },
    userId: { type: Number, required: true },
    role: { type: String, required: true },
    content: { type: String, required: true },
    metadata: { type: Schema.Types.Mixed, default: {} },
    isDeleted: { type: Boolean, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'chat_messages', versionKey: false, strict: true, autoIndex: false, minimize: false },
);
messageSchema.index({ userId: 1, isDeleted: 1 });
const SESSION_FEED = 'session';
addFeeds(messageSchema, [SESSION_FEED]);

const strip = <T>({ _id, ...d }: Record<string, unknown>): T => {
  for (const k of Object.keys(d)) if (k.startsWith('feed')) delete d[k];
  return d as T;
};

export interface ChatStore {
  /** The user's newest active session, or null. */
  activeSession(userId: number): Promise<ChatSession | null>;
  session(id: number): Promise<ChatSession | null>;
  /** A new active session "New Chat"; the user's other sessions stop being active. */
  openSession(userId: number): Promise<ChatSession>;
  /** Marks the session used now, storing `contextData` when given. */
  touch(sessionId: number, contextData?: Record<string, unknown>): Promise<void>;
  rename(sessionId: number, name: string): Promise<void>;
  /**
   * Stores a question and its answer together, numbered one after the other: one write, so a crash
   * leaves either both or neither (the caller then got an error and asks again).
   */
  addExchange(
    asked: Omit<StoredMessage, 'id' | 'isDeleted' | 'createdAt' | 'role'>,
    answered: Pick<StoredMessage, 'content' | 'metadata'>,
  ): Promise<[StoredMessage, StoredMessage]>;
  /** The session's newest `count` (at most 32) messages that are not deleted, oldest first. */
  recent(sessionId: number, count: number): Promise<StoredMessage[]>;
  /** Marks every message of the user deleted and closes their sessions; how many messages it marked. */
  clear(userId: number): Promise<number>;
}

export function createChatStore(conn: Connection): ChatStore {
  const Sessions = conn.model('ChatSession', sessionSchema);
  const Messages = conn.model('ChatMessage', messageSchema);
  const feeds = feedsOf(conn, Messages as never, {
    [SESSION_FEED]: (m: StoredMessage) => m.sessionId,
  });

  return {
    async activeSession(userId: number): Promise<ChatSession | null> {
      const found = await Sessions.find({ userId, isActive: true }).lean().exec();
      const newest = found.sort((a, b) => b._id - a._id)[0];
      return newest ? strip<ChatSession>(newest as never) : null;
    },

    async session(id: number): Promise<ChatSession | null> {
      const d = await Sessions.findById(id).lean().exec();
      return d ? strip<ChatSession>(d as never) : null;
    },

    async openSession(userId: number): Promise<ChatSession> {
      const id = await nextSequence(conn, 'chat_sessions');
      const now = new Date();
      const s: ChatSession = {
        id,
        userId,
        name: DEFAULT_CHAT_SESSION_NAME,
        contextData: {},
        isActive: true,
        createdAt: now,
        updatedAt: now,
      };
      await Sessions.create({ _id: id, ...s });
      await Sessions.updateMany(
        { userId, isActive: true, _id: { $ne: id } },
        { $set: { isActive: false, updatedAt: now } },
      );
      return s;
    },

    async touch(sessionId: number, contextData?: Record<string, unknown>): Promise<void> {
      await Sessions.updateOne(
        { _id: sessionId },
        { $set: { updatedAt: new Date(), ...(contextData ? { contextData } : {}) } },
      );
    },

    async rename(sessionId: number, name: string): Promise<void> {
      await Sessions.updateOne({ _id: sessionId }, { $set: { name, updatedAt: new Date() } });
    },

    async addExchange(
      asked: Omit<StoredMessage, 'id' | 'isDeleted' | 'createdAt' | 'role'>,
      answered: Pick<StoredMessage, 'content' | 'metadata'>,
    ): Promise<[StoredMessage, StoredMessage]> {
      const last = await nextSequence(conn, 'chat_messages', 2);
      const at = new Date();
      const question: StoredMessage = {
        ...asked,
        role: 'user',
        id: last - 1,
        isDeleted: false,
        createdAt: at,
      };
      const answer: StoredMessage = {
        ...asked,
        ...answered,
        role: 'assistant',
        id: last,
        isDeleted: false,
        // A millisecond later, so the pair sorts by time as it does by id.
        createdAt: new Date(at.getTime() + 1),
      };
      await feeds.insertMany([question, answer].map((m) => ({ _id: m.id, ...m })) as never);
      return [question, answer];
    },

    async recent(sessionId: number, count: number): Promise<StoredMessage[]> {
      const { items } = await feeds.page(SESSION_FEED, sessionId, 1, count);
      return (items as unknown as Record<string, unknown>[])
        .map((d) => strip<StoredMessage>(d))
        .filter((m) => !m.isDeleted)
        .reverse();
    },

    async clear(userId: number): Promise<number> {
      const now = new Date();
      const marked = await Messages.updateMany({ userId, isDeleted: false }, { $set: { isDeleted: true } });
      await Sessions.updateMany({ userId, isActive: true }, { $set: { isActive: false, updatedAt: now } });
      return marked.modifiedCount;
    },
  };
}
