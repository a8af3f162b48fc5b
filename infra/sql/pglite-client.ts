import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { SqlClient, SqlQueryable } from './client';

/**
 * PGlite runs in this process and serves one statement at a time; transactions queue. It has
 * no statement timeout: `statement_timeout` is accepted but never fires (the WASM build has no
 * timer signal; a 3 s pg_sleep under a 500 ms timeout runs its 3 s), so reads are bounded by
 * the limits on their input instead (docs/operations.md, "Costly queries").
 */
export class PgliteSqlClient implements SqlClient {
  readonly engine = 'pglite' as const;

  private constructor(private readonly db: PGlite) {}

  /** `dataDir` undefined keeps everything in memory (tests). */
  static async open(dataDir?: string): Promise<PgliteSqlClient> {
    if (dataDir) await mkdir(dataDir, { recursive: true });
    const db = dataDir ? new PGlite(dataDir) : new PGlite();
    await db.waitReady;
    return new PgliteSqlClient(db);
  }

  async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    const result = await this.db.query<Row>(sql, params);
    return result.rows;
  }

  read<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.query<Row>(sql, params);
  }

  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) =>
      work({
        query: async <Row>(sql: string, params: unknown[] = []) => (await tx.query<Row>(sql, params)).rows,
      }),
    );
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    return this.db.listen(channel, onNotify);
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}
