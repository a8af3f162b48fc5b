import { linkHash } from '../../infra/eventstore/chain';
import { type ChainAudit, type Checkpoint, compareStreamNames, HeadsDigest, parseSnapshot, type Snapshot, type StreamHead } from '../../infra/eventstore/chain-audit';
import { eventAt } from '../../infra/eventstore/event-at';
import type { EventStore, RecordedEvent } from '../../infra/eventstore/port';

/**
 * Recomputes each event's hash from its content, its revision and the stored hash of the event
 * before it in its stream, in log order: the first event whose hash differs is the first break.
 * After a break the stream goes on from the stored hash, so each tampered event is named once.
 */
export class ChainCheck {
  private readonly last = new Map<string, Buffer>();
  /** The heads as the latest checkpoint's snapshot saw them, for recomputing its digest. */
  private readonly headsAtCheckpoint = new Map<string, StreamHead>();
  unhashed = 0;

  private readonly snapshot: Snapshot | null;

  /** `latestSnapshot`: the latest checkpoint's, whose heads are recomputed. */
  constructor(latestSnapshot: string | null) {
    this.snapshot = latestSnapshot === null ? null : parseSnapshot(latestSnapshot);
  }

  /** A problem with `event` (`content`: its content digest), or null when its hash verifies. */
  check(event: RecordedEvent, content: Buffer): string | null {
    const previous = event.revision === 0 ? null : (this.last.get(event.stream) ?? null);
    if (this.snapshot?.sees(event.position.commit) && event.hash) this.headsAtCheckpoint.set(event.stream, { stream: event.stream, revision: event.revision, hash: event.hash });
    if (!event.hash) {
      this.unhashed++;
      this.last.delete(event.stream);
      return `${eventAt(event)}: carries no hash`;
    }
    const stored = Buffer.from(event.hash, 'hex');
    this.last.set(event.stream, stored);
    if (event.revision > 0 && previous === null) return null; // the revision check reports the missing predecessor
    const expected = linkHash(previous, event.revision, content);
    if (expected.equals(stored) && event.hash.length === 64) return null;
    return (
      `${eventAt(event)}: hash differs: stored ${event.hash.slice(0, 16)}..., recomputed ${expected.toString('hex').slice(0, 16)}... from its id, stream, revision, type, data and metadata ` +
      `on ${previous ? `the stored hash of revision ${event.revision - 1}` : 'the start of the stream'}: this event was changed, or the one before it was removed, replaced or reordered`
    );
  }

  get streams(): number {
    return this.last.size;
  }

  /** The checkpoint's counts and digest recomputed from the events its snapshot saw. */
  recomputedCheckpoint(): { streams: number; events: number; digest: string } {
    const digest = new HeadsDigest();
    for (const head of [...this.headsAtCheckpoint.values()].sort((a, b) => compareStreamNames(a.stream, b.stream))) digest.add(head);
    return { streams: digest.streams, events: digest.events, digest: digest.digest() };
  }

  lastHash(stream: string): string | undefined {
    return this.last.get(stream)?.toString('hex');
  }
}

/** Report lines and problems about the latest checkpoint: its heads recomputed from the events its snapshot saw. */
export function checkLatestHeads(latest: Checkpoint, count: number, chain: ChainCheck, addProblem: (problem: string) => void): string[] {
  const recomputed = chain.recomputedCheckpoint();
  const signed = latest.body;
  const subject = `checkpoint #${latest.id} of ${signed.at}`;
  if (recomputed.streams !== signed.streams || recomputed.events !== signed.events) {
    addProblem(
      `${subject} signed ${signed.streams} streams holding ${signed.events} events; the log holds ${recomputed.streams} streams holding ${recomputed.events} events as of it: ` +
        (recomputed.events < signed.events ? 'events or whole streams were removed' : 'events were added before it'),
    );
    return [];
  }
  if (recomputed.digest !== signed.digest) {
    addProblem(`${subject}: the stream heads differ from the ones it signed (same counts): events were changed, replaced or re-chained`);
    return [];
  }
  return [`checkpoints: ${count}; the latest, #${latest.id} of ${signed.at}, matches the log (${signed.streams} streams, ${signed.events} events)`];
}

export function tailLine(count: number): string {
  if (count === 0) return 'tail: every event is covered by the latest checkpoint';
  return (
    `tail: ${count} event${count === 1 ? ' lies' : 's lie'} after the latest checkpoint, unprotected: cutting ${count === 1 ? 'it' : 'them'} off the end of the log would go unseen ` +
    'by the database alone (a running service signs them within CHAIN_CHECKPOINT_INTERVAL_MS, a clean stop at once; a witness keeps what was signed)'
  );
}

/**
 * Each stream's head as es_streams records it against the last event of the stream. A stream
 * that grew since the scan is read again; a head the log does not reach means events were cut off.
 */
export async function checkStreamHeads(audit: ChainAudit, events: EventStore, chain: ChainCheck, addProblem: (problem: string) => void): Promise<void> {
  for await (const page of audit.streamHeads()) {
    for (const head of page) {
      if (chain.lastHash(head.stream) === head.hash) continue;
      const [last] = await events.readStream(head.stream, { direction: 'backwards', maxCount: 1 });
      if (!last) addProblem(`stream ${head.stream}: its head records revision ${head.revision}, but the log holds none of its events`);
      else if (last.revision < head.revision) {
        addProblem(`stream ${head.stream}: its head records revision ${head.revision}, but the log ends at revision ${last.revision}: events were cut off its end`);
      } else if (last.revision === head.revision && last.hash !== head.hash) {
        addProblem(`stream ${head.stream}: its head records hash ${head.hash.slice(0, 16)}... for revision ${head.revision}, the event there carries ${String(last.hash).slice(0, 16)}...`);
      }
    }
  }
}
