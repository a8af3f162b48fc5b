import { type AppendResult, type EventHeader, type EventStore, type Position, type RecordedEvent, START, type StreamTail, type Subscription } from './port';

/**
 * The event log of a store no process has written to, opened read-only (`cms verify`): it has
 * no tables, and creating them would be writing. It reads as empty and refuses writes.
 */
export class AbsentEventLog implements EventStore {
  append(): Promise<AppendResult> {
    return Promise.reject(new Error('the event log was opened read-only'));
  }

  appendMany(): Promise<AppendResult[]> {
    return Promise.reject(new Error('the event log was opened read-only'));
  }

  async readStream(): Promise<RecordedEvent[]> {
    return [];
  }

  async readStreams(streams: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    return new Map(streams.map((stream) => [stream, []]));
  }

  async streamRevisions(streams: readonly string[]): Promise<Map<string, number>> {
    return new Map(streams.map((stream) => [stream, -1]));
  }

  async readStreamHeaders(): Promise<EventHeader[]> {
    return [];
  }

  async readStreamTail(): Promise<StreamTail> {
    return { events: [], earlier: [] };
  }

  async countAfter(): Promise<number> {
    return 0;
  }

  async readAll(): Promise<RecordedEvent[]> {
    return [];
  }

  async headPosition(): Promise<Position> {
    return START;
  }

  subscribeToAll(): Subscription {
    throw new Error('the event log was opened read-only');
  }

  async close(): Promise<void> {}
}
