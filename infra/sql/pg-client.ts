import { createHash } from 'node:crypto';
import { Client, type ClientConfig, Pool, type PoolClient, type QueryConfig, types } from 'pg';
import { type QueryOptions, READ_MODEL_WRITER, type SqlClient, type SqlQueryable } from './client';

// int8 and numeric arrive as strings by default; the adapters convert where they need to.
types.setTypeParser(types.builtins.INT8, (value) => value);

/**
 * Bounds opening a connection and waiting for a free one in the pool: with the server
 * unreachable or every connection stuck, a request fails within this time instead of hanging.
 */
const CONNECT_TIMEOUT_MS = 3000;
/** First wait before a dropped LISTEN connection is opened again; doubled up to the cap. */
const LISTEN_RETRY_MS = 250;
const LISTEN_RETRY_CAP_MS = 5000;

/** SQLSTATE connection_failure, given to pg's own connection errors (they carry no code), so that an outage can be told from a bad query. */
const CONNECTION_FAILURE = '08006';
const CONNECTION_ERROR_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * Distinct texts kept prepared, per process: a safeguard, since only fixed texts are prepared
 * (QueryOptions). pg cannot close a prepared statement, so past this the rest run unnamed.
 */
const MAX_PREPARED_TEXTS = 200;
/**
 * Distinct texts prepared with a generic plan (QueryOptions.prepare 'generic'), per process. Each
 * is kept on every connection that runs it (a projection batch's plan holds up to 0.7 MB of the
 * server's memory), so past this the rest are prepared as ordinary statements.
 */
const MAX_GENERIC_TEXTS = 32;
/** Connections per pool for statements with a generic plan: few callers run them at once (the projection batches, the log's tail readers), and few connections keep few copies of the plans. */
const GENERIC_PLAN_CONNECTIONS = 2;
/** SQLSTATE feature_not_supported, as for "cached plan must not change result type". */
const PLAN_INVALIDATED = '0A000';

function connectionConfig(connectionString: string): ClientConfig {
  return { connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS };
}

/** Tags a connection error of pg's own with CONNECTION_FAILURE; server errors keep their SQLSTATE. */
function classified(error: unknown): unknown {
  // Duck-typed: errors raised by Node itself may come from another realm than `Error`.
  if (typeof error === 'object' && error !== null && !('code' in error) && 'message' in error && typeof error.message === 'string' && CONNECTION_ERROR_MESSAGE.test(error.message)) {
    return Object.assign(error, { code: CONNECTION_FAILURE });
  }
  return error;
}

export interface PgSqlClientOptions {
  /** Per pool: one for writes and other statements, one for reads. */
  readonly maxConnections?: number;
  /** Reads running longer are cancelled by the server; 0 lets them run. */
  readonly readStatementTimeoutMs?: number;
  /** Opens without trying a connection first: for a server that may be away at start (a read replica). */
  readonly lazy?: boolean;
}

function openPool(connectionString: string, max: number, statementTimeoutMs = 0, applicationName?: string): Pool {
  const pool = new Pool({
    ...connectionConfig(connectionString),
    max,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    ...(applicationName ? { application_name: applicationName } : {}),
  });
  // A broken idle connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

export class PgSqlClient implements SqlClient {
  readonly engine = 'postgres' as const;
  private readonly listeners = new Set<Client>();
  private readonly statements = new PreparedNames(MAX_PREPARED_TEXTS);
  private readonly genericStatements = new PreparedNames(MAX_GENERIC_TEXTS);
  /** Connections that plan a prepared statement once for any values (QueryOptions.prepare 'generic'), opened when first asked for; the read store's are named READ_MODEL_WRITER. */
  private genericPool: Pool | null = null;
  private readModelGenericPool: Pool | null = null;
  /** Connections of those pools that were told to use generic plans (a SET once connected, not the start-up packet: a pooler in session mode passes a SET on but may refuse `options`). */
  private readonly genericPlanConnections = new WeakSet<PoolClient>();
  private closed = false;
  /** Connections named READ_MODEL_WRITER from their start-up (forReadModels), opened when first asked for. */
  private readModelPool: Pool | null = null;
  private readModels: SqlClient | null = null;

  private constructor(
    private readonly pool: Pool,
    /** Its connections carry `statement_timeout` from their start-up: no statement more per read. */
    private readonly readPool: Pool,
    private readonly connectionString: string,
    private readonly maxConnections: number,
  ) {}

  static async open(connectionString: string, options: PgSqlClientOptions = {}): Promise<PgSqlClient> {
    const maxConnections = options.maxConnections ?? 20;
    const pool = openPool(connectionString, maxConnections);
    const readPool = openPool(connectionString, maxConnections, options.readStatementTimeoutMs);
    try {
      if (!options.lazy) await Promise.all([pool.query('select 1'), readPool.query('select 1')]);
    } catch (error) {
      await Promise.all([pool.end(), readPool.end()]);
      throw error;
    }
    return new PgSqlClient(pool, readPool, connectionString, maxConnections);
  }

  forReadModels(): SqlClient {
    if (this.readModels) return this.readModels;
    // Named at start-up, never by SET: a connection keeps its name for life, so a transaction it runs is never taken for another's.
    const pool = (this.readModelPool = openPool(this.connectionString, this.maxConnections, 0, READ_MODEL_WRITER));
    const readModels: SqlClient = {
      engine: this.engine,
      query: <Row>(sql: string, params: unknown[] = [], options?: QueryOptions) => this.runRouted<Row>(pool, true, sql, params, options),
      read: <Row>(sql: string, params?: unknown[], options?: QueryOptions) => this.read<Row>(sql, params, options),
      transaction: <T>(work: (tx: SqlQueryable) => Promise<T>) => this.transactionOn(pool, work),
      listen: (channel, onNotify) => this.listen(channel, onNotify),
      close: () => this.close(),
      forReadModels: () => readModels,
    };
    this.readModels = readModels;
    return readModels;
  }

  query<Row>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Row[]> {
    return this.runRouted<Row>(this.pool, false, sql, params, options);
  }

  read<Row>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Row[]> {
    return this.run<Row>(this.readPool, sql, params, options);
  }

  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return this.transactionOn(this.pool, work);
  }

  private async transactionOn<T>(pool: Pool, work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    const connection = await pool.connect().catch((error: unknown) => {
      throw classified(error);
    });
    // A connection that dies mid-transaction emits 'error'; the failing query reports it, so the event must not crash the process.
    const ignore = () => undefined;
    connection.on('error', ignore);
    try {
      await connection.query('begin');
      const result = await work({
        query: <Row>(sql: string, params: unknown[] = [], options?: QueryOptions) => this.run<Row>(connection, sql, params, options),
      });
      await connection.query('commit');
      return result;
    } catch (error) {
      await connection.query('rollback').catch(() => undefined);
      throw classified(error);
    } finally {
      connection.off('error', ignore);
      connection.release();
    }
  }

  /**
   * LISTEN on a dedicated connection that is re-established (with backoff) whenever it
   * drops, so notifications resume after a database restart. `onNotify('')` is also called
   * after each reconnect, since notifications sent while disconnected are lost. Only one
   * attempt to reconnect is ever pending, however long the server stays away.
   */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let current: Client | null = null;
    const connect = async (): Promise<void> => {
      const client = new Client(connectionConfig(this.connectionString));
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query(`listen "${channel.replace(/"/g, '')}"`);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw classified(error);
      }
      if (stopped || this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      current = client;
      this.listeners.add(client);
      // Watched only once established: a failed attempt also ends its client, and is retried by reconnect alone.
      client.once('end', () => {
        this.listeners.delete(client);
        if (current === client) current = null;
        if (!stopped && !this.closed) void reconnect(LISTEN_RETRY_MS);
      });
    };
    const reconnect = async (delayMs: number): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (stopped || this.closed) return;
      try {
        await connect();
        onNotify('');
      } catch {
        void reconnect(Math.min(delayMs * 2, LISTEN_RETRY_CAP_MS));
      }
    };
    await connect();
    return async () => {
      stopped = true;
      const client = current as Client | null;
      if (client) {
        this.listeners.delete(client);
        await client.end().catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.listeners].map((client) => client.end().catch(() => undefined)));
    this.listeners.clear();
    await Promise.all([this.pool.end(), this.readPool.end(), this.readModelPool?.end(), this.genericPool?.end(), this.readModelGenericPool?.end()]);
  }

  /** A statement marked `prepare: 'generic'` on connections with generic plans while the budget of such texts lasts; any other on `pool`. */
  private async runRouted<Row>(pool: Pool, forReadModels: boolean, sql: string, params: unknown[], options: QueryOptions | undefined): Promise<Row[]> {
    const name = options?.prepare === 'generic' ? this.genericStatements.nameOf(sql) : undefined;
    if (!name) return this.run<Row>(pool, sql, params, options);
    const generic = forReadModels
      ? (this.readModelGenericPool ??= openPool(this.connectionString, GENERIC_PLAN_CONNECTIONS, 0, READ_MODEL_WRITER))
      : (this.genericPool ??= openPool(this.connectionString, GENERIC_PLAN_CONNECTIONS, 0));
    try {
      return await this.runWithGenericPlan<Row>(generic, name, sql, params);
    } catch (error) {
      if ((error as { code?: unknown }).code !== PLAN_INVALIDATED) throw classified(error);
      this.genericStatements.refuse(sql);
      return this.run<Row>(pool, sql, params, undefined);
    }
  }

  /** As `Pool.query` does, a connection whose statement failed is closed rather than reused. */
  private async runWithGenericPlan<Row>(generic: Pool, name: string, sql: string, params: unknown[]): Promise<Row[]> {
    const connection = await generic.connect();
    // A connection that dies mid-statement emits 'error'; the failing statement reports it, so the event must not crash the process.
    const ignore = () => undefined;
    connection.on('error', ignore);
    try {
      if (!this.genericPlanConnections.has(connection)) {
        await connection.query('set plan_cache_mode = force_generic_plan');
        this.genericPlanConnections.add(connection);
      }
      const { rows } = await connection.query({ name, text: sql, values: params });
      connection.release();
      return rows as Row[];
    } catch (error) {
      connection.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    } finally {
      connection.off('error', ignore);
    }
  }

  /** A statement prepared once `PLAN_INVALIDATED` is run unnamed from then on: pg keeps the broken statement on its connections. */
  private async run<Row>(on: Pool | PoolClientLike, sql: string, params: unknown[], options: QueryOptions | undefined): Promise<Row[]> {
    const name = options?.prepare ? this.statements.nameOf(sql) : undefined;
    const statement: QueryConfig = name ? { name, text: sql, values: params } : { text: sql, values: params };
    try {
      return (await on.query(statement)).rows as Row[];
    } catch (error) {
      if (name && (error as { code?: unknown }).code === PLAN_INVALIDATED) {
        this.statements.refuse(sql);
        return this.run<Row>(on, sql, params, undefined);
      }
      throw classified(error);
    }
  }
}

type PoolClientLike = Pick<Client, 'query'>;

/** The name each prepared text runs under: the same on every connection, so each parses it once. */
class PreparedNames {
  private readonly names = new Map<string, string | null>();

  constructor(private readonly capacity: number) {}

  nameOf(sql: string): string | undefined {
    const known = this.names.get(sql);
    if (known !== undefined) return known ?? undefined;
    if (this.names.size >= this.capacity) return undefined;
    const name = `cms_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
    this.names.set(sql, name);
    return name;
  }

  refuse(sql: string): void {
    this.names.set(sql, null);
  }
}
