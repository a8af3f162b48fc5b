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
   */
  readonly prepare?: boolean;
}

export interface SqlQueryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Row[]>;
}

export interface SqlClient extends SqlQueryable {
  readonly engine: 'pglite' | 'postgres';
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
