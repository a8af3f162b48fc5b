import { type AppendRequest, type EventStore, type NewEvent, WrongExpectedRevisionError } from '../../infra/eventstore/port';
import type { ExportedEvent } from './export-format';

/** Events of one stream that follow each other in the log: appended together. */
interface Run {
  readonly stream: string;
  readonly firstRevision: number;
  readonly firstLine: number;
  readonly events: NewEvent[];
}

interface Batch {
  readonly runs: Run[];
  readonly streams: Set<string>;
  events: number;
  lastLine: number;
}

/** Events per appendMany call: big enough to pay for the round trip, small enough to bound memory and a statement. */
const BATCH_EVENTS = 2000;

/**
 * Appends exported events in their global order, each run of one stream expecting the
 * revision its first event had in the source, so that the log keeps its order and a gap or a
 * reordered stream fails at the line that caused it. Consecutive runs go together in one
 * appendMany (which keeps their order), until a stream would come back in the same call or
 * the batch is full. Calls run one after the other, each committed before the next starts,
 * while the next batch is read from the file.
 */
export class OrderedAppender {
  private batch: Batch = emptyBatch();
  private writing: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  private written = 0;

  constructor(private readonly events: EventStore) {}

  /** Events appended so far (committed). */
  get appended(): number {
    return this.written;
  }

  async add(event: ExportedEvent, lineNumber: number): Promise<void> {
    const newEvent: NewEvent = { id: event.id, type: event.type, data: event.data, metadata: event.metadata };
    let last = this.batch.runs.at(-1);
    const streamReturns = last?.stream !== event.stream && this.batch.streams.has(event.stream);
    if (streamReturns || this.batch.events >= BATCH_EVENTS) {
      await this.send();
      last = undefined;
    }
    if (last?.stream === event.stream) last.events.push(newEvent);
    else {
      this.batch.runs.push({ stream: event.stream, firstRevision: event.revision, firstLine: lineNumber, events: [newEvent] });
      this.batch.streams.add(event.stream);
    }
    this.batch.events++;
    this.batch.lastLine = lineNumber;
  }

  /** Appends whatever is buffered and waits until every event is written. */
  async flush(): Promise<void> {
    await this.send();
    await this.settled();
  }

  /** Starts appending the buffered batch once the previous one has been written. */
  private async send(): Promise<void> {
    const batch = this.batch;
    if (batch.runs.length === 0) return;
    this.batch = emptyBatch();
    await this.settled();
    this.writing = this.write(batch).catch((error: unknown) => {
      this.failure = error as Error;
    });
  }

  private async settled(): Promise<void> {
    await this.writing;
    if (this.failure) throw this.failure;
  }

  private async write(batch: Batch): Promise<void> {
    const requests: AppendRequest[] = batch.runs.map((run) => ({
      stream: run.stream,
      events: run.events,
      expectedRevision: run.firstRevision === 0 ? 'no_stream' : run.firstRevision - 1,
    }));
    try {
      await this.events.appendMany(requests);
      this.written += batch.events;
    } catch (error) {
      const run = error instanceof WrongExpectedRevisionError ? batch.runs.find((candidate) => candidate.stream === error.stream) : undefined;
      const lines = run ? `line ${run.firstLine}` : `lines ${batch.runs[0]!.firstLine}-${batch.lastLine}`;
      throw new Error(`${lines}: ${(error as Error).message}`, { cause: error });
    }
  }
}

function emptyBatch(): Batch {
  return { runs: [], streams: new Set(), events: 0, lastLine: 0 };
}
