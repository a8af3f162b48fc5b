import { HeadsDigest } from '../../infra/eventstore/chain-audit';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { SqlClient, SqlQueryable } from '../../infra/sql/client';

/** More streams than one page of heads (5,000). */
const STREAMS = 12_000;
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

      const expected = new HeadsDigest();
      for await (const page of store.audit.streamHeads()) for (const head of page) expected.add(head);
      expect(checkpoint.body).toMatchObject({ streams: STREAMS, events: expected.events, digest: expected.digest() });
      expect(reads).toHaveLength(Math.ceil(STREAMS / 5000));
      expect(reads.every((sql) => /stream collate "C" > \$1::text collate "C" order by stream collate "C"/.test(sql))).toBe(true);
      const [index] = await client.query<{ definition: string }>(`select pg_get_indexdef('es_streams_stream_bytes'::regclass) as definition`);
      expect(index?.definition).toMatch(/\(stream COLLATE "C"\)/);
    }, SLOW_MS);
  });
}
