import { FencedOut, PostgresReadModelFence } from '../../infra/readstore/fence-postgres';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';

const NOTES = 'fenced_notes';
const position = (commit: number) => ({ commit: BigInt(commit), prepare: BigInt(commit) });
const upsert = (id: string, title: string) => ({ kind: 'upsert' as const, collection: NOTES, document: { id, title } });

/** Two instances' read stores on one PostgreSQL database, each with its own fence, as the service opens them. */
describe('read-model fence (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const clients: PgSqlClient[] = [];
  let instance: { store: PostgresReadStore; fence: PostgresReadModelFence; refused: number }[];

  beforeAll(async () => {
    database = await createTestDatabase();
    instance = [];
    for (let index = 0; index < 2; index++) {
      const client = await PgSqlClient.open(database.url);
      clients.push(client);
      const fence = await PostgresReadModelFence.open(client);
      const entry = { store: await PostgresReadStore.open(client, { fence }), fence, refused: 0 };
      fence.onRefused(() => (entry.refused += 1));
      instance.push(entry);
    }
    await instance[0]!.store.ensureCollection(NOTES, []);
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await database?.drop();
  });

  it("refuses the checkpointed writes of an instance whose epoch a later holder replaced, writing nothing of them", async () => {
    const [old, next] = [instance[0]!, instance[1]!];
    // Never took the lease (an offline tool with the service stopped): not fenced.
    await next.store.apply([upsert('a', 'never led')], [{ name: 'live:notes', position: position(1) }]);
    expect(await next.store.get(NOTES, 'a')).toEqual({ id: 'a', title: 'never led' });

    await old.fence.take();
    await old.store.apply([upsert('a', 'v1')], [{ name: 'live:notes', position: position(1) }]);
    expect(await old.store.get(NOTES, 'a')).toEqual({ id: 'a', title: 'v1' });

    await next.fence.take();
    await next.store.apply([upsert('a', 'v2')], [{ name: 'live:notes', position: position(2) }]);
    const late = old.store.apply([upsert('a', 'late'), upsert('b', 'late')], [{ name: 'live:notes', position: position(1) }]);
    await expect(late).rejects.toBeInstanceOf(FencedOut);
    await expect(late).rejects.toThrow(/another instance took the projection lease/);
    expect(await next.store.get(NOTES, 'a')).toEqual({ id: 'a', title: 'v2' });
    expect(await next.store.get(NOTES, 'b')).toBeNull();
    expect(await next.store.getCheckpoint('live:notes')).toEqual(position(2));
    // A rebuild's swap moves a checkpoint: fenced as well.
    await expect(old.store.swapCollections([], { from: 'rebuild:notes', to: 'live:notes' })).rejects.toBeInstanceOf(FencedOut);
    expect(await next.store.getCheckpoint('live:notes')).toEqual(position(2));
    expect(old.refused).toBe(2);
    expect(next.refused).toBe(0);
  });

  it('a new holder takes the fence only once a checkpointed write in flight of the old one has committed', async () => {
    const [old, next] = [instance[0]!, instance[1]!];
    await old.fence.take();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let checked!: () => void;
    const inside = new Promise<void>((resolve) => (checked = resolve));
    const inFlight = clients[0]!.forReadModels().transaction(async (tx) => {
      await old.fence.check(tx);
      checked();
      await gate;
    });
    await inside;
    let taken = false;
    const taking = next.fence.take().then(() => (taken = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const takenWhileInFlight = taken;
    release();
    await inFlight;
    expect(takenWhileInFlight).toBe(false);
    await taking;
    await expect(old.store.apply([upsert('c', 'late')], [{ name: 'live:notes', position: position(3) }])).rejects.toBeInstanceOf(FencedOut);
  });

  it("a new holder takes the fence only once the old one's batch statement in flight has committed, with what it wrote", async () => {
    const [old, next] = [instance[0]!, instance[1]!];
    await old.fence.take();
    await old.store.apply([upsert('d', 'before')], [{ name: 'live:notes', position: position(4) }]);
    // Another session holds document d: the old holder's next batch, one statement past its read of the fence, waits for it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const otherSession = clients[1]!.forReadModels().transaction(async (tx) => {
      await tx.query(`select 1 from rm_${NOTES} where id = $1 for update`, ['d']);
      locked();
      await gate;
    });
    await holding;
    let written = false;
    const batch = old.store.apply([upsert('d', 'in flight')], [{ name: 'live:notes', position: position(5) }]).then(() => (written = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    let taken = false;
    const taking = next.fence.take().then(() => (taken = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect({ written, taken }).toEqual({ written: false, taken: false });
    release();
    await otherSession;
    await batch;
    await taking;
    expect(await next.store.get(NOTES, 'd')).toEqual({ id: 'd', title: 'in flight' });
    expect(await next.store.getCheckpoint('live:notes')).toEqual(position(5));
    await expect(old.store.apply([upsert('d', 'late')], [{ name: 'live:notes', position: position(6) }])).rejects.toBeInstanceOf(FencedOut);
  });
});
