import type { Clock } from '../infra/clock';
import type { ReadStore } from '../infra/readstore/port';
import { type AttemptCounterDocument, SECRET_ATTEMPTS } from '../projections/read-models/secret-attempts';
import { type AttemptScope, attemptCounterId, attemptsAllowedAtOnce, blockedForMs } from '../src/domain/secret-access/attempt-limits';
import type { SecretOperation } from '../src/domain/secret-access/events';
import { ThrottledError } from '../src/domain/errors';

/** Asked to wait this long when the attempts already in flight use up what a scope allows at once. */
const IN_FLIGHT_RETRY_SECONDS = 1;

/** Ends an admitted attempt: call it once its outcome is recorded (and, for a failure, counted). */
export type ReleaseAttempt = () => void;

/**
 * Admits decrypts and checks past the wrong-guess limits of their credential and their
 * item. The counters are a read model of the recorded attempts, so every instance on the
 * store sees them; attempts still in flight are counted here, per instance.
 */
export class AttemptLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly store: ReadStore,
    private readonly clock: Clock,
  ) {}

  /** Throws ThrottledError (429, Retry-After) when the credential or the item must wait. */
  async admit(workspaceId: string, operation: SecretOperation, actor: string, itemId: string): Promise<ReleaseAttempt> {
    const scopes: { scope: AttemptScope; id: string }[] = [
      { scope: 'credential', id: attemptCounterId(workspaceId, operation, 'credential', actor) },
      { scope: 'item', id: attemptCounterId(workspaceId, operation, 'item', itemId) },
    ];
    // Reserved before the counters are read: an earlier attempt is then either in them (its
    // failure was counted before it released) or among the reservations seen here.
    const atOnce = scopes.map(({ id }) => this.reserve(id));
    const release = () => scopes.forEach(({ id }) => this.unreserve(id));
    try {
      const counters = await Promise.all(scopes.map(({ id }) => this.store.get<AttemptCounterDocument>(SECRET_ATTEMPTS, id)));
      const now = this.clock.now();
      const waitSeconds = Math.max(
        ...scopes.map(({ scope }, index) => {
          const blockedMs = blockedForMs(counters[index]!, now);
          if (blockedMs > 0) return Math.ceil(blockedMs / 1000);
          return atOnce[index]! > attemptsAllowedAtOnce(counters[index]!, scope, now) ? IN_FLIGHT_RETRY_SECONDS : 0;
        }),
      );
      if (waitSeconds > 0) throw new ThrottledError(`too many wrong attempts at ${operation}; retry after ${waitSeconds} s`, waitSeconds);
      return release;
    } catch (error) {
      release();
      throw error;
    }
  }

  private reserve(id: string): number {
    const count = (this.inFlight.get(id) ?? 0) + 1;
    this.inFlight.set(id, count);
    return count;
  }

  private unreserve(id: string): void {
    const count = (this.inFlight.get(id) ?? 0) - 1;
    if (count > 0) this.inFlight.set(id, count);
    else this.inFlight.delete(id);
  }
}
