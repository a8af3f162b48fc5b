import type { EventStore, NewEvent } from '../../infra/eventstore/port';
import type { ExportedEvent } from './export-format';

/** Events of one stream that follow each other in the log: appended together. */
interface Run {
  readonly stream: string;
  readonly firstRevision: number;
  readonly firstLine: number;
  readonly events: NewEvent[];
}

const MAX_RUN = 500;

/**
 * Appends exported events in their global order, one append at a time, each expecting the
 * revision its first event had in the source, so that the log keeps its order and a gap or a
 * reordered stream fails at the line that caused it. Consecutive events of one stream go in
 * one append.
 */
export class OrderedAppender {
  private run: Run | null = null;

  constructor(private readonly events: EventStore) {}

  async add(event: ExportedEvent, lineNumber: number): Promise<void> {
    const newEvent: NewEvent = { id: event.id, type: event.type, data: event.data, metadata: event.metadata };
    if (this.run && this.run.stream === event.stream && this.run.events.length < MAX_RUN) {
      this.run.events.push(newEvent);
      return;
    }
    await this.flush();
    this.run = { stream: event.stream, firstRevision: event.revision, firstLine: lineNumber, events: [newEvent] };
  }

  async flush(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.run = null;
    try {
      await this.events.append(run.stream, run.events, run.firstRevision === 0 ? 'no_stream' : run.firstRevision - 1);
    } catch (error) {
      throw new Error(`line ${run.firstLine}: ${(error as Error).message}`, { cause: error });
    }
  }
}
