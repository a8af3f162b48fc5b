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
  `create or replace function es_chain(previous bytea, first_revision bigint, events jsonb) returns bytea[]
   language plpgsql immutable as $$
   declare
     hashes bytea[] := '{}';
     link bytea := coalesce(previous, ''::bytea);
     revision bigint := first_revision;
     content text;
   begin
     for content in select e.value->>'content' from jsonb_array_elements(events) with ordinality as e(value, ordinality) order by e.ordinality loop
       link := sha256(link || int8send(revision) || decode(content, 'hex'));
       hashes := hashes || link;
       revision := revision + 1;
     end loop;
     return hashes;
   end $$`,
];

export const IMMUTABILITY_TRIGGERS = [
  `create or replace function es_refuse_change() returns trigger language plpgsql as $$
   begin
     raise exception 'the event log is append-only: % on % is refused', tg_op, tg_table_name using errcode = 'insufficient_privilege';
   end $$`,
  `create or replace function es_streams_advance_only() returns trigger language plpgsql as $$
   begin
     if new.stream <> old.stream or new.revision <= old.revision or new.previous_hash is distinct from old.hash then
       raise exception 'stream %: its head may only move forwards along its chain', old.stream using errcode = 'insufficient_privilege';
     end if;
     return new;
   end $$`,
  `create or replace trigger es_events_append_only before update or delete on es_events for each row execute function es_refuse_change()`,
  `create or replace trigger es_events_no_truncate before truncate on es_events for each statement execute function es_refuse_change()`,
  `create or replace trigger es_streams_no_delete before delete on es_streams for each row execute function es_refuse_change()`,
  `create or replace trigger es_streams_no_truncate before truncate on es_streams for each statement execute function es_refuse_change()`,
  `create or replace trigger es_streams_advance before update on es_streams for each row execute function es_streams_advance_only()`,
  `create or replace trigger es_checkpoints_append_only before update or delete on es_checkpoints for each row execute function es_refuse_change()`,
  `create or replace trigger es_checkpoints_no_truncate before truncate on es_checkpoints for each statement execute function es_refuse_change()`,
];
