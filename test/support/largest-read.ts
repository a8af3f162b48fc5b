import type { EventStore } from '../../infra/eventstore/port';

/**
 * Makes `store` (an instance the service's other stores read through) remember the most events
 * one readStream or readStreams call answered since the last reset.
 */
export function watchLargestRead(store: EventStore): { largest: () => number; reset: () => void } {
  let largest = 0;
  const readStream = store.readStream.bind(store);
  const readStreams = store.readStreams.bind(store);
  Object.assign(store, {
    readStream: async (...args: Parameters<EventStore['readStream']>) => {
      const read = await readStream(...args);
      largest = Math.max(largest, read.length);
      return read;
    },
    readStreams: async (streams: readonly string[]) => {
      const read = await readStreams(streams);
      largest = Math.max(largest, [...read.values()].reduce((sum, events) => sum + events.length, 0));
      return read;
    },
  });
  return { largest: () => largest, reset: () => (largest = 0) };
}
