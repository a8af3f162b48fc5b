import { Client } from 'pg';
import type { LeaseStore } from './port';

/**
 * Leases as PostgreSQL session-level advisory locks on one dedicated connection: the server
 * frees them the moment that connection ends, so a crashed holder loses its leases at once
 * and a standby takes over on its next try.
 */
export class PostgresLeaseStore implements LeaseStore {
  private connection: Client | null = null;
  private readonly held = new Set<string>();

  constructor(private readonly connectionString: string) {}

  async tryAcquire(name: string): Promise<boolean> {
    if (this.held.has(name) && (await this.confirm(name))) return true;
    const connection = await this.connect();
    const [row] = (await connection.query<{ acquired: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as acquired', [leaseKey(name)])).rows;
    if (row?.acquired) this.held.add(name);
    return row?.acquired === true;
  }

  async confirm(name: string): Promise<boolean> {
    if (!this.held.has(name) || !this.connection) return false;
    try {
      await this.connection.query('select 1');
      return true;
    } catch {
      this.dropConnection();
      return false;
    }
  }

  async release(name: string): Promise<void> {
    if (!this.held.delete(name) || !this.connection) return;
    await this.connection.query('select pg_advisory_unlock(hashtextextended($1, 0))', [leaseKey(name)]).catch(() => this.dropConnection());
  }

  async close(): Promise<void> {
    this.held.clear();
    const connection = this.connection;
    this.connection = null;
    await connection?.end().catch(() => undefined);
  }

  private async connect(): Promise<Client> {
    if (this.connection) return this.connection;
    const connection = new Client({ connectionString: this.connectionString, connectionTimeoutMillis: 5000, application_name: LEASE_APPLICATION_NAME });
    // A broken connection frees its locks on the server; here it only means the leases are lost.
    connection.on('error', () => this.dropConnection());
    await connection.connect();
    this.connection = connection;
    return connection;
  }

  private dropConnection(): void {
    const connection = this.connection;
    this.connection = null;
    this.held.clear();
    void connection?.end().catch(() => undefined);
  }
}

/** How operators (and the fencing test) tell the lease connection apart in pg_stat_activity. */
export const LEASE_APPLICATION_NAME = 'headless-cms-lease';

const leaseKey = (name: string) => `headless-cms-lease:${name}`;
