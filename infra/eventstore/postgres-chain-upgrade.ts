import type { SqlQueryable } from '../sql/client';
import { eventHash } from './chain';
import type { EventRow } from './postgres';

const PAGE = 2000;

/** An event as read before it has a hash (the transaction id is not needed to chain it). */
type UnhashedRow = Omit<EventRow, 'xid' | 'hash'>;

/**
 * A log written before events were chained has no hashes: they are computed here once, stream
 * by stream in revision order, inside the schema transaction (before the append-only triggers
 * exist), and the columns then become NOT NULL. Answers how many events were chained; the
 * caller records the upgrade as a checkpoint so that `cms verify` reports where the chain began
 * to be kept live: hashes of events written before it attest the log as it was at the upgrade.
 */
export async function chainUnhashedEvents(tx: SqlQueryable): Promise<number> {
  const [column] = await tx.query<{ nullable: string }>(
    `select is_nullable as nullable from information_schema.columns
     where table_schema = current_schema() and table_name = 'es_events' and column_name = 'hash'`,
  );
  if (column?.nullable !== 'YES') return 0;
  let chained = 0;
  let previous: { stream: string; revision: number; hash: Buffer } | null = null;
  for (;;) {
    const rows: UnhashedRow[] = await tx.query<UnhashedRow>(
      `select position::text as position, stream, revision::text as revision, id::text as id, type, data, metadata from es_events
       where $1::text is null or (stream, revision) > ($1::text, $2::bigint) order by stream, revision limit ${PAGE}`,
      [previous?.stream ?? null, previous?.revision ?? 0],
    );
    if (rows.length === 0) break;
    const positions: string[] = [];
    const hashes: string[] = [];
    for (const row of rows) {
      const revision = Number(row.revision);
      const before = previous && previous.stream === row.stream ? previous.hash : null;
      const hash = eventHash(row, revision, before);
      positions.push(row.position);
      hashes.push(hash.toString('hex'));
      previous = { stream: row.stream, revision, hash };
    }
    await tx.query(
      `update es_events e set hash = decode(v.hash, 'hex') from unnest($1::bigint[], $2::text[]) as v(position, hash) where e.position = v.position`,
      [positions, hashes],
    );
    chained += rows.length;
  }
  await tx.query(`update es_streams s set hash = e.hash from es_events e where e.stream = s.stream and e.revision = s.revision`);
  await tx.query('alter table es_events alter column hash set not null');
  return chained;
}
