import type { SqlClient } from '../sql/client';
import { type ChainAudit, type Checkpoint, type CheckpointBody, HeadsDigest, signCheckpoint, type StreamHead } from './chain-audit';

const PAGE = 5000;

export const CHECKPOINTS_TABLE = `create table if not exists es_checkpoints (
  id bigserial primary key,
  body jsonb not null,
  signature text
)`;

interface HeadRow {
  stream: string;
  revision: string;
  hash: string;
}

export class PostgresChainAudit implements ChainAudit {
  constructor(private readonly sql: SqlClient) {}

  async checkpoints(): Promise<Checkpoint[]> {
    const rows = await this.sql.query<{ id: string; body: CheckpointBody; signature: string | null }>(
      'select id::text as id, body, signature from es_checkpoints order by id',
    );
    return rows.map((row) => ({ id: Number(row.id), body: row.body, signature: row.signature }));
  }

  /** Reads every head in one snapshot (repeatable read), so the checkpoint names exactly the events that snapshot saw. */
  async writeCheckpoint(kind: CheckpointBody['kind'], key: Buffer | null): Promise<Checkpoint> {
    return this.sql.transaction(async (tx) => {
      await tx.query('set transaction isolation level repeatable read');
      const [{ snapshot }] = (await tx.query<{ snapshot: string }>('select pg_current_snapshot()::text as snapshot')) as [{ snapshot: string }];
      const digest = new HeadsDigest();
      for await (const page of headPages(tx)) for (const head of page) digest.add(head);
      const body: CheckpointBody = { kind, at: new Date().toISOString(), snapshot, streams: digest.streams, events: digest.events, digest: digest.digest() };
      const signature = key ? signCheckpoint(body, key) : null;
      const [row] = (await tx.query<{ id: string }>('insert into es_checkpoints (body, signature) values ($1::text::jsonb, $2) returning id::text as id', [
        JSON.stringify(body),
        signature,
      ])) as [{ id: string }];
      return { id: Number(row.id), body, signature };
    });
  }

  streamHeads(): AsyncGenerator<StreamHead[]> {
    return headPages(this.sql);
  }
}

/** Heads in byte order of their names, a page at a time, each page a range of es_streams_stream_bytes (no sort). */
async function* headPages(sql: { query: SqlClient['query'] }): AsyncGenerator<StreamHead[]> {
  // Every stream name is longer than '', the least name in byte order.
  let after = '';
  for (;;) {
    const rows: HeadRow[] = await sql.query<HeadRow>(
      `select stream, revision::text as revision, encode(hash, 'hex') as hash from es_streams
       where stream collate "C" > $1::text collate "C" order by stream collate "C" limit ${PAGE}`,
      [after],
    );
    if (rows.length === 0) return;
    yield rows.map((row) => ({ stream: row.stream, revision: Number(row.revision), hash: row.hash }));
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.stream;
  }
}
