import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START as LOG_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type JSONType,
  type ResolvedEvent,
  type StreamingRead,
} from '@eventstore/db-client';
import { contentDigest, linkHash } from './chain';
import { eventMac } from './event-mac';
import {
  START,
  WrongExpectedRevisionError,
  checkAppendRequests,
  comparePositions,
  type AppendRequest,
  type AppendResult,
  type EventHeader,
  type EventMetadata,
  type EventOutline,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamTail,
  type SubscribeOptions,
  type Subscription,
} from './port';

/**
 * The event store on EventStoreDB (server 22.6 or later, which reports positions on stream reads).
 * `$all` carries the server's own events too: system event types and `$` streams are left out
 * of every global read. Events are JSON; the port's metadata is the event's JSON metadata.
 */

/** Raw `$all` records fetched per request while filtering out system events. */
const PAGE_SIZE = 500;
const MIN_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 5000;
/** The metadata member that carries an event's chain hash; taken out again when the event is read. */
const CHAIN_HASH = 'chainHash';
/** The metadata member that carries an event's MAC (event-mac.ts); taken out again when the event is read. */
const EVENT_MAC = 'eventMac';
/** Appends racing a concurrent writer on one stream, with an expectation that allows it, before giving up. */
const MAX_CHAIN_ATTEMPTS = 10;

type EsdbRecordedEvent = NonNullable<ResolvedEvent['event']>;

export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();

  private constructor(
    private readonly client: EventStoreDBClient,
    private readonly macKey: Buffer | null,
  ) {}

  /**
   * `connectionString`: e.g. `esdb://admin:changeit@localhost:2113?tls=false`. The store owns the client.
   * `macKey`: the key of the events' MACs; without it events are written without one.
   */
  static connect(connectionString: string, macKey: Buffer | null = null): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString), macKey);
  }

  /**
   * An empty `events` writes nothing: it checks the expectation and answers the stream's current
   * revision (-1 when it does not exist) and the position of its last event (START when none).
   */
  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return this.checkExpectation(stream, expectedRevision);
    const withIds = events.map((event) => ({ ...event, id: event.id ?? randomUUID() }));
    // The chain needs the stream's last hash: the append expects exactly the revision it was read at,
    // so a concurrent writer cannot fork the chain; an expectation that allows it ('any', 'stream_exists') reads again.
    for (let attempt = 1; ; attempt++) {
      const last = await this.lastEvent(stream);
      const actual = last ? last.revision : 'no_stream';
      if (!revisionMatches(expectedRevision, actual)) throw new WrongExpectedRevisionError(stream, expectedRevision, actual);
      try {
        return await this.appendChained(stream, withIds, last);
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        const raced = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
        if (typeof expectedRevision === 'number' || expectedRevision === 'no_stream' || attempt >= MAX_CHAIN_ATTEMPTS) {
          throw new WrongExpectedRevisionError(stream, expectedRevision, raced);
        }
      }
    }
  }

  private async appendChained(stream: string, events: readonly (NewEvent & { id: string })[], last: RecordedEvent | undefined): Promise<AppendResult> {
    let previous: Buffer | null = last?.hash ? Buffer.from(last.hash, 'hex') : null;
    let revision = last ? last.revision : -1;
    const chained = events.map((event) => {
      revision++;
      const content = contentDigest({ ...event, stream });
      const hash = linkHash(previous, revision, content);
      previous = hash;
      const mac = this.macKey ? { [EVENT_MAC]: eventMac(this.macKey, content).toString('hex') } : {};
      return jsonEvent({
        id: event.id,
        type: event.type,
        // The client serializes with JSON.stringify, which takes any JSON value; its type is narrower.
        data: event.data as JSONType,
        metadata: { ...event.metadata, [CHAIN_HASH]: hash.toString('hex'), ...mac },
      });
    });
    const result = await this.client.appendToStream(stream, chained, { expectedRevision: last ? BigInt(last.revision) : NO_STREAM });
    // The protocol lets a successful reply carry no position; the stream's last event then has it.
    const position = result.position ?? (await this.lastEvent(stream))?.position ?? START;
    return { revision: Number(result.nextExpectedRevision), position };
  }

  /**
   * EventStoreDB has no transaction across streams: the requests are appended in order, one
   * after the other, each atomic on its own. A failure stops there; earlier requests stay written.
   */
  async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    checkAppendRequests(requests);
    const results: AppendResult[] = [];
    for (const request of requests) results.push(await this.append(request.stream, request.events, request.expectedRevision));
    return results;
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const read = this.client.readStream(stream, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: options.fromRevision === undefined ? (backwards ? END : LOG_START) : BigInt(options.fromRevision),
      maxCount: options.maxCount,
    });
    try {
      return (await collect(read)).map(toRecordedEvent);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  /** EventStoreDB reads one stream per call: the streams are read side by side. */
  async readStreams(streams: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const read = await Promise.all(streams.map(async (stream) => [stream, await this.readStream(stream)] as const));
    return new Map(read);
  }

  async streamRevisions(streams: readonly string[]): Promise<Map<string, number>> {
    const read = await Promise.all(streams.map(async (stream) => [stream, (await this.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]?.revision ?? -1] as const));
    return new Map(read);
  }

  /** Read a page at a time, each page's data dropped before the next is read: a long history of large events is never held whole. */
  async readStreamHeaders(stream: string): Promise<EventHeader[]> {
    const headers: EventHeader[] = [];
    for (;;) {
      const page = await this.readStream(stream, { fromRevision: headers.length === 0 ? 0 : headers[headers.length - 1]!.revision + 1, maxCount: PAGE_SIZE });
      headers.push(...page.map(({ data: _data, hash: _hash, mac: _mac, ...header }) => header));
      if (page.length < PAGE_SIZE) return headers;
    }
  }

  async readStreamTail(stream: string, maxCount: number): Promise<StreamTail> {
    const events = (await this.readStream(stream, { direction: 'backwards', maxCount })).reverse();
    const first = events[0]?.revision ?? 0;
    if (events.length < maxCount || first === 0) return { events, earlier: [] };
    // A page at a time up to the tail's first event, each page's data dropped before the next is read.
    const earlier: EventOutline[] = [];
    for (let from = 0; from < first; ) {
      const page = (await this.readStream(stream, { fromRevision: from, maxCount: PAGE_SIZE })).filter((event) => event.revision < first);
      if (page.length === 0) break;
      earlier.push(...page.map(({ stream, revision, type }) => ({ stream, revision, type })));
      from = page[page.length - 1]!.revision + 1;
    }
    return { events, earlier };
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const events: RecordedEvent[] = [];
    let cursor = unlessStart(options.after);
    while (events.length < maxCount) {
      // `fromPosition` is inclusive; the port's `after` is not.
      const page = await collect(this.client.readAll({ fromPosition: cursor ?? LOG_START, maxCount: PAGE_SIZE }));
      for (const event of page) {
        if (cursor && comparePositions(event.position, cursor) <= 0) continue;
        if (isUserEvent(event)) events.push(toRecordedEvent(event));
      }
      if (page.length < PAGE_SIZE) break;
      cursor = page[page.length - 1]!.position;
    }
    return withinBytes(events.slice(0, maxCount), options.maxBytes);
  }

  async countAfter(after: Position, atMost: number): Promise<number> {
    return (await this.readAll({ after, maxCount: atMost })).length;
  }

  async headPosition(): Promise<Position> {
    let from: Position | typeof END = END;
    for (;;) {
      const page: AllStreamRecordedEvent[] = await collect(
        this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: PAGE_SIZE }),
      );
      const last = page.find(isUserEvent);
      if (last) return last.position;
      if (page.length < PAGE_SIZE) return START;
      from = page[page.length - 1]!.position;
    }
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    const subscription = new CatchUpSubscription(this, this.client, options);
    this.subscriptions.add(subscription);
    void subscription.done.catch(() => undefined).finally(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.client.dispose();
  }

  private async lastEvent(stream: string): Promise<RecordedEvent | undefined> {
    const [last] = await this.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last;
  }

  private async checkExpectation(stream: string, expected: ExpectedRevision): Promise<AppendResult> {
    const last = await this.lastEvent(stream);
    const actual = last ? last.revision : 'no_stream';
    if (!revisionMatches(expected, actual)) throw new WrongExpectedRevisionError(stream, expected, actual);
    return { revision: last ? last.revision : -1, position: last ? last.position : START };
  }
}

/** Thrown out of the delivery loop so that a failing handler is told apart from a dropped connection. */
class HandlerFailure extends Error {}

/**
 * Catches up by reading `$all` in pages, reports it, then follows a live server subscription
 * from the last delivered position. Async iteration pulls one event at a time and the client's
 * stream pauses the server when its buffer is full (backpressure). After a drop it starts over
 * from the last delivered position, with a growing delay.
 */
class CatchUpSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private after: Position | undefined;
  /** Caught up is reported once at first, then again only after new deliveries. */
  private unreported = true;
  private live: AllStreamSubscription | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly client: EventStoreDBClient,
    private readonly options: SubscribeOptions,
  ) {
    this.after = unlessStart(options.after);
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    // Destroying the stream ends the iteration once the event in hand has been handled.
    this.live?.destroy();
    await this.done.catch(() => undefined);
  }

  private async run(): Promise<void> {
    let retryDelayMs = MIN_RETRY_DELAY_MS;
    while (!this.stopped) {
      try {
        await this.catchUp();
        retryDelayMs = MIN_RETRY_DELAY_MS;
        await this.followLive();
      } catch (error) {
        if (error instanceof HandlerFailure) throw error.cause;
      }
      if (this.stopped) return;
      await this.sleep(retryDelayMs);
      retryDelayMs = Math.min(retryDelayMs * 2, MAX_RETRY_DELAY_MS);
    }
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const batch = await this.store.readAll({ after: this.after, maxCount: PAGE_SIZE });
      for (const event of batch) {
        if (this.stopped) return;
        await this.deliver(event);
      }
      if (batch.length < PAGE_SIZE) break;
    }
    if (!this.stopped) await this.reportCaughtUp();
  }

  private async followLive(): Promise<void> {
    if (this.stopped) return;
    const subscription = this.client.subscribeToAll({
      fromPosition: this.after ?? LOG_START,
      filter: excludeSystemEvents(),
    });
    this.live = subscription;
    try {
      for await (const resolved of subscription) {
        if (this.stopped) return;
        const event = resolved.event;
        if (event && isUserEvent(event) && (!this.after || comparePositions(event.position, this.after) > 0)) {
          await this.deliver(toRecordedEvent(event));
        }
        // Nothing more has arrived from the server: everything it sent so far is delivered.
        if (subscription.readableLength === 0) await this.reportCaughtUp();
      }
    } finally {
      this.live = undefined;
      await subscription.unsubscribe().catch(() => undefined);
    }
  }

  private async deliver(event: RecordedEvent): Promise<void> {
    await this.guard(() => this.options.onEvent(event));
    this.after = event.position;
    this.unreported = true;
  }

  private async reportCaughtUp(): Promise<void> {
    if (!this.unreported) return;
    this.unreported = false;
    const position = this.after ?? START;
    await this.guard(async () => this.options.onCaughtUp?.(position));
  }

  private async guard(handler: () => Promise<void>): Promise<void> {
    try {
      await handler();
    } catch (error) {
      throw new HandlerFailure('subscription handler failed', { cause: error });
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wake = finish;
    });
  }
}

async function collect<E extends ResolvedEvent | AllStreamResolvedEvent>(
  read: StreamingRead<E>,
): Promise<NonNullable<E['event']>[]> {
  const events: NonNullable<E['event']>[] = [];
  for await (const resolved of read) {
    if (resolved.event) events.push(resolved.event as NonNullable<E['event']>);
  }
  return events;
}

/** The server rejects positions that no record has, such as the port's START: that is `undefined` here. */
function unlessStart(position: Position | undefined): Position | undefined {
  return position && comparePositions(position, START) > 0 ? position : undefined;
}

function isUserEvent(event: EsdbRecordedEvent): boolean {
  return !event.type.startsWith('$') && !event.streamId.startsWith('$');
}

function revisionMatches(expected: ExpectedRevision, actual: number | 'no_stream'): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === 'no_stream';
  if (expected === 'stream_exists') return actual !== 'no_stream';
  return actual === expected;
}

function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  if (!event.position) throw new Error('EventStoreDB did not report event positions; server 22.6 or later is required');
  // Written by `append` as the JSON of an EventMetadata plus the chain hash; the client types it as any JSON or bytes.
  const { [CHAIN_HASH]: hash, [EVENT_MAC]: mac, ...metadata } = event.metadata as unknown as EventMetadata & { [CHAIN_HASH]?: string; [EVENT_MAC]?: string };
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position: event.position,
    type: event.type,
    data: event.data,
    metadata,
    ...(hash ? { hash } : {}),
    ...(mac ? { mac } : {}),
  };
}

/**
 * The first events of `events` within `maxBytes` of data and metadata as JSON text, at least one
 * (ReadAllOptions.maxBytes). The client reads whole pages of the server's: this keeps the port's
 * answer, not the memory a page of large events takes here.
 */
function withinBytes(events: RecordedEvent[], maxBytes: number | undefined): RecordedEvent[] {
  if (maxBytes === undefined) return events;
  let bytes = 0;
  for (const [index, event] of events.entries()) {
    if (index > 0 && bytes >= maxBytes) return events.slice(0, index);
    bytes += Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata));
  }
  return events;
}
