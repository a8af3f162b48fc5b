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

export const IMMUTABILITY_TRIGGERS = [
  `create or replace function es_refuse_change() returns trigger language plpgsql as $$
   begin
     raise exception 'the event log is append-only: % on % is refused', tg_op, tg_table_name using errcode = 'insufficient_privilege';
   end $$`,
  `create or replace function es_streams_advance_only() returns trigger language plpgsql as $$
   begin
     raise exception 'stream %: its head may only move forwards along its chain', old.stream using errcode = 'insufficient_privilege';
   end $$`,
  `create or replace trigger es_events_append_only before update or delete on es_events for each row execute function es_refuse_change()`,
  `create or replace trigger es_events_no_truncate before truncate on es_events for each statement execute function es_refuse_change()`,
  `create or replace trigger es_streams_no_delete before delete on es_streams for each row execute function es_refuse_change()`,
  `create or replace trigger es_streams_no_truncate before truncate on es_streams for each statement execute function es_refuse_change()`,
  // The condition is evaluated without entering plpgsql: appends pay almost nothing for it.
  `create or replace trigger es_streams_advance before update on es_streams for each row
   when (new.stream <> old.stream or new.revision <= old.revision or new.previous_hash is distinct from old.hash)
   execute function es_streams_advance_only()`,
  `create or replace trigger es_checkpoints_append_only before update or delete on es_checkpoints for each row execute function es_refuse_change()`,
  `create or replace trigger es_checkpoints_no_truncate before truncate on es_checkpoints for each statement execute function es_refuse_change()`,
];
