import type { SqlQueryable } from '../sql/client';
import { type MacMarker, type MacMarkerBody, signMacMarker } from './event-mac';

/** One row at most: the signed marker of where MACs begin (event-mac.ts); append-only like the checkpoints. */
export const MAC_MARKER_TABLE = `create table if not exists es_mac_marker (
  id int primary key check (id = 1),
  body jsonb not null,
  signature text
)`;

/**
 * Writes the marker unless there is one, in the schema transaction: the events already in the
 * log are the ones allowed without a MAC. Answers whether it wrote one.
 */
export async function writeMacMarker(tx: SqlQueryable, checkpointKey: Buffer | null): Promise<boolean> {
  if ((await tx.query('select 1 from es_mac_marker')).length > 0) return false;
  const [last] = await tx.query<{ position: string }>(`select e.xid::text || '/' || e.position::text as position from es_events e order by e.xid desc, e.position desc limit 1`);
  const [{ count }] = (await tx.query<{ count: string }>('select count(*)::text as count from es_events')) as [{ count: string }];
  const body: MacMarkerBody = { kind: 'event-macs', at: new Date().toISOString(), after: last?.position ?? null, eventsBefore: Number(count) };
  await tx.query('insert into es_mac_marker (id, body, signature) values (1, $1::text::jsonb, $2)', [JSON.stringify(body), checkpointKey ? signMacMarker(body, checkpointKey) : null]);
  return true;
}

/** The marker, or null when there is none (or no table: a store of an earlier schema, opened read-only). */
export async function readMacMarker(sql: SqlQueryable): Promise<MacMarker | null> {
  const [table] = await sql.query<{ found: boolean }>(`select to_regclass('es_mac_marker') is not null as found`);
  if (!table?.found) return null;
  const [row] = await sql.query<MacMarker>('select body, signature from es_mac_marker where id = 1');
  return row ?? null;
}
