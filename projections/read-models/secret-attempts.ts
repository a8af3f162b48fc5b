import { comparePositions, positionFromString, positionToString, type RecordedEvent } from '../../infra/eventstore/port';
import type { Change, Document } from '../../infra/readstore/port';
import { type AttemptCounter, type AttemptScope, attemptCounterId, countFailure } from '../../src/domain/secret-access/attempt-limits';
import { FAILED_OUTCOMES, secretAccessEvent, SUCCESSFUL_OUTCOMES, type SecretAccessAttempt } from '../../src/domain/secret-access/events';
import type { DocumentKey, Projector } from '../projector';

export const SECRET_ATTEMPTS = 'secret_attempts';

/** Wrong guesses at encrypted values, per credential and per item (src/domain/secret-access/attempt-limits.ts). */
export interface AttemptCounterDocument extends Document, AttemptCounter {
  readonly workspaceId: string;
  /** The log position of the last failure counted: a failure seen again is not counted twice. */
  readonly countedThrough: string;
}

const SCOPES: readonly AttemptScope[] = ['credential', 'item'];

/** The counter ids an attempt touches: its credential's (the actor) and its item's. */
function counterIds(attempt: SecretAccessAttempt, actor: string): { scope: AttemptScope; id: string }[] {
  return SCOPES.map((scope) => ({ scope, id: attemptCounterId(attempt.workspaceId, attempt.operation, scope, scope === 'credential' ? actor : attempt.itemId) }));
}

export const secretAttemptsProjector: Projector = {
  name: 'secret_attempts',
  collections: [{ name: SECRET_ATTEMPTS, indexes: [{ fields: ['workspaceId'] }] }],
  eventTypes: new Set(['SecretAccessAttempted']),

  prefetch(recorded): DocumentKey[] {
    const { data } = secretAccessEvent.parse(recorded);
    return counterIds(data, recorded.metadata.actor).map(({ id }) => ({ collection: SECRET_ATTEMPTS, id }));
  },

  async project(recorded, view) {
    const { data } = secretAccessEvent.parse(recorded);
    const changes: Change[] = [];
    for (const { scope, id } of counterIds(data, recorded.metadata.actor)) {
      const current = await view.get<AttemptCounterDocument>(SECRET_ATTEMPTS, id);
      const counted = current !== null && alreadyCounted(current, recorded);
      // A success clears the counters there are (not failures after it); most successes find none and write nothing.
      if (SUCCESSFUL_OUTCOMES.has(data.outcome) && current && !counted) changes.push({ kind: 'delete', collection: SECRET_ATTEMPTS, id });
      if (!FAILED_OUTCOMES.has(data.outcome) || counted) continue;
      const document: AttemptCounterDocument = {
        id,
        workspaceId: data.workspaceId,
        ...countFailure(current, scope, new Date(recorded.metadata.timestamp)),
        countedThrough: positionToString(recorded.position),
      };
      changes.push({ kind: 'upsert', collection: SECRET_ATTEMPTS, document });
    }
    return changes;
  },
};

const alreadyCounted = (counter: AttemptCounterDocument, recorded: RecordedEvent) => comparePositions(recorded.position, positionFromString(counter.countedThrough)) <= 0;
