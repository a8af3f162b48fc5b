import { randomUUID } from 'node:crypto';
import { approximateBytes } from '../infra/approximate-bytes';
import type { Clock } from '../infra/clock';
import { type ActorKind, type EventMetadata, type EventStore, type ExpectedRevision, type Position, WrongExpectedRevisionError } from '../infra/eventstore/port';
import { forEachPage } from '../infra/eventstore/stream-pages';
import { foldOnHeaders } from './fold-on-headers';
import { foldEvents, type Decider } from '../src/domain/decider';
import { conflict } from '../src/domain/errors';

export interface DomainEvent {
  readonly type: string;
  readonly data: unknown;
}

/** An aggregate: its decider and the parser that turns stored events back into typed ones. */
export interface Aggregate<Command, Event extends DomainEvent, State> {
  readonly decider: Decider<Command, Event, State>;
  readonly parse: (event: DomainEvent) => Event;
  /** The events as they are stored, when that differs from how they are decided (values sealed); the state evolves from the decided ones. */
  readonly encode?: (events: readonly Event[]) => Promise<readonly DomainEvent[]>;
  /** Folds many events at once where evolving them one by one would cost more (a release's entries); the same state as foldEvents. */
  readonly fold?: (from: State, events: readonly Event[]) => State;
  /**
   * `evolve` copies the values its events carry into the state and never looks at them, so the
   * state can be folded on the stream's headers with only the events it keeps read whole
   * (fold-on-headers.ts): a long history costs its headers, not its values.
   */
  readonly evolvesOnHeaders?: boolean;
}

function fold<Command, Event extends DomainEvent, State>(aggregate: Aggregate<Command, Event, State>, from: State, events: readonly Event[]): State {
  return aggregate.fold ? aggregate.fold(from, events) : foldEvents({ initialState: from, evolve: aggregate.decider.evolve }, events);
}

/** Who asks, for the metadata of every event appended on their behalf. */
export interface CommandContext {
  readonly workspaceId: string | null;
  readonly actor: string;
  /** The actor spelled out for audit (see EventMetadata); set for requests, absent for older callers. */
  readonly actorKind?: ActorKind;
  readonly actorId?: string;
  readonly actorName?: string | null;
  readonly clientInfo?: string;
  readonly correlationId?: string;
  /** The server's own id of the request (EventMetadata.serverRequestId). */
  readonly serverRequestId?: string;
  readonly causationId?: string;
  /** The content release the events carry out (EventMetadata.releaseId). */
  readonly releaseId?: string;
  /**
   * A client waits for the answer and may read next (an API request): when the read models do
   * not reach the appended events within the wait, the command fails with ReadModelsBehindError
   * (the events stay appended) rather than returning a change the next read would not show.
   * Process managers leave it unset: what they record is done, and failing would repeat it.
   */
  readonly readYourWrites?: boolean;
}

export interface CommandResult<Event, State> {
  readonly events: Event[];
  /** The state after the new events. */
  readonly state: State;
  /** Position of the last appended event; null when the decision appended nothing. */
  readonly position: Position | null;
}

export interface RunOptions {
  /**
   * Wait for the read models to reach the appended events before answering (read-your-writes);
   * default true. A process that only needs the append itself to have won skips the wait.
   */
  readonly waitForReadModels?: boolean;
}

const MAX_ATTEMPTS = 5;

/** What the states kept by CommandRunner may weigh together (approximateBytes): 10,000 items of 1 MB would otherwise be 10 GB. */
const RECENT_STATES_BYTES = 256 * 1024 * 1024;
const READ_MODEL_WAIT_MS = 5000;
/** A stream of no more events than this is folded whole from one read; a longer one on its headers (Aggregate.evolvesOnHeaders). */
const WHOLE_STREAM_AT_MOST = 16;

/** Resolves once the read models that serve the API have processed `position` (false on timeout). */
export interface ReadModelBarrier {
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
}

/** The events were appended, but the read models did not reach them within READ_MODEL_WAIT_MS (answered 503). */
export class ReadModelsBehindError extends Error {
  override readonly name = 'ReadModelsBehindError';

  constructor() {
    super(`the change was saved, but the read models did not reach it within ${READ_MODEL_WAIT_MS / 1000} s, so a read now would not show it yet; read it again shortly, and read before creating it again (saving with an id is safe to repeat)`);
  }
}

/** Waits for the read models to reach `position`; for a client that reads next (CommandContext.readYourWrites) a wait that runs out is an error. */
export async function awaitReadModels(readModels: ReadModelBarrier, position: Position, context: CommandContext): Promise<void> {
  const reached = await readModels.waitFor(position, READ_MODEL_WAIT_MS);
  if (!reached && context.readYourWrites === true) throw new ReadModelsBehindError();
}

/**
 * Loads one stream, decides on its current state and appends with the revision it read.
 * A concurrent append makes the append fail; the command is then decided again on the
 * fresh state, and after MAX_ATTEMPTS it is answered as a conflict, never lost silently.
 * After appending it waits until the read models have caught up (read-your-writes).
 */
export class CommandRunner {
  /**
   * States this process decided last, by stream, with their revision. The append's expected
   * revision guards them: if another writer appended since, the append fails, the entry is
   * dropped and the stream is read again. Bounded, least recently used first.
   */
  private readonly recent = new Map<string, { state: unknown; revision: number; bytes: number }>();
  private recentBytes = 0;

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly readModels: ReadModelBarrier,
    private readonly maxRecentStreams = 10_000,
    private readonly maxRecentBytes = RECENT_STATES_BYTES,
  ) {}

  /** The aggregate's current state, for checks that append nothing. */
  async load<Command, Event extends DomainEvent, State>(aggregate: Aggregate<Command, Event, State>, stream: string): Promise<State> {
    return (await this.readState(aggregate, stream)).state;
  }

  /** The stream's state folded a page at a time, and the revision of its last event (null when it has none). */
  private async readState<Command, Event extends DomainEvent, State>(aggregate: Aggregate<Command, Event, State>, stream: string): Promise<{ state: State; revision: number | null }> {
    if (aggregate.evolvesOnHeaders) return this.readStateOnHeaders(aggregate, stream);
    let state = aggregate.decider.initialState;
    let revision: number | null = null;
    await forEachPage(this.store, stream, (page) => {
      state = fold(aggregate, state, page.map((event) => aggregate.parse(event)));
      revision = page[page.length - 1]!.revision;
    });
    return { state, revision };
  }

  /**
   * The stream's tail whole and the outlines of the events before it, in one read: a short
   * stream is all tail and folded whole; a longer one is folded on its headers, with the values
   * of only the events its state keeps, most of them in that tail.
   */
  private async readStateOnHeaders<Command, Event extends DomainEvent, State>(aggregate: Aggregate<Command, Event, State>, stream: string): Promise<{ state: State; revision: number | null }> {
    const { events: tail, earlier } = await this.store.readStreamTail(stream, WHOLE_STREAM_AT_MOST);
    const parsed = tail.map((event) => aggregate.parse(event));
    const revision = tail.length === 0 ? null : tail[tail.length - 1]!.revision;
    if (earlier.length === 0) return { state: fold(aggregate, aggregate.decider.initialState, parsed), revision };
    const evolve = aggregate.decider.evolve as (state: State, event: DomainEvent) => State;
    const read = (fromRevision: number, maxCount: number) => this.store.readStream(stream, { fromRevision, maxCount });
    const known = new Map<number, DomainEvent>(tail.map((event, index) => [event.revision, parsed[index]!]));
    const state = await foldOnHeaders([...earlier, ...tail], aggregate.decider.initialState, evolve, read, aggregate.parse, known);
    return { state, revision };
  }

  async run<Command, Event extends DomainEvent, State>(
    aggregate: Aggregate<Command, Event, State>,
    stream: string,
    command: Command,
    context: CommandContext,
    options: RunOptions = {},
  ): Promise<CommandResult<Event, State>> {
    const known = this.recent.get(stream);
    if (known) {
      const result = await this.decideAndAppend(aggregate, stream, command, context, known.state as State, known.revision, options);
      if (result) return result;
    }
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = await this.readState(aggregate, stream);
      const result = await this.decideAndAppend(aggregate, stream, command, context, state, revision ?? 'no_stream', options);
      if (result) return result;
      if (attempt >= MAX_ATTEMPTS) throw conflict(`${stream} is being changed concurrently; try again`);
    }
  }

  /**
   * For a stream that cannot exist yet (named by a fresh random id): decides on the initial
   * state without reading the stream and appends with "no stream". Should the stream exist
   * after all, the command is run the ordinary way.
   */
  async create<Command, Event extends DomainEvent, State>(
    aggregate: Aggregate<Command, Event, State>,
    stream: string,
    command: Command,
    context: CommandContext,
    options: RunOptions = {},
  ): Promise<CommandResult<Event, State>> {
    const result = await this.decideAndAppend(aggregate, stream, command, context, aggregate.decider.initialState, 'no_stream', options);
    return result ?? this.run(aggregate, stream, command, context, options);
  }

  /**
   * Appends facts that no rule decides on (an audit record of what happened) without
   * reading the stream: expected revision "any", so a long stream costs nothing to extend.
   */
  async record(stream: string, events: readonly DomainEvent[], context: CommandContext, options: RunOptions = {}): Promise<void> {
    const appended = await this.store.append(stream, this.toNewEvents(events, this.metadataOf(context)), 'any');
    if (options.waitForReadModels !== false) await awaitReadModels(this.readModels, appended.position, context);
  }

  /**
   * Appends decided events to many streams as one append (EventStore.appendMany: all or nothing
   * on PostgreSQL and PGlite), each on its own expected revision; a failed expectation throws
   * WrongExpectedRevisionError. Then waits for the read models, like run.
   */
  async appendMany(requests: readonly { stream: string; events: readonly DomainEvent[]; expectedRevision: ExpectedRevision }[], context: CommandContext): Promise<Position> {
    const metadata = this.metadataOf(context);
    const appended = await this.store.appendMany(requests.map((request) => ({ ...request, events: this.toNewEvents(request.events, metadata) })));
    for (const request of requests) this.forget(request.stream);
    const position = appended[appended.length - 1]!.position;
    await awaitReadModels(this.readModels, position, context);
    return position;
  }

  /** Null when another append got there first. */
  private async decideAndAppend<Command, Event extends DomainEvent, State>(
    aggregate: Aggregate<Command, Event, State>,
    stream: string,
    command: Command,
    context: CommandContext,
    state: State,
    expected: ExpectedRevision,
    options: RunOptions = {},
  ): Promise<CommandResult<Event, State> | null> {
    const events = aggregate.decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null };
    const stored = aggregate.encode ? await aggregate.encode(events) : events;
    try {
      const appended = await this.store.append(stream, this.toNewEvents(stored, this.metadataOf(context)), expected);
      const decided = fold(aggregate, state, events);
      // The state holds about what its newest events carry, and what they replaced.
      this.remember(stream, decided, appended.revision, 2 * approximateBytes(events.map((event) => event.data)) + 1024);
      if (options.waitForReadModels !== false) await awaitReadModels(this.readModels, appended.position, context);
      return { events, state: decided, position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      this.forget(stream);
      return null;
    }
  }

  private remember(stream: string, state: unknown, revision: number, bytes: number): void {
    this.forget(stream);
    this.recent.set(stream, { state, revision, bytes });
    this.recentBytes += bytes;
    while (this.recent.size > this.maxRecentStreams || (this.recentBytes > this.maxRecentBytes && this.recent.size > 1)) this.forget(this.recent.keys().next().value!);
  }

  private forget(stream: string): void {
    const known = this.recent.get(stream);
    if (!known) return;
    this.recent.delete(stream);
    this.recentBytes -= known.bytes;
  }

  /** The events of one command as the store takes them: they share one metadata, so one append has one instant and one correlation id. */
  private toNewEvents(events: readonly DomainEvent[], metadata: EventMetadata) {
    return events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata }));
  }

  private metadataOf(context: CommandContext): EventMetadata {
    return {
      workspaceId: context.workspaceId,
      actor: context.actor,
      ...(context.actorKind === undefined ? {} : { actorKind: context.actorKind }),
      ...(context.actorId === undefined ? {} : { actorId: context.actorId }),
      ...(context.actorName === undefined ? {} : { actorName: context.actorName }),
      ...(context.clientInfo === undefined ? {} : { clientInfo: context.clientInfo }),
      correlationId: context.correlationId ?? randomUUID(),
      ...(context.serverRequestId === undefined ? {} : { serverRequestId: context.serverRequestId }),
      ...(context.causationId === undefined ? {} : { causationId: context.causationId }),
      ...(context.releaseId === undefined ? {} : { releaseId: context.releaseId }),
      timestamp: this.clock.now().toISOString(),
    };
  }
}
