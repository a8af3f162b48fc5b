import { ThreadSlices } from '../thread-slices';
import { contentDigestYielding } from './chain';
import type { EventMacCheck } from './event-mac-check';
import {
  type AppendRequest,
  type AppendResult,
  type EventHeader,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  positionToString,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamTail,
  type SubscribeOptions,
  type Subscription,
} from './port';

/** Findings remembered by position: subscribers read near the same tail, so each event is checked about once. */
const REMEMBERED = 10_000;

/**
 * The log as live subscribers (the projections, the process managers) take it: an event whose
 * MAC fails (event-mac-check.ts) is handed to `refused` instead of to them, so a row inserted
 * past the service is never projected nor acted on. Each event is checked and refused once,
 * whichever subscriber meets it first (the others wait for that and skip it), while its finding
 * is remembered; a refusal that fails (the read store away) is forgotten, so the retry refuses again.
 */
export class MacCheckedEventLog implements EventStore {
  /** Oldest first; the finding (null: the MAC verifies) of each recently checked position, once refused. */
  private readonly checked = new Map<string, Promise<string | null>>();
  private readonly slices = new ThreadSlices();

  constructor(
    private readonly stored: EventStore,
    /** Also what a rebuild reading this log checks its events' MACs with (projections/chain-guard.ts). */
    readonly check: EventMacCheck,
    private readonly refused: (event: RecordedEvent, problem: string) => Promise<void>,
  ) {}

  append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.stored.append(stream, events, expectedRevision);
  }

  appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    return this.stored.appendMany(requests);
  }

  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.stored.readStream(stream, options);
  }

  readStreams(streams: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    return this.stored.readStreams(streams);
  }

  /** Revisions carry nothing a MAC covers. */
  streamRevisions(streams: readonly string[]): Promise<Map<string, number>> {
    return this.stored.streamRevisions(streams);
  }

  readStreamHeaders(stream: string): Promise<EventHeader[]> {
    return this.stored.readStreamHeaders(stream);
  }

  readStreamTail(stream: string, maxCount: number): Promise<StreamTail> {
    return this.stored.readStreamTail(stream, maxCount);
  }

  countAfter(after: Position, atMost: number): Promise<number> {
    return this.stored.countAfter(after, atMost);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.stored.readAll(options);
  }

  headPosition() {
    return this.stored.headPosition();
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.stored.subscribeToAll({
      ...options,
      onEvent: async (event) => {
        const position = positionToString(event.position);
        let finding = this.checked.get(position);
        if (finding === undefined) {
          finding = this.checkAndRefuse(event);
          this.checked.set(position, finding);
          finding.catch(() => this.checked.delete(position));
          if (this.checked.size > REMEMBERED) this.checked.delete(this.checked.keys().next().value!);
        }
        if ((await finding) === null) return options.onEvent(event);
      },
    });
  }

  close(): Promise<void> {
    return this.stored.close();
  }

  private async checkAndRefuse(event: RecordedEvent): Promise<string | null> {
    // The digest in slices: a large event's would be one task of 8-40 ms on the thread that answers requests.
    const problem = this.check.problem(event, event.mac === undefined ? undefined : await contentDigestYielding(event, this.slices));
    if (problem !== null) await this.refused(event, problem);
    return problem;
  }
}
