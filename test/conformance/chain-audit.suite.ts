import { randomBytes, randomUUID } from 'node:crypto';
import { eventHash } from '../../infra/eventstore/chain';
import { checkpointDigest, checkpointKey, CheckpointRefused, checkpointSignatureValid, HeadsDigest, OrderDigest } from '../../infra/eventstore/chain-audit';
import { eventMacKey } from '../../infra/eventstore/event-mac';
import { type EventMetadata, positionToString } from '../../infra/eventstore/port';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { SqlClient, SqlQueryable } from '../../infra/sql/client';
import { incompressibleData } from '../support/incompressible';

/** More streams than one page of heads (5,000). */
const STREAMS = 12_000;
/** Stream names a page carries as JSON: each must come back byte for byte. */
const ODD_NAMES = ['quote"d', 'back\\slash', 'tab\there', 'line\nbreak', 'control\u0001', 'emoji 🌍', 'é accented', '\u2028 separator', 'stream-5000 '];
/** Starting an embedded engine and reading 12,000 heads twice takes minutes on a machine shared by several test runs. */
const SLOW_MS = 300_000;

/** The client with every statement it is given, in a transaction or not, recorded. */
function recording(client: SqlClient, statements: string[]): SqlClient {
  const record = (queryable: SqlQueryable): SqlQueryable => ({
    query: (sql, params) => {
      statements.push(sql);
      return queryable.query(sql, params);
    },
  });
  return Object.assign(Object.create(client) as SqlClient, {
    query: record(client).query,
    transaction: <T>(work: (tx: SqlQueryable) => Promise<T>) => client.transaction((tx) => work(record(tx))),
  });
}

export function describeChainAuditCheckpoints(label: string, open: () => Promise<{ client: SqlClient; close(): Promise<void> }>): void {
  describe(`signed log checkpoints on ${label}`, () => {
    let client: SqlClient;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ client, close } = await open());
      await PostgresEventStore.create(client);
      await client.query(
        `insert into es_streams (stream, revision, hash) select 'stream-' || i, i % 3, sha256(i::text::bytea) from generate_series(1, ${STREAMS}) as i`,
      );
      for (const [index, stream] of ODD_NAMES.entries()) {
        await client.query(`insert into es_streams (stream, revision, hash) values ($1::text, $2, sha256(convert_to($1::text, 'UTF8')))`, [stream, index]);
      }
    }, SLOW_MS);

    afterAll(async () => {
      await close();
    });

    it('digests every stream head in name order, a page at a time, each page a range of the byte-order index of stream names', async () => {
      const statements: string[] = [];
      const store = await PostgresEventStore.create(recording(client, statements));
      statements.length = 0;

      const checkpoint = await store.audit.writeCheckpoint('periodic', null);
      const reads = statements.filter((sql) => /from es_streams/.test(sql));

      // The heads as rows, in byte order of their names: what the checkpoint must have digested.
      const rows = await client.query<{ stream: string; revision: string; hash: string }>(`select stream, revision::text as revision, encode(hash, 'hex') as hash from es_streams`);
      rows.sort((a, b) => Buffer.compare(Buffer.from(a.stream), Buffer.from(b.stream)));
      const expected = new HeadsDigest();
      for (const row of rows) expected.add({ stream: row.stream, revision: Number(row.revision), hash: row.hash });
      expect(checkpoint.body).toMatchObject({ streams: STREAMS + ODD_NAMES.length, events: expected.events, digest: expected.digest() });
      const listed: string[] = [];
      for await (const page of store.audit.streamHeads()) listed.push(...page.map((head) => head.stream));
      expect(listed).toEqual(rows.map((row) => row.stream));
      expect(reads).toHaveLength(Math.ceil((STREAMS + ODD_NAMES.length) / 5000));
      expect(reads.every((sql) => /stream collate "C" > \$1::text collate "C" order by stream collate "C"/.test(sql))).toBe(true);
      const [index] = await client.query<{ definition: string }>(`select pg_get_indexdef('es_streams_stream_bytes'::regclass) as definition`);
      expect(index?.definition).toMatch(/\(stream COLLATE "C"\)/);
    }, SLOW_MS);
  });
}


const metadata = () => ({ workspaceId: null, actor: 'test', correlationId: randomUUID(), timestamp: new Date().toISOString() });

/** The chain of checkpoints on a store of its own: numbering past 10, the links, the order signed, and a refusal. */
export function describeCheckpointChain(label: string, open: () => Promise<{ client: SqlClient; close(): Promise<void> }>): void {
  describe(`the chain of signed checkpoints on ${label}`, () => {
    let client: SqlClient;
    let close: () => Promise<void>;
    let store: PostgresEventStore;
    const key = randomBytes(32);

    beforeAll(async () => {
      ({ client, close } = await open());
      store = await PostgresEventStore.create(client);
    });

    afterAll(async () => {
      await store.close();
      await close();
    });

    it('numbers checkpoints past 10 in order, each naming its predecessor and signing the events it added in log order', async () => {
      for (let round = 0; round < 12; round++) {
        await store.append(`chain-${round % 3}`, [{ type: 'Step', data: { round }, metadata: metadata() }], 'any');
        await store.append(`chain-other-${round}`, [{ type: 'Step', data: { round }, metadata: metadata() }, { type: 'Step', data: { again: round }, metadata: metadata() }], 'no_stream');
        await store.audit.writeCheckpoint('periodic', key);
      }
      const checkpoints = await store.audit.checkpoints();
      expect(checkpoints.map((checkpoint) => checkpoint.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      const events = await store.readAll();
      for (const [index, checkpoint] of checkpoints.entries()) {
        expect(checkpoint.body.id).toBe(checkpoint.id);
        expect(checkpoint.body.previous).toBe(index === 0 ? null : checkpointDigest(checkpoints[index - 1]!.body));
        expect(checkpointSignatureValid(checkpoint, key)).toBe(true);
        const added = events.slice(index * 3, index * 3 + 3);
        const order = new OrderDigest();
        for (const event of added) order.add(positionToString(event.position), event.stream, event.revision);
        expect(checkpoint.body.order).toEqual({ added: 3, digest: order.digest(), last: positionToString(added[2]!.position) });
        expect(checkpoint.body.events).toBe((index + 1) * 3);
      }
    });

    it('refuses to sign, writing nothing, when a stream the latest checkpoint covers was rewritten with its hashes recomputed', async () => {
      const [first] = await store.readStream('chain-other-0');
      await client.transaction(async (tx) => {
        await tx.query('set local session_replication_role = replica');
        const data = { round: 'rewritten' };
        const hash = eventHash({ ...first!, data }, 0, null);
        await tx.query(`update es_events set data = $2::text::jsonb, hash = $3 where id = $1`, [first!.id, JSON.stringify(data), hash]);
        const [second] = await tx.query<{ id: string; type: string; data: unknown; metadata: EventMetadata }>(
          `select id::text as id, type, data, metadata from es_events where stream = 'chain-other-0' and revision = 1`,
        );
        const head = eventHash({ ...second!, stream: 'chain-other-0' }, 1, hash);
        await tx.query(`update es_events set hash = $2 where id = $1::uuid`, [second!.id, head]);
        await tx.query(`update es_streams set hash = $2 where stream = $1`, ['chain-other-0', head]);
      });
      await store.append('chain-0', [{ type: 'Step', data: { after: true }, metadata: metadata() }], 'any');
      const refused = await store.audit.writeCheckpoint('periodic', key).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(CheckpointRefused);
      expect((refused as CheckpointRefused).latest).toBe(12);
      expect((refused as CheckpointRefused).problems[0]).toBe(
        'the stream heads as of checkpoint #12, rebuilt from the log, are not the ones it signed (15 streams holding 36 events; it signed 15 holding 36): events it covered were changed, replaced or re-chained',
      );
      expect((await store.audit.checkpoints()).length).toBe(12);
    });
  });
}

/** The signer checks the MACs of the events a checkpoint adds: a row inserted with the database's grants is never signed. */
export function describeMacCheckedCheckpoints(label: string, open: () => Promise<{ client: SqlClient; close(): Promise<void> }>): void {
  describe(`checkpoints over events with MACs on ${label}`, () => {
    let client: SqlClient;
    let close: () => Promise<void>;
    const masterKey = randomBytes(32);
    const keys = { checkpointKey: checkpointKey(masterKey), macKey: eventMacKey(masterKey) };

    beforeAll(async () => {
      ({ client, close } = await open());
    });

    afterAll(async () => {
      await close();
    });

    /** As the service role could: one transaction, no trigger off, a correct link on the stream's head and the head moved forwards. */
    async function forge(stream: string, mac: Buffer | null, data: object = { forged: true }): Promise<{ id: string; revision: number }> {
      return client.transaction(async (tx) => {
        const [head] = await tx.query<{ revision: string; hash: Buffer }>('select revision::text as revision, hash from es_streams where stream = $1 for update', [stream]);
        const forged = { id: randomUUID(), stream, type: 'Step', data, metadata: { ...metadata(), actor: 'key:someone-else' } };
        const revision = Number(head!.revision) + 1;
        const hash = eventHash(forged, revision, Buffer.from(head!.hash));
        await tx.query(`insert into es_events (stream, revision, id, type, data, metadata, hash, mac) values ($1, $2, $3, $4, $5::text::jsonb, $6::text::jsonb, $7, $8)`, [
          stream,
          revision,
          forged.id,
          forged.type,
          JSON.stringify(forged.data),
          JSON.stringify(forged.metadata),
          hash,
          mac,
        ]);
        await tx.query('update es_streams set revision = $2, previous_hash = hash, hash = $3 where stream = $1', [stream, revision, hash]);
        return { id: forged.id, revision };
      });
    }

    const refusal = (store: PostgresEventStore) =>
      store.audit.writeCheckpoint('periodic', keys.checkpointKey).then(
        () => null,
        (error: unknown) => error,
      );

    it('refuses to sign while an event added since the last checkpoint carries a MAC that does not verify, or none, naming each; signs once none is added', async () => {
      const store = await PostgresEventStore.create(client, keys);
      await store.append('mac-a', [{ type: 'Step', data: { n: 1 }, metadata: metadata() }], 'no_stream');
      await store.append('mac-b', [{ type: 'Step', data: { n: 1 }, metadata: metadata() }], 'no_stream');
      expect((await store.audit.writeCheckpoint('periodic', keys.checkpointKey)).id).toBe(1);

      await store.append('mac-a', [{ type: 'Step', data: { n: 2 }, metadata: metadata() }], 'any');
      const wrongMac = await forge('mac-a', randomBytes(32));
      const noMac = await forge('mac-b', null);
      await store.append('mac-a', [{ type: 'Step', data: { n: 3 }, metadata: metadata() }], 'any');

      const refused = await refusal(store);
      expect(refused).toBeInstanceOf(CheckpointRefused);
      expect((refused as CheckpointRefused).latest).toBe(1);
      expect((refused as CheckpointRefused).problems).toEqual([
        expect.stringMatching(new RegExp(`^stream mac-a revision ${wrongMac.revision} at position \\d+/\\d+: its MAC does not verify: it was written past the service`)),
        expect.stringMatching(new RegExp(`^stream mac-b revision ${noMac.revision} at position \\d+/\\d+: carries no MAC, though every event carries one`)),
      ]);
      expect((await store.audit.checkpoints()).map((checkpoint) => checkpoint.id)).toEqual([1]);
      // Checked by the store that appends with the MAC key: one opened without it signs the same log.
      const unkeyed = await PostgresEventStore.create(client, { checkpointKey: keys.checkpointKey });
      expect((await unkeyed.audit.writeCheckpoint('periodic', keys.checkpointKey)).id).toBe(2);
      // Incremental: the next checkpoint checks only the events added after #2, which are genuine.
      await store.append('mac-b', [{ type: 'Step', data: { n: 2 }, metadata: metadata() }], 'any');
      expect((await store.audit.writeCheckpoint('periodic', keys.checkpointKey)).id).toBe(3);
      await Promise.all([store.close(), unkeyed.close()]);
    });

    it('checks a large event as any other (on a server its data, over 64 KB stored, is read apart): signs over a genuine one, names a forged one', async () => {
      const store = await PostgresEventStore.create(client, keys);
      await store.append('mac-large', [{ type: 'Step', data: incompressibleData(), metadata: metadata() }], 'no_stream');
      const signed = await store.audit.writeCheckpoint('periodic', keys.checkpointKey);
      const forged = await forge('mac-large', randomBytes(32), incompressibleData());
      const refused = await refusal(store);
      expect(refused).toBeInstanceOf(CheckpointRefused);
      expect((refused as CheckpointRefused).latest).toBe(signed.id);
      expect((refused as CheckpointRefused).problems).toEqual([
        expect.stringMatching(new RegExp(`^stream mac-large revision ${forged.revision} at position \\d+/\\d+: its MAC does not verify`)),
      ]);
      await store.close();
    });
  });
}
