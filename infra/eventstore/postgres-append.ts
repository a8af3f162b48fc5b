import { randomUUID } from 'node:crypto';
import type { SqlClient, SqlQueryable } from '../sql/client';
import { approximateBytes } from '../approximate-bytes';
import { CHUNK_CHARS } from '../json-chunks';
import { jsonParamInSlices } from '../sql/json-param';
import { ThreadSlices } from '../thread-slices';
import { contentDigest, contentDigestInSlices } from './chain';
import { eventMac } from './event-mac';
import type { ExpectedRevision, NewEvent } from './port';

/** What one append wrote: the stream's new revision and the log position (xid, sequence) of its last event. */
export interface AppendedRow {
  readonly revision: string;
  readonly xid: string;
  readonly position: string;
}

/** One stream's part of an APPEND_BATCH statement; every event already has its id. */
export interface StreamAppend {
  readonly stream: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
}

export const CHANNEL = 'es_events';

/**
 * One statement appends to many streams at once, each with its own expectation: the rows of
 * the JSON array $1 advance their streams (a failed expectation advances nothing), the events
 * of the advanced streams are inserted after them, and one NOTIFY is sent. It answers one row
 * per stream that advanced; a stream without a row failed its expectation.
 *
 * Concurrent appends queue on the es_streams row (or, for a new stream, on its key), and READ
 * COMMITTED re-checks each condition against the winner's row: the loser gets no row, never a
 * unique violation. The four CTEs touch disjoint rows because a batch never holds a stream twice.
 * The notify is an uncorrelated subquery, evaluated once; events take `pg_current_xact_id()` by default.
 *
 * The hash chain (chain.ts) is linked here: each event carries the SHA-256 digest of its canonical
 * content, computed by the caller, and es_chain folds those onto the stream's last hash, which
 * es_streams holds beside its revision. The row that decides the revision also decides the
 * previous hash, so a concurrent writer cannot fork a chain. RETURNING sees only new values,
 * hence `previous_hash`: the hash the append chained onto, kept for the events' insert. Each
 * event's MAC (event-mac.ts) comes computed by the caller, beside its content digest.
 */
const APPEND_BATCH = `
  with request as (
    select r.i, r.stream, r.kind, r.expected, r.events, jsonb_array_length(r.events)::bigint as n, decode(r.contents, 'hex') as contents,
      decode(r.macs, 'hex') as macs
    from jsonb_to_recordset($1::text::jsonb) as r(i int, stream text, kind text, expected bigint, events jsonb, contents text, macs text)
  ),
  created as (
    insert into es_streams (stream, revision, hash)
    select stream, n - 1, (es_chain('', 0, contents))[n] from request where kind = 'no_stream'
    on conflict do nothing returning stream, revision, previous_hash
  ),
  upserted as (
    insert into es_streams (stream, revision, hash)
    select stream, n - 1, (es_chain('', 0, contents))[n] from request where kind = 'any'
    on conflict (stream) do update set revision = es_streams.revision + excluded.revision + 1, previous_hash = es_streams.hash,
      hash = (select (es_chain(es_streams.hash, es_streams.revision + 1, r.contents))[r.n] from request r where r.stream = excluded.stream)
    returning stream, revision, previous_hash
  ),
  updated as (
    update es_streams s set revision = s.revision + r.n, previous_hash = s.hash, hash = (es_chain(s.hash, s.revision + 1, r.contents))[r.n]
    from request r
    where s.stream = r.stream and (r.kind = 'stream_exists' or (r.kind = 'exact' and s.revision = r.expected))
    returning s.stream, s.revision, s.previous_hash
  ),
  advanced as (select * from created union all select * from upserted union all select * from updated),
  inserted as (
    insert into es_events (stream, revision, id, type, data, metadata, hash, mac)
    select r.stream, a.revision - r.n + e.ordinality, (e.value->>'id')::uuid, e.value->>'type', e.value->'data', e.value->'metadata',
      c.hashes[e.ordinality], substring(r.macs from (e.ordinality::int - 1) * 32 + 1 for 32)
    from advanced a join request r on r.stream = a.stream
    cross join lateral (select es_chain(coalesce(a.previous_hash, ''), a.revision - r.n + 1, r.contents) as hashes) c
    cross join jsonb_array_elements(r.events) with ordinality as e(value, ordinality)
    order by r.i, e.ordinality
    returning stream, revision, xid, position
  )
  select stream, max(revision)::text as revision, xid::text as xid, max(position)::text as position,
    (select pg_notify('${CHANNEL}', '')) as notified
  from inserted group by stream, xid`;

/**
 * Runs APPEND_BATCH for `appends` (distinct streams, each with events that have ids): the one
 * path by which events are written, for group commit and for multi-stream appends alike. The
 * log holds the events in the order of `appends`. Answers a row per stream that advanced.
 */
export function appendStatement(sql: SqlQueryable, payload: AppendPayload): Promise<(AppendedRow & { stream: string })[]> {
  return sql.query<AppendedRow & { stream: string }>(APPEND_BATCH, [payload.value], { prepare: true });
}

/** The events with an id each: a generated one where they came without. */
export function withIds(events: readonly NewEvent[]): NewEvent[] {
  return events.map((event) => (event.id ? event : { ...event, id: randomUUID() }));
}

interface PendingAppend extends StreamAppend {
  readonly resolve: (row: AppendedRow | null) => void;
  readonly reject: (error: unknown) => void;
}

export interface AppendBatcherOptions {
  /** Appends written by one statement at most; default 200. */
  readonly maxBatch?: number;
  /** Statements in flight at once; default 4. */
  readonly maxInFlight?: number;
  /** The key of the events' MACs (event-mac.ts); without it events are written without one (tests and tools that check no MAC). */
  readonly macKey?: Buffer;
}

/**
 * Group commit: appends that arrive while earlier ones are being written go out together, in
 * one statement and one transaction. Under load this saves a round trip, a commit and a NOTIFY
 * per append; an append that finds a free slot is written at once, so a lone writer waits for
 * nothing. A stream is never in two statements at once, so batches in flight touch disjoint
 * rows and cannot deadlock one another. When a batch fails as a whole (a duplicate event id, a
 * deadlock with another process), each of its appends is retried alone, so only the faulty one fails.
 */
export class AppendBatcher {
  private readonly queue: PendingAppend[] = [];
  private readonly streamsInFlight = new Set<string>();
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly macKey: Buffer | null;

  constructor(
    private readonly sql: SqlClient,
    options: AppendBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 200;
    this.maxInFlight = options.maxInFlight ?? 4;
    this.macKey = options.macKey ?? null;
  }

  /** The appended row, or null when the expectation failed. */
  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendedRow | null> {
    return new Promise((resolve, reject) => {
      // Ids are fixed here, so that a batch retried append by append cannot write an event twice.
      this.queue.push({ stream, events: withIds(events), expected, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.maxInFlight) {
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      this.inFlight++;
      for (const pending of batch) this.streamsInFlight.add(pending.stream);
      void this.write(batch).finally(() => {
        this.inFlight--;
        for (const pending of batch) this.streamsInFlight.delete(pending.stream);
        this.dispatch();
      });
    }
  }

  /** The oldest queued appends, at most one per stream and none for a stream in flight. */
  private takeBatch(): PendingAppend[] {
    const batch: PendingAppend[] = [];
    const streams = new Set<string>();
    for (let index = 0; index < this.queue.length && batch.length < this.maxBatch; ) {
      const pending = this.queue[index]!;
      if (streams.has(pending.stream) || this.streamsInFlight.has(pending.stream)) {
        index++;
        continue;
      }
      streams.add(pending.stream);
      batch.push(pending);
      this.queue.splice(index, 1);
    }
    return batch;
  }

  private async write(batch: readonly PendingAppend[]): Promise<void> {
    let rows: (AppendedRow & { stream: string })[];
    try {
      rows = await appendStatement(this.sql, await appendPayload(batch, this.macKey, this.sql.engine));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else for (const pending of batch) await this.write([pending]); // one at a time: a failing batch does not become 200 statements at once
      return;
    }
    const byStream = new Map(rows.map((row) => [row.stream, row]));
    for (const pending of batch) pending.resolve(byStream.get(pending.stream) ?? null);
  }
}

/** The parameter of an APPEND_BATCH statement: the appends with their events' digests and MACs. */
export interface AppendPayload {
  /** JSON text, or its UTF-8 bytes (jsonParam). */
  readonly value: string | Buffer;
}

/**
 * The appends as APPEND_BATCH takes them. The content digests and the payload's text are taken in
 * slices (a 1.3 MB item would be tasks of 8-40 ms) and before any transaction, which must not wait
 * for them.
 */
export async function appendPayload(batch: readonly StreamAppend[], macKey: Buffer | null, engine: SqlClient['engine']): Promise<AppendPayload> {
  const slices = new ThreadSlices();
  const digests: Buffer[][] = [];
  let bytes = 0;
  for (const pending of batch) {
    const ofStream: Buffer[] = [];
    for (const event of pending.events) {
      const content = { id: event.id!, stream: pending.stream, type: event.type, data: event.data, metadata: event.metadata };
      const eventBytes = approximateBytes(event.data, CHUNK_CHARS);
      ofStream.push(eventBytes > CHUNK_CHARS ? await contentDigestInSlices(content, slices) : contentDigest(content));
      bytes += eventBytes;
    }
    digests.push(ofStream);
  }
  const rows = payloadRows(batch, digests, macKey);
  // The events' sizes are known already: walking the rows again would cost ordinary batches a tenth of their serialisation.
  return { value: bytes > CHUNK_CHARS ? await jsonParamInSlices(engine, rows) : JSON.stringify(rows) };
}

function payloadRows(batch: readonly StreamAppend[], digestsOf: readonly (readonly Buffer[])[], macKey: Buffer | null): object[] {
  return batch.map((pending, index) => {
      const digests = digestsOf[index]!;
      return {
        i: index,
        stream: pending.stream,
        kind: typeof pending.expected === 'number' ? 'exact' : pending.expected,
        expected: typeof pending.expected === 'number' ? pending.expected : null,
        events: pending.events.map((event) => ({ id: event.id, type: event.type, data: event.data, metadata: event.metadata })),
        // The events' content digests, concatenated as hex: es_chain links them onto the stream's last hash.
        contents: digests.map((digest) => digest.toString('hex')).join(''),
        // Their MACs, in the same order and form.
        macs: macKey ? digests.map((digest) => eventMac(macKey, digest).toString('hex')).join('') : null,
      };
  });
}
