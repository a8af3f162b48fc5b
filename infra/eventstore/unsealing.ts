import { SEALABLE_CONTENT_EVENTS } from '../../src/domain/content/events';
import { withItemValues } from '../../src/domain/content/sealed-members';
import type { ItemSealer } from '../crypto/item-sealer';
import type { AppendRequest, AppendResult, EventHeader, EventStore, ExpectedRevision, NewEvent, Position, ReadAllOptions, ReadStreamOptions, RecordedEvent, StreamTail, SubscribeOptions, Subscription } from './port';

interface SealedContentData {
  readonly workspaceId: string;
  readonly itemId: string;
  readonly sealed: string;
}

const isSealedContentEvent = (event: RecordedEvent): event is RecordedEvent & { data: SealedContentData } =>
  SEALABLE_CONTENT_EVENTS.has(event.type) && typeof (event.data as { sealed?: unknown } | null)?.sealed === 'string';

/**
 * The log as the service reads it: the one place where content events of personal-data
 * types are opened, so every projector, process and command that parses content events
 * (`contentEvent`) sees their values. An erased item's events pass through still sealed,
 * with empty values. Appends, exports and anything that checks the stored bytes use the
 * store below, which only ever holds ciphertext.
 */
export class UnsealingEventStore implements EventStore {
  /** `stored`: the log as stored, which a check of the stored bytes (the hash chain) reads. */
  constructor(
    readonly stored: EventStore,
    private readonly sealer: ItemSealer,
  ) {}

  append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.stored.append(stream, events, expectedRevision);
  }

  appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    return this.stored.appendMany(requests);
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.unseal(await this.stored.readStream(stream, options));
  }

  async readStreams(streams: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const read = await this.stored.readStreams(streams);
    const opened = new Map<string, RecordedEvent[]>();
    for (const [stream, events] of read) opened.set(stream, await this.unseal(events));
    return opened;
  }

  streamRevisions(streams: readonly string[]): Promise<Map<string, number>> {
    return this.stored.streamRevisions(streams);
  }

  /** Headers carry no values to open. */
  readStreamHeaders(stream: string): Promise<EventHeader[]> {
    return this.stored.readStreamHeaders(stream);
  }

  async readStreamTail(stream: string, maxCount: number): Promise<StreamTail> {
    const { events, earlier } = await this.stored.readStreamTail(stream, maxCount);
    return { events: await this.unseal(events), earlier };
  }

  countAfter(after: Position, atMost: number): Promise<number> {
    return this.stored.countAfter(after, atMost);
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.unseal(await this.stored.readAll(options));
  }

  headPosition() {
    return this.stored.headPosition();
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.stored.subscribeToAll({ ...options, onEvent: async (event) => options.onEvent((await this.unseal([event]))[0]!) });
  }

  close(): Promise<void> {
    return this.stored.close();
  }

  /** Events read from `stored` as this view answers them. */
  async unseal(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const sealed = events.filter(isSealedContentEvent);
    if (sealed.length === 0) return events;
    const opened = await this.sealer.openAll(sealed.map((event) => event.data));
    const values = new Map(sealed.map((event, index) => [event, opened[index]]));
    return events.map((event) => {
      const value = values.get(event as RecordedEvent & { data: SealedContentData });
      if (value === undefined) return event;
      return { ...event, data: withItemValues(event.type, event.data as Record<string, unknown>, value as Record<string, unknown>) };
    });
  }
}
