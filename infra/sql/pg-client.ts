import { Client, Pool, types } from 'pg';
import type { SqlClient, SqlQueryable } from './client';

// int8 and numeric arrive as strings by default; the adapters convert where they need to.
types.setTypeParser(types.builtins.INT8, (value) => value);

export class PgSqlClient implements SqlClient {
  readonly engine = 'postgres' as const;
  private readonly listeners = new Set<Client>();
  private closed = false;

  private constructor(
    private readonly pool: Pool,
    private readonly connectionString: string,
  ) {}

  static async open(connectionString: string, maxConnections = 20): Promise<PgSqlClient> {
    const pool = new Pool({ connectionString, max: maxConnections });
    // A broken idle connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    await pool.query('select 1');
    return new PgSqlClient(pool, connectionString);
  }

  async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    const result = await this.pool.query(sql, params);
    return result.rows as Row[];
  }

  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    const connection = await this.pool.connect();
    // A connection that dies mid-transaction emits 'error'; the failing query reports it, so the event must not crash the process.
    const ignore = () => undefined;
    connection.on('error', ignore);
    try {
      await connection.query('begin');
      const result = await work({
        query: async <Row>(sql: string, params: unknown[] = []) =>
          (await connection.query(sql, params)).rows as Row[],
      });
      await connection.query('commit');
      return result;
    } catch (error) {
      await connection.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      connection.off('error', ignore);
      connection.release();
    }
  }

  /**
   * LISTEN on a dedicated connection that is re-established (with backoff) whenever it
   * drops, so notifications resume after a database restart. `onNotify('')` is also called
   * after each reconnect, since notifications sent while disconnected are lost.
   */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let current: Client | null = null;
    const connect = async (): Promise<void> => {
      const client = new Client({ connectionString: this.connectionString });
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      client.on('error', () => undefined);
      client.once('end', () => {
        this.listeners.delete(client);
        if (!stopped && !this.closed) void reconnect(250);
      });
      await client.connect();
      await client.query(`listen "${channel.replace(/"/g, '')}"`);
      current = client;
      this.listeners.add(client);
    };
    const reconnect = async (delayMs: number): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (stopped || this.closed) return;
      try {
        await connect();
        onNotify('');
      } catch {
        void reconnect(Math.min(delayMs * 2, 5000));
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
    await this.pool.end();
  }
}
