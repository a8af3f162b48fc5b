/**
 * The narrow SQL surface that the PostgreSQL adapters need, implemented once for a
 * `pg` pool (a PostgreSQL server) and once for PGlite (embedded). Both speak the same
 * SQL, so every adapter built on this runs unchanged on either engine.
 */
export interface QueryOptions {
  /**
   * The statement is one of a fixed few texts (values only in parameters) run again and again:
   * on PostgreSQL it is parsed and planned once per connection and kept as a prepared statement
   * (with a generic plan once PostgreSQL finds it no worse), not parsed and planned at every run.
   * Never for statements built from a client's query, whose texts are unbounded and whose plans
   * depend on the values. PGlite prepares every statement already (pglite-statements.ts).
   *
   * `generic`: also planned once, for a statement of a few shapes, run by few callers at once,
   * whose best plan does not depend on its values. PostgreSQL otherwise plans a prepared
   * statement again at every run when its generic estimate looks dearer than the custom plans (a
   * LIMIT or an array length it cannot know): a projection batch spent 1 ms planning for 3.5 ms
   * running, a page of the log 0.5 ms. On PostgreSQL it runs on a few connections of their own
   * with plan_cache_mode force_generic_plan (past the client's budget of such texts, as `true`);
   * on PGlite it is bound under that setting. In a transaction it is run as `true`.
   */
  readonly prepare?: boolean | 'generic';
}

export interface SqlQueryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Row[]>;
}

/**
 * The application name of the connections the read store writes on. Readers of the event log
 * wait for every transaction that could still commit an event below the one they read up to,
 * but not for these (infra/eventstore/postgres.ts, VISIBLE): a read store never appends events,
 * and its long transactions (a rebuild's index builds and bulk writes, a typed table's build)
 * would otherwise hold back the live projections and every write waiting for them. Only the
 * read store may connect under this name: an event appended on such a connection could be skipped.
 */
export const READ_MODEL_WRITER = 'cms-read-models';

export interface SqlClient extends SqlQueryable {
  readonly engine: 'pglite' | 'postgres';
  /**
   * This client with its statements and transactions on connections named READ_MODEL_WRITER
   * (reads, notifications and closing stay with this client): for the read store only. PGlite,
   * one connection with never a transaction beside another, answers itself.
   */
  forReadModels(): SqlClient;
  /**
   * A read-only statement of the request path, cancelled (SQLSTATE 57014) once it runs longer
   * than the read statement timeout, so one tenant's costly query cannot hold a connection and
   * the server's CPU. PGlite cannot time a statement out (see PgliteSqlClient).
   */
  read<Row = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Row[]>;
  /** Runs `work` in one transaction; it commits when `work` resolves and rolls back when it throws. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Calls `onNotify` for every NOTIFY on `channel` until the returned function is called. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
