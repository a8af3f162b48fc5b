import type { SqlClient } from '../sql/client';
import type { DataKeyStore } from './port';

export class PostgresDataKeyStore implements DataKeyStore {
  private constructor(private readonly sql: SqlClient) {}

  static async create(sql: SqlClient): Promise<PostgresDataKeyStore> {
    await sql.query('create table if not exists kms_data_keys (workspace_id text primary key, wrapped text not null, created_at timestamptz not null default now())');
    await sql.query('create table if not exists kms_data_key_ledger (workspace_id text primary key, first_created_at timestamptz not null default now())');
    // Keys stored before the ledger existed are entered once.
    await sql.query('insert into kms_data_key_ledger (workspace_id) select workspace_id from kms_data_keys on conflict (workspace_id) do nothing');
    return new PostgresDataKeyStore(sql);
  }

  async get(workspaceId: string): Promise<string | null> {
    const rows = await this.sql.query<{ wrapped: string }>('select wrapped from kms_data_keys where workspace_id = $1', [workspaceId]);
    return rows[0]?.wrapped ?? null;
  }

  async putIfAbsent(workspaceId: string, wrapped: string): Promise<string | null> {
    const stored = await this.get(workspaceId);
    if (stored !== null) return stored;
    // One statement: only the put that enters the workspace in the ledger stores a key. A racing put waits on the
    // ledger's key until that commits, then finds the key; a workspace already in the ledger without a key had one.
    await this.sql.query(
      `with entered as (insert into kms_data_key_ledger (workspace_id) values ($1) on conflict (workspace_id) do nothing returning workspace_id)
       insert into kms_data_keys (workspace_id, wrapped) select workspace_id, $2 from entered on conflict (workspace_id) do nothing`,
      [workspaceId, wrapped],
    );
    return this.get(workspaceId);
  }

  async delete(workspaceId: string): Promise<void> {
    await this.sql.query('insert into kms_data_key_ledger (workspace_id) values ($1) on conflict (workspace_id) do nothing', [workspaceId]);
    await this.sql.query('delete from kms_data_keys where workspace_id = $1', [workspaceId]);
  }

  async isGone(workspaceId: string): Promise<boolean> {
    const rows = await this.sql.query<{ gone: boolean }>(
      'select exists (select 1 from kms_data_key_ledger where workspace_id = $1) and not exists (select 1 from kms_data_keys where workspace_id = $1) as gone',
      [workspaceId],
    );
    return rows[0]?.gone === true;
  }

  async replaceGone(workspaceId: string, wrapped: string): Promise<boolean> {
    await this.sql.query('insert into kms_data_key_ledger (workspace_id) values ($1) on conflict (workspace_id) do nothing', [workspaceId]);
    await this.sql.query('insert into kms_data_keys (workspace_id, wrapped) values ($1, $2) on conflict (workspace_id) do nothing', [workspaceId, wrapped]);
    return (await this.get(workspaceId)) === wrapped;
  }
}
