import type { Worker } from 'node:worker_threads';
import { contentDigest, linkHash } from '../infra/eventstore/chain';
import type { MacMarker } from '../infra/eventstore/event-mac';
import { EventMacCheck } from '../infra/eventstore/event-mac-check';
import { positionFromString, positionToString, type RecordedEvent } from '../infra/eventstore/port';
import { startWorker } from '../infra/sql/worker-script';

/** A replay met an event whose hash does not link it to its stream: the log was changed after it was written. */
export class BrokenChainError extends Error {
  override readonly name = 'BrokenChainError';
}

/** What the chain check needs of an event: [stream, revision, id, type, data, metadata, hash, position, mac]. */
export type ChainedEventRow = readonly [string, number, string, string, unknown, RecordedEvent['metadata'], string | undefined, string, (string | undefined)?];

export const chainedEventRow = (event: RecordedEvent): ChainedEventRow => [
  event.stream,
  event.revision,
  event.id,
  event.type,
  event.data,
  event.metadata,
  event.hash,
  positionToString(event.position),
  event.mac,
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
 * With `macs`, each event's MAC is checked too (infra/eventstore/event-mac.ts), from the same content
 * digest: a row inserted past the service stops the replay like a break.
 */
export class ChainGuard {
  private readonly slots = new Map<string, number>();
  private heads = Buffer.alloc(HASH_BYTES * 1024);

  constructor(private readonly macs: EventMacCheck | null = null) {}

  /** The problem of the first row (in log order) that breaks its stream's chain, or null. */
  check(rows: Iterable<ChainedEventRow>): string | null {
    for (const [stream, revision, id, type, data, metadata, hash, position, mac] of rows) {
      const at = `stream ${stream} revision ${revision} at position ${position}`;
      if (!hash) return broken(at, 'carries no hash');
      const slot = this.slots.get(stream);
      if (revision > 0 && slot === undefined) return broken(at, 'comes first in the log although its stream starts at revision 0: the events before it were removed');
      const previous = slot === undefined ? null : this.heads.subarray(slot * HASH_BYTES, (slot + 1) * HASH_BYTES);
      const content = contentDigest({ id, stream, type, data, metadata });
      const expected = linkHash(previous, revision, content);
      if (expected.toString('hex') !== hash) {
        return broken(at, 'has a stored hash that does not match its content and the hash of the event before it: the event was changed, or one before it was removed, replaced or reordered');
      }
      const forged = this.macs?.problem({ id, stream, revision, type, data, metadata, position: positionFromString(position), ...(mac ? { mac } : {}) }, content);
      if (forged) return unauthentic(forged);
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

function unauthentic(problem: string): string {
  return (
    `the event log holds an event the service did not write: ${problem}. ` +
    `No read model was changed. 'cms verify' lists every one; rebuild with --skip-chain-check (skipChainCheck) only if the log must be served as it is`
  );
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
/** What the checking thread checks MACs with, as it crosses to the thread. */
export interface MacSettings {
  readonly key: Uint8Array;
  readonly marker: MacMarker | null;
}

export const macCheckOf = (settings: MacSettings | null): EventMacCheck | null => (settings ? new EventMacCheck(Buffer.from(settings.key), settings.marker) : null);

export class ChainGuardThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private sent = 0;
  private failure: Error | null = null;

  /** `macs`: the MAC check of the log replayed (the key crosses to the thread, which stays in this process). */
  constructor(macs: EventMacCheck | null = null) {
    const settings: MacSettings | null = macs ? { key: macs.key, marker: macs.marker } : null;
    this.worker = startWorker('chain-guard-worker', settings, {}, __dirname);
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
