import type { EventMacCheck } from './event-mac-check';
import {
  type AppendRequest,
  type AppendResult,
  type EventHeader,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  positionToString,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './port';

/** Findings remembered by position: subscribers read near the same tail, so each event is checked about once. */
const REMEMBERED = 10_000;

/**
 * The log as live subscribers (the projections, the process managers) take it: an event whose
 * MAC fails (event-mac-check.ts) is handed to `refused` instead of to them, so a row inserted
 * past the service is never projected nor acted on. Each event is checked and refused once,
 * whichever subscriber meets it first (the others skip it), while its finding is remembered.
 */
export class MacCheckedEventLog implements EventStore {
  /** Oldest first; the finding (null: the MAC verifies) of each recently checked position. */
  private readonly checked = new Map<string, string | null>();

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

  readStreamHeaders(stream: string): Promise<EventHeader[]> {
    return this.stored.readStreamHeaders(stream);
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
        const known = this.checked.get(position);
        if (known === null) return options.onEvent(event);
        if (known !== undefined) return;
        const problem = this.check.problem(event);
        this.checked.set(position, problem);
        if (this.checked.size > REMEMBERED) this.checked.delete(this.checked.keys().next().value!);
        if (problem === null) return options.onEvent(event);
        await this.refused(event, problem);
      },
    });
  }

  close(): Promise<void> {
    return this.stored.close();
  }
}
