import type { SqlClient } from '../sql/client';
import type { ItemKeyStore } from './item-port';

export class PostgresItemKeyStore implements ItemKeyStore {
  private constructor(private readonly sql: SqlClient) {}

  static async create(sql: SqlClient): Promise<PostgresItemKeyStore> {
    await sql.query(
      'create table if not exists kms_item_keys (workspace_id text not null, item_id text not null, wrapped text, created_at timestamptz not null default now(), shredded_at timestamptz, primary key (workspace_id, item_id))',
    );
    return new PostgresItemKeyStore(sql);
  }

  async get(workspaceId: string, itemIds: readonly string[]): Promise<Map<string, string>> {
    if (itemIds.length === 0) return new Map();
    const rows = await this.sql.query<{ item_id: string; wrapped: string }>(
      'select item_id, wrapped from kms_item_keys where workspace_id = $1 and item_id = any($2::text[]) and wrapped is not null',
      [workspaceId, [...itemIds]],
    );
    return new Map(rows.map((row) => [row.item_id, row.wrapped]));
  }

  async putIfAbsent(workspaceId: string, itemId: string, wrapped: string): Promise<string | null> {
    await this.sql.query('insert into kms_item_keys (workspace_id, item_id, wrapped) values ($1, $2, $3) on conflict (workspace_id, item_id) do nothing', [workspaceId, itemId, wrapped]);
    const rows = await this.sql.query<{ wrapped: string | null }>('select wrapped from kms_item_keys where workspace_id = $1 and item_id = $2', [workspaceId, itemId]);
    return rows[0]?.wrapped ?? null;
  }

  async shred(workspaceId: string, itemId: string): Promise<void> {
    await this.sql.query(
      `insert into kms_item_keys (workspace_id, item_id, wrapped, shredded_at) values ($1, $2, null, now())
       on conflict (workspace_id, item_id) do update set wrapped = null, shredded_at = coalesce(kms_item_keys.shredded_at, now())`,
      [workspaceId, itemId],
    );
  }

  async list(workspaceId: string): Promise<{ itemId: string; wrapped: string }[]> {
    const rows = await this.sql.query<{ item_id: string; wrapped: string }>(
      'select item_id, wrapped from kms_item_keys where workspace_id = $1 and wrapped is not null order by item_id',
      [workspaceId],
    );
    return rows.map((row) => ({ itemId: row.item_id, wrapped: row.wrapped }));
  }
}
