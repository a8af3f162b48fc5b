import type { SqlQueryable } from '../sql/client';
import type { EventTableGuards } from './chain-audit';
import { GUARD_FUNCTIONS, GUARD_TRIGGERS, IMMUTABILITY_TRIGGERS } from './postgres-chain-schema';

interface TriggerRow {
  name: string;
  table: string;
  enabled: string;
  definition: string;
}

const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Reads the guards from the catalog: every immutability trigger present on its table, enabled
 * and defined as created (pg_get_triggerdef, schema aside), every guard function's body as
 * written; whether es_events is marked as a log written before the chain (a nullable hash);
 * and how far the checkpoint id sequence has gone (pg_sequences: null before its first use, and
 * for a role that may not read it).
 */
export async function inspectGuards(sql: SqlQueryable): Promise<EventTableGuards> {
  const [tables] = await sql.query<{ found: boolean }>(`select to_regclass('es_events') is not null as found`);
  if (!tables?.found) return { tables: false, triggers: [], preChain: false, ...(await checkpointIds(sql)) };
  const triggers = await sql.query<TriggerRow>(
    `select t.tgname as name, c.relname as table, t.tgenabled as enabled, pg_get_triggerdef(t.oid) as definition
     from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where not t.tgisinternal and c.relname in ('es_events', 'es_streams', 'es_checkpoints', 'es_mac_marker') and c.relnamespace = current_schema()::regnamespace`,
  );
  const functions = await sql.query<{ name: string; body: string }>(
    `select proname as name, prosrc as body from pg_proc where proname = any($1::text[]) and pronamespace = current_schema()::regnamespace`,
    [Object.keys(GUARD_FUNCTIONS)],
  );
  const problems: string[] = [];
  // A store of the release before MACs has no marker table yet (verify opens it as it is): its guards are not missing.
  const [marker] = await sql.query<{ found: boolean }>(`select to_regclass('es_mac_marker') is not null as found`);
  for (const expected of GUARD_TRIGGERS.filter((trigger) => trigger.table !== 'es_mac_marker' || marker?.found)) {
    const found = triggers.find((row) => row.name === expected.name && row.table === expected.table);
    const where = `${expected.table}.${expected.name}`;
    if (!found) problems.push(`${where}: missing (dropped)`);
    else if (found.enabled === 'D' || found.enabled === 'R') problems.push(`${where}: disabled`);
    else if (found.definition.replace(/ ON \S+\./, ' ON ') !== `CREATE TRIGGER ${expected.name} ${expected.definition}`) problems.push(`${where}: changed (${found.definition})`);
  }
  for (const [name, body] of Object.entries(GUARD_FUNCTIONS)) {
    const found = functions.find((row) => row.name === name);
    if (!found) problems.push(`${name}(): missing`);
    else if (squeezed(found.body) !== squeezed(body)) problems.push(`${name}(): its body was replaced`);
  }
  const [column] = await sql.query<{ nullable: string }>(
    `select is_nullable as nullable from information_schema.columns where table_schema = current_schema() and table_name = 'es_events' and column_name = 'hash'`,
  );
  return { tables: true, triggers: problems, preChain: column?.nullable !== 'NO', ...(await checkpointIds(sql)) };
}

async function checkpointIds(sql: SqlQueryable): Promise<Pick<EventTableGuards, 'checkpointIdsIssued' | 'checkpointIdsReadable'>> {
  const [sequence] = await sql.query<{ readable: boolean | null }>(
    `select has_sequence_privilege(c.oid, 'SELECT') as readable from pg_class c where c.relname = 'es_checkpoints_id_seq' and c.relnamespace = current_schema()::regnamespace`,
  );
  return { checkpointIdsIssued: await checkpointIdsIssued(sql), checkpointIdsReadable: sequence?.readable !== false };
}

/** The last id the checkpoint id sequence handed out or was set to; null before its first use (or for a role that may not read it). */
export async function checkpointIdsIssued(sql: SqlQueryable): Promise<number | null> {
  const [sequence] = await sql.query<{ issued: string | null }>(
    `select last_value::text as issued from pg_sequences where schemaname = current_schema() and sequencename = 'es_checkpoints_id_seq'`,
  );
  return sequence?.issued ? Number(sequence.issued) : null;
}

/** Puts the guard functions and triggers back as created; needs the tables' owner (42501 otherwise). */
export async function restoreGuards(sql: { transaction: <T>(work: (tx: SqlQueryable) => Promise<T>) => Promise<T> }): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext('es_schema'))`);
    for (const statement of IMMUTABILITY_TRIGGERS) await tx.query(statement);
  });
}
