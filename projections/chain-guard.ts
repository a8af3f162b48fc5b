import { eventHash } from '../infra/eventstore/chain';
import { positionToString, type RecordedEvent } from '../infra/eventstore/port';

/** A replay met an event whose hash does not link it to its stream: the log was changed after it was written. */
export class BrokenChainError extends Error {
  override readonly name = 'BrokenChainError';
}

/**
 * Recomputes the hash chain of the log as a replay reads it (chain.ts; `cms verify` does the
 * same and more) and refuses at the first break, so read models are never built from a log
 * that was edited, or had events removed or reordered, after it was written. It keeps each
 * stream's last hash (the stored hex string: no copy) and nothing else. Events cut off the
 * end of a stream leave no break to see here; `cms verify` compares the stream heads.
 */
export class ChainGuard {
  private readonly last = new Map<string, string>();

  /** Throws BrokenChainError naming the first event of `events` (in log order) that breaks its stream's chain. */
  check(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (!event.hash) throw broken(event, 'carries no hash');
      const previous = this.last.get(event.stream);
      if (event.revision > 0 && previous === undefined) throw broken(event, 'comes first in the log although its stream starts at revision 0: the events before it were removed');
      const expected = eventHash(event, event.revision, previous === undefined ? null : Buffer.from(previous, 'hex')).toString('hex');
      if (expected !== event.hash) {
        throw broken(event, 'has a stored hash that does not match its content and the hash of the event before it: the event was changed, or one before it was removed, replaced or reordered');
      }
      this.last.set(event.stream, event.hash);
    }
  }
}

function broken(event: RecordedEvent, problem: string): BrokenChainError {
  return new BrokenChainError(
    `the event log's hash chain is broken: stream ${event.stream} revision ${event.revision} at position ${positionToString(event.position)} ${problem}. ` +
      `No read model was changed. 'cms verify' lists every break; rebuild with --skip-chain-check (skipChainCheck) only if the log must be served as it is`,
  );
}
