import type { SqlClient } from '../sql/client';
import type { DataKeyStore } from './port';

export class PostgresDataKeyStore implements DataKeyStore {
  private constructor(private readonly sql: SqlClient) {}

  static async create(sql: SqlClient): Promise<PostgresDataKeyStore> {
    await sql.query('create table if not exists kms_data_keys (workspace_id text primary key, wrapped text not null, created_at timestamptz not null default now())');
    return new PostgresDataKeyStore(sql);
  }

  async get(workspaceId: string): Promise<string | null> {
    const rows = await this.sql.query<{ wrapped: string }>('select wrapped from kms_data_keys where workspace_id = $1', [workspaceId]);
    return rows[0]?.wrapped ?? null;
  }

  async putIfAbsent(workspaceId: string, wrapped: string): Promise<string> {
    await this.sql.query('insert into kms_data_keys (workspace_id, wrapped) values ($1, $2) on conflict (workspace_id) do nothing', [workspaceId, wrapped]);
    const stored = await this.get(workspaceId);
    if (stored === null) throw new Error(`data key of workspace ${workspaceId} vanished while being stored`);
    return stored;
  }

  async delete(workspaceId: string): Promise<void> {
    await this.sql.query('delete from kms_data_keys where workspace_id = $1', [workspaceId]);
  }
}
