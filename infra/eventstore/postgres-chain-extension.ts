import type { SqlClient, SqlQueryable } from '../sql/client';
import { ThreadSlices } from '../thread-slices';
import { contentDigestYielding, linkHash } from './chain';
import { type Checkpoint, MAX_LISTED_REFUSALS, OrderDigest, type StreamHead } from './chain-audit';
import type { EventMacCheck } from './event-mac-check';
import type { EventRow } from './postgres';
import { dataColumns, withDataApart } from './postgres-event-data';
import { pageWithinBytes } from './postgres-page-bytes';
import { LOG_PAGE_BYTES } from './port';

const PAGE = 1000;

/** A stream that gained events since the latest checkpoint: its head then (null: it did not exist yet) and where its events now chain to. */
export interface TouchedStream {
  readonly before: StreamHead | null;
  after: StreamHead;
}

/** What the events added since the latest checkpoint show (readAdditions). */
export interface Additions {
  readonly touched: ReadonlyMap<string, TouchedStream>;
  readonly order: OrderDigest;
  /** The last position the snapshot sees in the whole log (commit/prepare), null on an empty log. */
  readonly last: string | null;
  readonly problems: readonly string[];
}

interface Waiting {
  readonly revision: number;
  readonly content: Buffer;
  readonly hash: string;
}

/**
 * Reads, in the caller's repeatable-read snapshot, the events that `previous`'s snapshot did not
 * see (every event when there is none), in log order: their (position, stream, revision) feed
 * the order digest, and each one's hash is recomputed from its content on the hash its stream
 * had, starting from the stream's head as `previous` saw it (its last event visible there). The
 * caller compares those heads with the ones `previous` signed, and the ends with es_streams.
 * With `macs`, each added event's MAC is checked from the same content digest: a row inserted
 * with the database's grants (a correct link, no MAC that verifies) is never signed.
 * Work is proportional to the events added, not to the log.
 */
export async function readAdditions(tx: SqlQueryable, engine: SqlClient['engine'], previous: Checkpoint | null, macs: EventMacCheck | null = null): Promise<Additions> {
  const since = previous?.body.snapshot ?? null;
  const touched = new Map<string, TouchedStream>();
  const waiting = new Map<string, Map<number, Waiting>>();
  const order = new OrderDigest();
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < MAX_LISTED_REFUSALS) problems.push(text);
  };
  let after = { commit: '0', prepare: '0' };
  if (since) {
    const [bound] = (await tx.query<{ xmin: string }>('select pg_snapshot_xmin($1::text::pg_snapshot)::text as xmin', [since])) as [{ xmin: string }];
    after = { commit: bound.xmin, prepare: '0' };
  }

  const apply = (stream: string, state: TouchedStream, event: Waiting) => {
    const previousHash = state.after.revision < 0 ? null : Buffer.from(state.after.hash, 'hex');
    if (linkHash(previousHash, event.revision, event.content).toString('hex') !== event.hash) {
      problem(`stream ${stream} revision ${event.revision}: its hash does not follow from its content and the hash before it`);
    }
    // Goes on from the stored hash, as verify does, so that one bad event is named once.
    state.after = { stream, revision: event.revision, hash: event.hash };
  };

  for (;;) {
    const rows: EventRow[] = await tx.query<EventRow>(
      pageWithinBytes(
        `e.xid::text as xid, e.position::text as position, e.stream, e.revision::text as revision, e.id::text as id, e.type, ${dataColumns(engine)}, e.metadata,
         encode(e.hash, 'hex') as hash, ${macs ? "encode(e.mac, 'hex')" : 'null'} as mac`,
        `(e.xid, e.position) > ($1::text::xid8, $2::bigint) and ($3::text is null or not pg_visible_in_snapshot(e.xid, $3::text::pg_snapshot))`,
        String(PAGE),
        String(LOG_PAGE_BYTES),
      ),
      [after.commit, after.prepare, since],
    );
    if (rows.length === 0) break;
    await withDataApart(tx, rows);
    await startStreams(tx, rows, since, touched);
    // A page of large events is tens of milliseconds of hashing: other requests run between slices.
    const slices = new ThreadSlices();
    for (const row of rows) {
      await slices.next();
      const revision = Number(row.revision);
      order.add(`${row.xid}/${row.position}`, row.stream, revision);
      const state = touched.get(row.stream)!;
      const event = { revision, content: await contentDigestYielding(row, slices), hash: row.hash };
      const forged = macs?.problem(
        { id: row.id, stream: row.stream, type: row.type, data: row.data, metadata: row.metadata, revision, position: { commit: BigInt(row.xid), prepare: BigInt(row.position) }, ...(row.mac ? { mac: row.mac } : {}) },
        event.content,
      );
      if (forged) problem(forged);
      if (revision <= state.after.revision) {
        problem(`stream ${row.stream} revision ${revision}: added since the checkpoint, though the stream had already reached revision ${state.after.revision}`);
        continue;
      }
      if (revision > state.after.revision + 1) {
        // Concurrent appends to one stream may commit in another order than their transaction ids.
        const pending = waiting.get(row.stream) ?? new Map<number, Waiting>();
        waiting.set(row.stream, pending.set(revision, event));
        continue;
      }
      apply(row.stream, state, event);
      const pending = waiting.get(row.stream);
      for (let next = pending?.get(state.after.revision + 1); next; next = pending!.get(state.after.revision + 1)) {
        pending!.delete(next.revision);
        apply(row.stream, state, next);
      }
      if (pending?.size === 0) waiting.delete(row.stream);
    }
    const last = rows[rows.length - 1]!;
    after = { commit: last.xid, prepare: last.position };
  }
  for (const [stream, pending] of waiting) {
    problem(`stream ${stream}: revision ${Math.min(...pending.keys())} was added since the checkpoint without the revision before it`);
  }
  const [last] = await tx.query<{ position: string }>(`select e.xid::text || '/' || e.position::text as position from es_events e order by e.xid desc, e.position desc limit 1`);
  return { touched, order, last: last?.position ?? null, problems };
}

/** The head as `since` saw it of every stream of `rows` not seen before: its last event visible in that snapshot (none before the first checkpoint). */
async function startStreams(tx: SqlQueryable, rows: readonly EventRow[], since: string | null, touched: Map<string, TouchedStream>): Promise<void> {
  const streams = [...new Set(rows.map((row) => row.stream))].filter((stream) => !touched.has(stream));
  if (streams.length === 0) return;
  const heads = since
    ? await tx.query<{ stream: string; revision: string | null; hash: string | null }>(
        `select s.stream, h.revision::text as revision, encode(h.hash, 'hex') as hash
         from unnest($1::text[]) as s(stream)
         left join lateral (
           select e.revision, e.hash from es_events e where e.stream = s.stream and pg_visible_in_snapshot(e.xid, $2::text::pg_snapshot) order by e.revision desc limit 1
         ) h on true`,
        [streams, since],
      )
    : streams.map((stream) => ({ stream, revision: null, hash: null }));
  for (const head of heads) {
    const before = head.revision === null ? null : { stream: head.stream, revision: Number(head.revision), hash: head.hash! };
    touched.set(head.stream, { before, after: before ?? { stream: head.stream, revision: -1, hash: '' } });
  }
}
