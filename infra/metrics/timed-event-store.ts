import type { Histogram } from 'prom-client';
import type { AppendRequest, AppendResult, EventStore, ExpectedRevision, NewEvent, Position, ReadAllOptions, ReadStreamOptions, SubscribeOptions } from '../eventstore/port';

/** An event store whose appends are timed into a histogram; everything else passes through. */
export class TimedEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly appendDuration: Histogram,
  ) {}

  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    const stop = this.appendDuration.startTimer();
    try {
      return await this.inner.append(stream, events, expectedRevision);
    } finally {
      stop();
    }
  }

  /** Timed as one observation: the histogram counts calls, not streams. */
  async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    const stop = this.appendDuration.startTimer();
    try {
      return await this.inner.appendMany(requests);
    } finally {
      stop();
    }
  }

  readStream(stream: string, options?: ReadStreamOptions) {
    return this.inner.readStream(stream, options);
  }

  readStreams(streams: readonly string[]) {
    return this.inner.readStreams(streams);
  }

  streamRevisions(streams: readonly string[]) {
    return this.inner.streamRevisions(streams);
  }

  readStreamHeaders(stream: string) {
    return this.inner.readStreamHeaders(stream);
  }

  readStreamTail(stream: string, maxCount: number) {
    return this.inner.readStreamTail(stream, maxCount);
  }

  readAll(options?: ReadAllOptions) {
    return this.inner.readAll(options);
  }

  countAfter(after: Position, atMost: number) {
    return this.inner.countAfter(after, atMost);
  }

  headPosition() {
    return this.inner.headPosition();
  }

  subscribeToAll(options: SubscribeOptions) {
    return this.inner.subscribeToAll(options);
  }

  close() {
    return this.inner.close();
  }
}
