import { READ_MODEL_WRITER, type SqlClient } from '../sql/client';
import { AppendBatcher, type AppendBatcherOptions, appendPayload, appendStatement, withIds } from './postgres-append';
import { PostgresChainAudit, CHECKPOINTS_TABLE } from './postgres-chain-audit';
import { inspectGuards, restoreGuards } from './postgres-chain-guards';
import { CHAIN_FUNCTIONS, IMMUTABILITY_TRIGGERS } from './postgres-chain-schema';
import { chainUnhashedEvents } from './postgres-chain-upgrade';
import { type MacMarker, trustedMarker } from './event-mac';
import { EventMacCheck } from './event-mac-check';
import { MAC_MARKER_TABLE, readMacMarker, writeMacMarker } from './postgres-mac-marker';
import { dataColumns, withDataApart } from './postgres-event-data';
import { pageWithinBytes } from './postgres-page-bytes';
import { PollingSubscription, SharedTail, type TailPage } from './postgres-subscription';
import {
  LOG_PAGE_BYTES,
  START,
  WrongExpectedRevisionError,
  checkAppendRequests,
  type AppendRequest,
  type AppendResult,
  type EventHeader,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamTail,
  type SubscribeOptions,
  type Subscription,
} from './port';

/**
 * The event store on PostgreSQL or PGlite. The global order is (transaction id, sequence):
 * readers only see rows whose transaction id is below the oldest transaction still running,
 * so a transaction that commits late can never land before a position a reader has passed.
 */

const SCHEMA = [
  `create table if not exists es_streams (
     stream text primary key,
     revision bigint not null,
     hash bytea not null,
     previous_hash bytea
   )`,
  `create table if not exists es_events (
     position bigserial primary key,
     xid xid8 not null default pg_current_xact_id(),
     stream text not null,
     revision bigint not null,
     id uuid not null unique,
     type text not null,
     data jsonb not null,
     metadata jsonb not null,
     recorded_at timestamptz not null default now(),
     hash bytea not null,
     unique (stream, revision)
   )`,
  'create index if not exists es_events_xid_position on es_events (xid, position)',
  // The heads in byte order, as a checkpoint reads them (postgres-chain-audit.ts): pages are index ranges, not sorts of every stream.
  'create index if not exists es_streams_stream_bytes on es_streams (stream collate "C")',
  CHECKPOINTS_TABLE,
  // Stores created before the hash chain: added nullable, filled by chainUnhashedEvents, then NOT NULL.
  'alter table es_streams add column if not exists hash bytea',
  'alter table es_streams add column if not exists previous_hash bytea',
  'alter table es_events add column if not exists hash bytea',
  // Events before MACs keep none: the MAC marker (written by migrate) says where they begin.
  'alter table es_events add column if not exists mac bytea',
  MAC_MARKER_TABLE,
  ...CHAIN_FUNCTIONS,
];

/**
 * Set on es_events once the schema above, the chain and the triggers are in place: later starts skip the DDL.
 * Schema 3 added es_streams_stream_bytes; schema 4 the events' MACs and the MAC marker.
 */
const SCHEMA_MARK = 'cms event log: hash-chained, append-only (schema 4)';

/**
 * Selected from `es_events e`. The output names shadow the columns in a bare ORDER BY, which
 * would then sort the text casts: ORDER BY must name `e.xid`, `e.position`, `e.revision`.
 */
const columns = (mac: boolean, engine: SqlClient['engine']) => `e.xid::text as xid, e.position::text as position, e.stream, e.revision::text as revision,
  e.id::text as id, e.type, ${dataColumns(engine)}, e.metadata, encode(e.hash, 'hex') as hash, ${mac ? "encode(e.mac, 'hex')" : 'null'} as mac`;

/**
 * Only rows of transactions older than every one still running that could hold events: nothing
 * can commit before them any more. Transaction ids are shared by every database of the server; a
 * transaction running in another database never writes this log, so it does not hold readers back
 * (a long migration or index build there would otherwise hide every event appended since it
 * began). Nor does one of the read store's connections (READ_MODEL_WRITER): a rebuild's index
 * builds and bulk writes would otherwise hold the live projections, and every write waiting for
 * them, for as long as each runs. One whose session is unknown (it ended after the snapshot, or
 * its session is hidden from this role) still counts, for this read only.
 */
const VISIBLE = `e.xid < coalesce(
  (select min(running) from pg_snapshot_xip(pg_current_snapshot()) as running
    where not exists (select 1 from pg_stat_activity other where other.backend_xid = xid(running)
      and (other.datname <> current_database() or other.application_name = '${READ_MODEL_WRITER}'))),
  pg_snapshot_xmax(pg_current_snapshot()))`;


/** An event's columns up to its type, as `columns` selects them (a header adds the metadata). */
const HEADER_COLUMNS = 'e.xid::text as xid, e.position::text as position, e.stream, e.revision::text as revision, e.id::text as id, e.type';

type HeaderRow = Omit<EventRow, 'data' | 'data_apart' | 'hash' | 'mac'>;

export interface EventRow {
  xid: string;
  position: string;
  stream: string;
  revision: string;
  id: string;
  type: string;
  data: unknown;
  /** The data was left out of the row, to be read apart (postgres-event-data.ts). */
  data_apart?: boolean;
  metadata: EventMetadata;
  hash: string;
  mac?: string | null;
}

export interface PostgresEventStoreOptions extends AppendBatcherOptions {
  /** How often an idle subscription polls even without a NOTIFY; default 250 ms. */
  readonly pollIntervalMs?: number;
  /** Events a subscription reads per query; default 500. */
  readonly batchSize?: number;
  /** Bytes of data a subscription's page holds at most (after its first event); default LOG_PAGE_BYTES. */
  readonly pageBytes?: number;
  /** Signs the checkpoint written when an existing unhashed log is chained at start (chain-audit.ts), and the MAC marker. */
  readonly checkpointKey?: Buffer;
  /**
   * Opens the tables as they are, for `cms verify`: no DDL, no chaining of a log marked as
   * written before the chain, no trigger restored, no checkpoint signed. Whatever is found is
   * for the caller to report (`audit.guards()`). The caller checks first that the tables exist
   * (`eventTablesExist`).
   */
  readonly readOnly?: boolean;
}

export class PostgresEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly appends: AppendBatcher;
  private readonly macKey: Buffer | null;
  private readonly tail: SharedTail;
  /** Checkpoints and stream heads, for `cms verify` and the periodic checkpoint writer. */
  readonly audit: PostgresChainAudit;
  /** Where the events' MACs begin, as read at the open; null when the store has no marker. */
  macMarker: MacMarker | null = null;
  /** The select list of event reads: a store of an earlier schema, opened read-only, has no MAC column. */
  private columns: string;

  private constructor(
    private readonly sql: SqlClient,
    options: PostgresEventStoreOptions,
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 500;
    this.appends = new AppendBatcher(sql, options);
    this.macKey = options.macKey ?? null;
    const pageBytes = options.pageBytes ?? LOG_PAGE_BYTES;
    this.tail = new SharedTail(sql, (after, maxCount) => this.readPage(after, maxCount, pageBytes));
    this.audit = new PostgresChainAudit(sql);
    this.columns = columns(true, sql.engine);
  }

  /**
   * The guards that were found missing, disabled or changed at the open and could not be put
   * back (the role does not own the tables); empty when all are in place.
   */
  guardsNotRestored: readonly string[] = [];
  /** The guards that were found missing, disabled or changed at the open and were put back. */
  guardsRestored: readonly string[] = [];

  /**
   * Creates the tables if they are missing, chains a log written before the chain, and puts the
   * immutability guards back when they are not as created (every start: the schema mark alone
   * does not show a dropped trigger). The store does not own `sql`: `close` leaves it open.
   */
  static async create(sql: SqlClient, options: PostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
    const store = new PostgresEventStore(sql, options);
    if (options.readOnly) {
      const [mac] = await sql.query<{ found: boolean }>(
        `select exists (select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'es_events' and column_name = 'mac') as found`,
      );
      store.columns = columns(mac?.found === true, sql.engine);
    } else {
      // A service role that does not own the tables cannot run the DDL, and needs not once they are current.
      const [current] = await sql.query<{ mark: string | null }>(`select obj_description(to_regclass('es_events'), 'pg_class') as mark`);
      const chained = current?.mark === SCHEMA_MARK ? 0 : await migrate(sql, options.checkpointKey ?? null);
      if (chained > 0) await store.audit.writeCheckpoint('upgrade', options.checkpointKey ?? null);
      else if (current?.mark === SCHEMA_MARK) await store.restoreGuards();
    }
    store.macMarker = await readMacMarker(sql);
    if (options.macKey && !options.readOnly) {
      store.audit.checkMacsWith(new EventMacCheck(options.macKey, options.checkpointKey ? trustedMarker(store.macMarker, options.checkpointKey) : null));
    }
    return store;
  }

  static async eventTablesExist(sql: SqlClient): Promise<boolean> {
    const [tables] = await sql.query<{ found: boolean }>(`select to_regclass('es_events') is not null as found`);
    return tables?.found === true;
  }

  private async restoreGuards(): Promise<void> {
    const found = (await this.audit.guards()).triggers;
    if (found.length === 0) return;
    try {
      await restoreGuards(this.sql);
    } catch (error) {
      if ((error as { code?: string }).code !== '42501') throw error;
    }
    this.guardsNotRestored = (await this.audit.guards()).triggers;
    this.guardsRestored = found.filter((guard) => !this.guardsNotRestored.includes(guard));
  }

  /**
   * An empty `events` writes nothing: it checks the expectation and answers the stream's current
   * revision (-1 when it does not exist) and the position of its last event (START when none).
   */
  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return this.checkExpectation(stream, expectedRevision);
    const row = await this.appends.append(stream, events, expectedRevision);
    if (!row) throw await this.wrongRevision(stream, expectedRevision);
    return { revision: Number(row.revision), position: toPosition(row) };
  }

  /** All or nothing: the group-commit statement, in a transaction that a failed expectation rolls back. */
  async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    checkAppendRequests(requests);
    if (requests.length === 0) return [];
    const appends = requests.map((request) => ({ stream: request.stream, events: withIds(request.events), expected: request.expectedRevision }));
    const payload = await appendPayload(appends, this.macKey, this.sql.engine);
    try {
      const rows = await this.sql.transaction(async (tx) => {
        const byStream = new Map((await appendStatement(tx, payload)).map((row) => [row.stream, row]));
        const failed = requests.find((request) => !byStream.has(request.stream));
        if (failed) throw new FailedExpectation(failed);
        return requests.map((request) => byStream.get(request.stream)!);
      });
      return rows.map((row) => ({ revision: Number(row.revision), position: toPosition(row) }));
    } catch (error) {
      if (error instanceof FailedExpectation) throw await this.wrongRevision(error.request.stream, error.request.expectedRevision);
      throw error;
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const rows = await this.sql.query<EventRow>(
      `select ${this.columns} from es_events e
       where e.stream = $1 and e.revision ${backwards ? '<=' : '>='} $2
       order by e.revision ${backwards ? 'desc' : 'asc'} limit $3`,
      [stream, options.fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0), options.maxCount ?? null],
      { prepare: true },
    );
    return (await withDataApart(this.sql, rows)).map(toRecordedEvent);
  }

  async readStreams(streams: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const read = new Map(streams.map((stream) => [stream, [] as RecordedEvent[]]));
    if (streams.length === 0) return read;
    const rows = await this.sql.query<EventRow>(`select ${this.columns} from es_events e where e.stream = any($1::text[]) order by e.stream, e.revision`, [[...new Set(streams)]], { prepare: true });
    for (const row of await withDataApart(this.sql, rows)) read.get(row.stream)!.push(toRecordedEvent(row));
    return read;
  }

  async streamRevisions(streams: readonly string[]): Promise<Map<string, number>> {
    const revisions = new Map(streams.map((stream) => [stream, -1]));
    if (streams.length === 0) return revisions;
    const rows = await this.sql.query<{ stream: string; revision: string }>(
      `select e.stream, max(e.revision)::text as revision from es_events e where e.stream = any($1::text[]) group by e.stream`,
      [[...new Set(streams)]],
      { prepare: true },
    );
    for (const row of rows) revisions.set(row.stream, Number(row.revision));
    return revisions;
  }

  async readStreamHeaders(stream: string): Promise<EventHeader[]> {
    const rows = await this.sql.query<HeaderRow>(`select ${HEADER_COLUMNS}, e.metadata from es_events e where e.stream = $1 order by e.revision`, [stream], { prepare: true });
    return rows.map(toEventHeader);
  }

  async readStreamTail(stream: string, maxCount: number): Promise<StreamTail> {
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new Error(`maxCount must be a positive integer: ${maxCount}`);
    // The count is written into the text: with a LIMIT it can see, PostgreSQL keeps one plan for every call.
    // The second branch lists the columns of `this.columns` by position, nulls where an outline has nothing.
    const rows = await this.sql.query<EventRow & { whole: boolean }>(
      `with tail as materialized (select e.revision from es_events e where e.stream = $1 order by e.revision desc limit ${maxCount})
       select ${this.columns}, true as whole from es_events e where e.stream = $1 and e.revision >= (select min(revision) from tail)
       union all
       select null, null, e.stream, e.revision::text, null, e.type, null::jsonb, false, null::jsonb, null, null, false
       from es_events e where e.stream = $1 and e.revision < (select min(revision) from tail)`,
      [stream],
      { prepare: true },
    );
    const byRevision = (a: { revision: string }, b: { revision: string }) => Number(a.revision) - Number(b.revision);
    const whole = rows.filter((row) => row.whole).sort(byRevision);
    const earlier = rows.filter((row) => !row.whole).sort(byRevision);
    return { events: (await withDataApart(this.sql, whole)).map(toRecordedEvent), earlier: earlier.map((row) => ({ stream: row.stream, revision: Number(row.revision), type: row.type })) };
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    if (options.maxBytes !== undefined) return (await this.readPage(options.after ?? START, options.maxCount ?? null, options.maxBytes)).events;
    const after = options.after ?? START;
    // xid8 compares as a number only as xid8; a text cast would sort '10' before '9'.
    const rows = await this.sql.query<EventRow>(
      `select ${this.columns} from es_events e where ${VISIBLE} and (e.xid, e.position) > ($1::text::xid8, $2::bigint) order by e.xid, e.position limit $3`,
      [after.commit.toString(), after.prepare.toString(), options.maxCount ?? null],
      { prepare: true },
    );
    return (await withDataApart(this.sql, rows)).map(toRecordedEvent);
  }

  /** A page within `maxBytes` (postgres-page-bytes.ts), and whether it may have been cut short of the end of the log by them. */
  private async readPage(after: Position, maxCount: number | null, maxBytes: number): Promise<TailPage> {
    const rows = await this.sql.query<EventRow & { bytes_through: string }>(
      pageWithinBytes(this.columns, `${VISIBLE} and (e.xid, e.position) > ($1::text::xid8, $2::bigint)`, '$3', '$4'),
      [after.commit.toString(), after.prepare.toString(), maxCount, maxBytes],
      { prepare: 'generic' },
    );
    const last = rows[rows.length - 1];
    return { events: (await withDataApart(this.sql, rows)).map(toRecordedEvent), cut: last !== undefined && Number(last.bytes_through) >= maxBytes };
  }

  async countAfter(after: Position, atMost: number): Promise<number> {
    const [row] = await this.sql.query<{ events: number }>(
      `select count(*)::int as events from (
         select 1 from es_events e where ${VISIBLE} and (e.xid, e.position) > ($1::text::xid8, $2::bigint) order by e.xid, e.position limit $3
       ) page`,
      [after.commit.toString(), after.prepare.toString(), atMost],
      { prepare: true },
    );
    return row?.events ?? 0;
  }

  async headPosition(): Promise<Position> {
    const [row] = await this.sql.query<{ xid: string; position: string }>(
      `select e.xid::text as xid, e.position::text as position from es_events e
       where ${VISIBLE} order by e.xid desc, e.position desc limit 1`,
      [],
      { prepare: true },
    );
    return row ? toPosition(row) : START;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    const subscription = new PollingSubscription(this.tail, options, this.pollIntervalMs, this.batchSize);
    this.subscriptions.add(subscription);
    void subscription.done.catch(() => undefined).finally(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
  }

  private async checkExpectation(stream: string, expected: ExpectedRevision): Promise<AppendResult> {
    const [last] = await this.readStream(stream, { direction: 'backwards', maxCount: 1 });
    const actual = last ? last.revision : 'no_stream';
    if (!revisionMatches(expected, actual)) throw new WrongExpectedRevisionError(stream, expected, actual);
    return { revision: last ? last.revision : -1, position: last ? last.position : START };
  }

  /** Read after the failed append: the revision that beat the expectation has committed by then. */
  private async wrongRevision(stream: string, expected: ExpectedRevision): Promise<WrongExpectedRevisionError> {
    const [current] = await this.sql.query<{ revision: string }>('select revision::text as revision from es_streams where stream = $1', [
      stream,
    ]);
    return new WrongExpectedRevisionError(stream, expected, current ? Number(current.revision) : 'no_stream');
  }
}

/**
 * Creates or upgrades the tables, chains a log written before the chain and creates the
 * triggers, and marks where the events' MACs begin, in one transaction; answers how many events
 * were chained. A log marked as written
 * before the chain while checkpoints exist was marked so by someone: chaining it would sign it
 * as it now is, so the start is refused.
 */
async function migrate(sql: SqlClient, checkpointKey: Buffer | null): Promise<number> {
  return sql
    .transaction(async (tx) => {
      // Concurrent `create table if not exists` can collide in the catalog; instances starting together queue here.
      await tx.query(`select pg_advisory_xact_lock(hashtext('es_schema'))`);
      for (const statement of SCHEMA) await tx.query(statement);
      const [signed] = (await tx.query<{ count: string }>('select count(*)::text as count from es_checkpoints')) as [{ count: string }];
      if ((await inspectGuards(tx)).preChain && signed.count !== '0') {
        throw new Error(
          `es_events is marked as written before the hash chain (its hash column accepts NULL), yet ${signed.count} signed checkpoints exist: ` +
            "someone marked it so that this start would re-chain the log as it now is and sign it. Refusing to; run 'cms verify'",
        );
      }
      const upgraded = await chainUnhashedEvents(tx);
      await writeMacMarker(tx, checkpointKey);
      for (const statement of IMMUTABILITY_TRIGGERS) await tx.query(statement);
      await tx.query(`comment on table es_events is '${SCHEMA_MARK}'`);
      return upgraded;
    })
    .catch((error: unknown) => {
      if ((error as { code?: string }).code !== '42501') throw error;
      throw new Error(`the event tables must be created or upgraded by their owner: run 'cms migrate' with the owner's DATABASE_URL (${(error as Error).message})`, {
        cause: error,
      });
    });
}

/** Thrown inside an appendMany transaction to roll it back. */
class FailedExpectation extends Error {
  constructor(readonly request: AppendRequest) {
    super(`stream ${request.stream}: expectation failed`);
  }
}

function revisionMatches(expected: ExpectedRevision, actual: number | 'no_stream'): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === 'no_stream';
  if (expected === 'stream_exists') return actual !== 'no_stream';
  return actual === expected;
}

function toPosition(row: { xid: string; position: string }): Position {
  return { commit: BigInt(row.xid), prepare: BigInt(row.position) };
}

function toEventHeader(row: HeaderRow): EventHeader {
  return { id: row.id, stream: row.stream, revision: Number(row.revision), position: toPosition(row), type: row.type, metadata: row.metadata };
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    revision: Number(row.revision),
    position: toPosition(row),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    hash: row.hash,
    ...(row.mac ? { mac: row.mac } : {}),
  };
}

