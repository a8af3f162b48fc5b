import type { EventTableGuards } from '../../infra/eventstore/chain-audit';
import type { CheckpointWalk } from './verify-checkpoints';

/** What verify knows of the log besides its events and checkpoints. */
export interface LogFacts {
  readonly guards: EventTableGuards;
  readonly walk: CheckpointWalk;
  /** The recorded time of the first event in log order; null on an empty log. */
  readonly firstEventAt: string | null;
  readonly intervalMs: number;
  readonly now: Date;
}

/**
 * Report lines and problems about the guards around the log: the append-only triggers as
 * created, a log marked as written before the chain although checkpoints were signed, the id
 * sequence against the newest checkpoint (a deleted newest one), and a log older than the
 * checkpoint interval with no checkpoint at all.
 */
export function checkGuards(facts: LogFacts, addProblem: (problem: string) => void): string[] {
  const { guards, walk } = facts;
  const lines: string[] = [];
  for (const trigger of guards.triggers) {
    addProblem(`append-only guard ${trigger}: events and checkpoints could be changed without the database refusing it (the service puts the guards back at its start when it owns the tables)`);
  }
  if (!guards.tables) lines.push('guards: no event tables yet (no process has written to this store)');
  else if (guards.triggers.length === 0) lines.push('guards: the append-only triggers are in place as created');
  if (guards.preChain && walk.count > 0) {
    addProblem(
      `es_events is marked as written before the hash chain (its hash column accepts NULL), yet ${walk.count} checkpoints are signed: ` +
        'someone marked it so that the next start would re-chain the log as it now is and sign it (the service refuses to start on it)',
    );
  }
  const issued = guards.checkpointIdsIssued;
  const latest = walk.latest;
  if (!latest && issued !== null) {
    addProblem(`${issued === 1 ? 'checkpoint #1 was' : `checkpoints #1 to #${issued} were`} signed (the id sequence says so) and none is left: deleted`);
  } else if (latest?.body.previous !== undefined && issued !== null && issued > latest.id) {
    const several = issued > latest.id + 1;
    addProblem(
      `${several ? `checkpoints #${latest.id + 1} to #${issued} were` : `checkpoint #${issued} was`} signed after #${latest.id} (the id sequence says so) and ${several ? 'are' : 'is'} gone: deleted, ` +
        'with the events only they covered if the tail below holds fewer than were appended',
    );
  } else if (latest?.body.previous !== undefined && !guards.checkpointIdsReadable) {
    lines.push(
      'checkpoints: this role may not read the id sequence, so a deleted newest checkpoint would not show here; ' +
        'grant select on sequence es_checkpoints_id_seq to the role that verifies (docs/production.md)',
    );
  } else if (latest?.body.previous !== undefined && (issued === null || issued < latest.id)) {
    lines.push(
      'checkpoints: the id sequence is behind the latest checkpoint (the service role may not set it): a deleted newest checkpoint would not show here; ' +
        'grant update on sequence es_checkpoints_id_seq to the service role (docs/production.md)',
    );
  }
  if (!latest) {
    const old = facts.firstEventAt !== null && facts.now.getTime() - Date.parse(facts.firstEventAt) > facts.intervalMs;
    if (old) {
      addProblem(
        `no checkpoint, while the log's first event was recorded at ${facts.firstEventAt}, longer than CHAIN_CHECKPOINT_INTERVAL_MS (${facts.intervalMs} ms) ago: ` +
          'its checkpoints were deleted, or no service ever ran long enough to sign one',
      );
    } else {
      lines.push('checkpoints: none yet (the service signs one within CHAIN_CHECKPOINT_INTERVAL_MS of the log growing, and at a clean stop)');
    }
  }
  return lines;
}
