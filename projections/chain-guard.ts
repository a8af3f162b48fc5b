import type { Worker } from 'node:worker_threads';
import { eventHash } from '../infra/eventstore/chain';
import { positionToString, type RecordedEvent } from '../infra/eventstore/port';
import { startWorker } from '../infra/sql/worker-script';

/** A replay met an event whose hash does not link it to its stream: the log was changed after it was written. */
export class BrokenChainError extends Error {
  override readonly name = 'BrokenChainError';
}

/** What the chain check needs of an event: [stream, revision, id, type, data, metadata, hash, position]. */
export type ChainedEventRow = readonly [string, number, string, string, unknown, RecordedEvent['metadata'], string | undefined, string];

export const chainedEventRow = (event: RecordedEvent): ChainedEventRow => [
  event.stream,
  event.revision,
  event.id,
  event.type,
  event.data,
  event.metadata,
  event.hash,
  positionToString(event.position),
];

/** Bytes of a SHA-256 hash: one slot of ChainGuard's table of stream heads. */
const HASH_BYTES = 32;

/**
 * Recomputes the hash chain of the log as a replay reads it (chain.ts; `cms verify` does the
 * same and more) and refuses at the first break, so read models are never built from a log
 * that was edited, or had events removed or reordered, after it was written. It keeps each
 * stream's last hash and nothing else: a slot number per stream and the raw hashes in one
 * growing buffer, overwritten in place. Keeping the hex strings cost a string per event, and at
 * 1,000,000 streams (3,000,000 events) the checking thread's heap grew to 455 MB.
 * Events cut off the end of a stream leave no break to see here; `cms verify` compares the stream heads.
 */
export class ChainGuard {
  private readonly slots = new Map<string, number>();
  private heads = Buffer.alloc(HASH_BYTES * 1024);

  /** The problem of the first row (in log order) that breaks its stream's chain, or null. */
  check(rows: Iterable<ChainedEventRow>): string | null {
    for (const [stream, revision, id, type, data, metadata, hash, position] of rows) {
      const at = `stream ${stream} revision ${revision} at position ${position}`;
      if (!hash) return broken(at, 'carries no hash');
      const slot = this.slots.get(stream);
      if (revision > 0 && slot === undefined) return broken(at, 'comes first in the log although its stream starts at revision 0: the events before it were removed');
      const previous = slot === undefined ? null : this.heads.subarray(slot * HASH_BYTES, (slot + 1) * HASH_BYTES);
      const expected = eventHash({ id, stream, type, data, metadata }, revision, previous);
      if (expected.toString('hex') !== hash) {
        return broken(at, 'has a stored hash that does not match its content and the hash of the event before it: the event was changed, or one before it was removed, replaced or reordered');
      }
      const head = slot ?? this.newSlot(stream);
      expected.copy(this.heads, head * HASH_BYTES);
    }
    return null;
  }

  private newSlot(stream: string): number {
    const slot = this.slots.size;
    if ((slot + 1) * HASH_BYTES > this.heads.length) {
      const grown = Buffer.alloc(this.heads.length * 2);
      this.heads.copy(grown);
      this.heads = grown;
    }
    this.slots.set(stream, slot);
    return slot;
  }
}

function broken(at: string, problem: string): string {
  return (
    `the event log's hash chain is broken: ${at} ${problem}. ` +
    `No read model was changed. 'cms verify' lists every break; rebuild with --skip-chain-check (skipChainCheck) only if the log must be served as it is`
  );
}

/**
 * A page sent to the checking thread, and its answer: the first break, or null. Each row is
 * its own JSON text: one text for the whole page (megabytes) was allocated in V8's large-object
 * space, which only a full collection frees, and at 3,000,000 events the thread's heap grew to
 * 440 MB around a live set of 150-180 MB; rows of a few kilobytes die young.
 */
export interface ChainPage {
  readonly page: number;
  readonly rows: readonly string[];
}
export interface ChainAnswer {
  readonly page: number;
  readonly problem: string | null;
}

/**
 * A ChainGuard on a worker thread: hashing costs about as much CPU as projecting, so the
 * replay's thread only serialises each page (a JSON.stringify per event) and goes on projecting while
 * the page is checked. Pages are checked in the order sent.
 */
export class ChainGuardThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private sent = 0;
  private failure: Error | null = null;

  constructor() {
    this.worker = startWorker('chain-guard-worker', null, {}, __dirname);
    this.worker.on('message', ({ page, problem }: ChainAnswer) => {
      const waiter = this.waiting.get(page);
      this.waiting.delete(page);
      if (problem === null) waiter?.resolve();
      else waiter?.reject(new BrokenChainError(problem));
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the chain check thread stopped (exit code ${code})`)));
    this.worker.unref();
  }

  /** Resolves once `events` (the next page in log order) are checked; rejects with BrokenChainError at a break. */
  check(events: readonly RecordedEvent[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const page = this.sent++;
    const checked = new Promise<void>((resolve, reject) => this.waiting.set(page, { resolve, reject }));
    const message: ChainPage = { page, rows: events.map((event) => JSON.stringify(chainedEventRow(event))) };
    this.worker.postMessage(message);
    return checked;
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.failure);
    this.waiting.clear();
  }
}
