import { Client, Pool, types } from 'pg';
import type { SqlClient, SqlQueryable } from './client';

// int8 and numeric arrive as strings by default; the adapters convert where they need to.
types.setTypeParser(types.builtins.INT8, (value) => value);

export class PgSqlClient implements SqlClient {
  readonly engine = 'postgres' as const;
  private readonly listeners = new Set<Client>();

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
      connection.release();
    }
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const client = new Client({ connectionString: this.connectionString });
    client.on('error', () => undefined);
    await client.connect();
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    await client.query(`listen "${channel.replace(/"/g, '')}"`);
    this.listeners.add(client);
    return async () => {
      this.listeners.delete(client);
      await client.end().catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((client) => client.end().catch(() => undefined)));
    this.listeners.clear();
    await this.pool.end();
  }
}
