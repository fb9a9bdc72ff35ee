import { type Connection, Schema } from 'mongoose';
import { changeBuilt, connectMongo, insertBuilt, isDuplicateKeyError, onlyDuplicateKeyErrors } from '../src';
import { MONGO_URL, uniqueName } from './infra';

interface Thing {
  _id: string;
  amount: number;
  note: string;
  tags: string[];
  extra: unknown;
  owner: { name: string; since: Date; nickname?: string };
  closedAt: Date | null;
  createdAt: Date;
}

const thingSchema = () =>
  new Schema<Thing>(
    {
      _id: { type: String, required: true },
      amount: { type: Number, required: true },
      note: { type: String, default: '' },
      tags: { type: [String], default: [] },
      extra: { type: Schema.Types.Mixed, default: [] },
      owner: { name: String, since: Date, nickname: String },
      closedAt: { type: Date },
      createdAt: { type: Date, required: true },
    },
    { versionKey: false, strict: true, autoIndex: false },
  );

/**
 * What a built document looks like: a field the schema does not name, defaults left out, a null, and
 * fields set to undefined (one with a default, one inside a nested object).
 */
const built = (id: string) =>
  ({
    _id: id,
    amount: 1250,
    note: undefined,
    owner: { name: 'asha', since: new Date('2026-12-01T10:00:00Z'), nickname: undefined },
    closedAt: null,
    createdAt: new Date('2026-12-06T05:00:00Z'),
    seenAt: 17,
  }) as unknown as Thing;

// docs/adr/047: documents our code builds are inserted without a mongoose document each.
describe('insertBuilt (real database)', () => {
  let db: Connection;
  beforeAll(async () => {
    db = await connectMongo(MONGO_URL, uniqueName('qm_test_insert_built'));
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
  });

  it('stores what Model.create stores: the defaults, only the schema’s fields, nulls kept, undefined left out', async () => {
    const Created = db.model<Thing>('Created', thingSchema(), 'created');
    const Built = db.model<Thing>('Built', thingSchema(), 'built');
    await Created.create(built('a'));
    const answered = await insertBuilt(Built, [built('a')]);
    const viaCreate = await Created.collection.findOne({ _id: 'a' } as never);
    const viaBuilt = await Built.collection.findOne({ _id: 'a' } as never);
    expect(viaBuilt).toEqual(viaCreate);
    expect(viaBuilt).toMatchObject({ note: '', tags: [], extra: [], closedAt: null });
    expect(viaBuilt).not.toHaveProperty('seenAt');
    expect(viaBuilt!.owner).not.toHaveProperty('nickname');
    expect(answered).toEqual([viaBuilt]);
  });

  it('gives a document without an _id the driver’s, and answers it', async () => {
    const Loose = db.model('Loose', new Schema({ text: String }, { versionKey: false }), 'loose');
    const [doc] = (await insertBuilt(Loose, [{ text: 'x' }])) as { _id?: unknown; text: string }[];
    expect(doc!._id).toBeDefined();
    expect(await Loose.collection.findOne({ _id: doc!._id } as never)).toEqual(doc);
  });

  it('fails on a taken key as create and insertMany do', async () => {
    const Dup = db.model<Thing>('Dup', thingSchema(), 'dup');
    await insertBuilt(Dup, [built('d1')]);
    const single = await insertBuilt(Dup, [built('d1')]).catch((err: unknown) => err);
    expect(isDuplicateKeyError(single)).toBe(true);
    const unordered = await insertBuilt(Dup, [built('d1'), built('d2')], { ordered: false }).catch(
      (err: unknown) => err,
    );
    expect(onlyDuplicateKeyErrors(unordered)).toBe(true);
    expect(await Dup.collection.countDocuments({ _id: 'd2' } as never)).toBe(1);
  });

  it('numbers a new document’s version as create does, and refuses a schema with timestamps', async () => {
    const versioned = () => new Schema({ _id: String, text: String });
    const Created = db.model('VersionedCreated', versioned(), 'versioned_created');
    const Built = db.model('VersionedBuilt', versioned(), 'versioned_built');
    await Created.create({ _id: 'v', text: 'x' });
    await insertBuilt(Built, [{ _id: 'v', text: 'x' }]);
    expect(await Built.collection.findOne({ _id: 'v' } as never)).toEqual(
      await Created.collection.findOne({ _id: 'v' } as never),
    );
    const Stamped = db.model('Stamped', new Schema({ text: String }, { timestamps: true }), 'stamped');
    await expect(insertBuilt(Stamped, [{ text: 'x' } as never])).rejects.toThrow(/timestamps/);
  });

  it('changeBuilt changes as findOneAndUpdate does: the document after, undefined left out of the change, null when none matched', async () => {
    const ViaModel = db.model<Thing>('ChangedViaModel', thingSchema(), 'changed_via_model');
    const Changed = db.model<Thing>('Changed', thingSchema(), 'changed');
    await insertBuilt(ViaModel, [built('c')]);
    await insertBuilt(Changed, [built('c')]);
    const change = () => ({
      $set: { note: 'paid', closedAt: new Date('2026-12-07T15:00:00Z'), extra: undefined },
      $inc: { amount: -250 },
    });
    const viaModel = await ViaModel.findOneAndUpdate({ _id: 'c', amount: 1250 }, change(), { new: true })
      .lean<Thing>()
      .exec();
    const answered = await changeBuilt(Changed, { _id: 'c', amount: 1250 }, change());
    expect(answered).toEqual(viaModel);
    expect(answered).toMatchObject({ amount: 1000, note: 'paid', extra: [] });
    expect(await Changed.collection.findOne({ _id: 'c' } as never)).toEqual(answered);
    // A compare-and-set that lost: nothing changed, nothing answered.
    expect(await changeBuilt(Changed, { _id: 'c', amount: 1250 }, change())).toBeNull();
    expect(await Changed.collection.findOne({ _id: 'c' } as never)).toEqual(answered);
  });

  it('changeBuilt refuses a filter with a condition left undefined, which the driver would drop', async () => {
    const Guarded = db.model<Thing>('Guarded', thingSchema(), 'guarded');
    await insertBuilt(Guarded, [built('g1'), built('g2')]);
    const stamp = { $set: { note: 'moved' } };
    await expect(changeBuilt(Guarded, { _id: undefined, amount: 1250 }, stamp)).rejects.toThrow(
      /Guarded's filter leaves _id undefined/,
    );
    await expect(changeBuilt(Guarded, { amount: { $in: [1250, undefined] } }, stamp)).rejects.toThrow(
      /leaves amount\.\$in\.1 undefined/,
    );
    await expect(changeBuilt(Guarded, { 'owner.name': { $eq: undefined } }, stamp)).rejects.toThrow(
      /leaves owner\.name\.\$eq undefined/,
    );
    expect(await Guarded.collection.countDocuments({ note: 'moved' } as never)).toBe(0);
    // Values that are not plain objects are conditions in their own right.
    const closed = await changeBuilt(
      Guarded,
      { _id: 'g1', createdAt: new Date('2026-12-06T05:00:00Z') },
      stamp,
    );
    expect(closed).toMatchObject({ _id: 'g1', note: 'moved' });
  });
});
