import type { EventMacCheck } from './event-mac-check';
import type { AppendRequest, AppendResult, EventHeader, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, ReadStreamOptions, RecordedEvent, SubscribeOptions, Subscription } from './port';

/**
 * The log as live subscribers (the projections, the process managers) take it: an event whose
 * MAC fails (event-mac-check.ts) is handed to `refused` instead of to them, so a row inserted
 * past the service is never projected nor acted on. Subscriptions share the pages they read, so
 * each event is checked once and refused once, whichever subscriber meets it first.
 */
export class MacCheckedEventLog implements EventStore {
  private readonly checked = new WeakMap<RecordedEvent, string | null>();

  constructor(
    private readonly stored: EventStore,
    private readonly check: EventMacCheck,
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
        const known = this.checked.get(event);
        if (known === null) return options.onEvent(event);
        if (known !== undefined) return;
        const problem = this.check.problem(event);
        this.checked.set(event, problem);
        if (problem === null) return options.onEvent(event);
        await this.refused(event, problem);
      },
    });
  }

  close(): Promise<void> {
    return this.stored.close();
  }
}
