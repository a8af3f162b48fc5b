/**
 * The SQL half of the hash chain (chain.ts) and the guards that keep history immutable.
 *
 * `es_chain` folds the content digests of an append onto a stream's last hash. The triggers
 * refuse what no part of the product does: updating, deleting or truncating events, deleting
 * or truncating streams, and moving a stream's head other than forwards along its chain. They
 * stop mistakes and a service role that has been given too much; an owner can still disable
 * them, which is what the chain and the signed checkpoints make visible (docs/operations.md).
 */

/** Statements run after the tables exist and before the triggers (es_chain is used by appends). */
export const CHAIN_FUNCTIONS = [
  // `contents`: the events' 32-byte content digests, concatenated.
  `create or replace function es_chain(previous bytea, first_revision bigint, contents bytea) returns bytea[]
   language plpgsql immutable strict parallel safe as $$
   declare
     hashes bytea[] := '{}';
     link bytea := previous;
   begin
     for i in 0 .. length(contents) / 32 - 1 loop
       link := sha256(link || int8send(first_revision + i) || substring(contents from i * 32 + 1 for 32));
       hashes := hashes || link;
     end loop;
     return hashes;
   end $$`,
];

/** The guard functions by name: their bodies, as PostgreSQL keeps them (`prosrc`, whitespace aside). */
export const GUARD_FUNCTIONS: Readonly<Record<string, string>> = {
  es_refuse_change: `begin
     raise exception 'the event log is append-only: % on % is refused', tg_op, tg_table_name using errcode = 'insufficient_privilege';
   end`,
  es_streams_advance_only: `begin
     raise exception 'stream %: its head may only move forwards along its chain', old.stream using errcode = 'insufficient_privilege';
   end`,
};

export interface GuardTrigger {
  readonly name: string;
  readonly table: 'es_events' | 'es_streams' | 'es_checkpoints' | 'es_mac_marker';
  /** After `create trigger <name>`, written as pg_get_triggerdef answers it (the table unqualified), so that a changed trigger shows. */
  readonly definition: string;
}

export const GUARD_TRIGGERS: readonly GuardTrigger[] = [
  { name: 'es_events_append_only', table: 'es_events', definition: 'BEFORE DELETE OR UPDATE ON es_events FOR EACH ROW EXECUTE FUNCTION es_refuse_change()' },
  { name: 'es_events_no_truncate', table: 'es_events', definition: 'BEFORE TRUNCATE ON es_events FOR EACH STATEMENT EXECUTE FUNCTION es_refuse_change()' },
  { name: 'es_streams_no_delete', table: 'es_streams', definition: 'BEFORE DELETE ON es_streams FOR EACH ROW EXECUTE FUNCTION es_refuse_change()' },
  { name: 'es_streams_no_truncate', table: 'es_streams', definition: 'BEFORE TRUNCATE ON es_streams FOR EACH STATEMENT EXECUTE FUNCTION es_refuse_change()' },
  // The condition is evaluated without entering plpgsql: appends pay almost nothing for it.
  {
    name: 'es_streams_advance',
    table: 'es_streams',
    definition:
      'BEFORE UPDATE ON es_streams FOR EACH ROW WHEN (((new.stream <> old.stream) OR (new.revision <= old.revision) OR (new.previous_hash IS DISTINCT FROM old.hash))) ' +
      'EXECUTE FUNCTION es_streams_advance_only()',
  },
  { name: 'es_checkpoints_append_only', table: 'es_checkpoints', definition: 'BEFORE DELETE OR UPDATE ON es_checkpoints FOR EACH ROW EXECUTE FUNCTION es_refuse_change()' },
  { name: 'es_checkpoints_no_truncate', table: 'es_checkpoints', definition: 'BEFORE TRUNCATE ON es_checkpoints FOR EACH STATEMENT EXECUTE FUNCTION es_refuse_change()' },
  { name: 'es_mac_marker_append_only', table: 'es_mac_marker', definition: 'BEFORE DELETE OR UPDATE ON es_mac_marker FOR EACH ROW EXECUTE FUNCTION es_refuse_change()' },
  { name: 'es_mac_marker_no_truncate', table: 'es_mac_marker', definition: 'BEFORE TRUNCATE ON es_mac_marker FOR EACH STATEMENT EXECUTE FUNCTION es_refuse_change()' },
];

/** Creates (or puts back as they were) the guard functions and triggers, enabled. */
export const IMMUTABILITY_TRIGGERS = [
  ...Object.entries(GUARD_FUNCTIONS).map(([name, body]) => `create or replace function ${name}() returns trigger language plpgsql as $$\n   ${body} $$`),
  ...GUARD_TRIGGERS.flatMap((trigger) => [`create or replace trigger ${trigger.name} ${trigger.definition}`, `alter table ${trigger.table} enable trigger ${trigger.name}`]),
];
