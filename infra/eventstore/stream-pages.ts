import type { EventStore, RecordedEvent } from './port';

/** Events of one stream a reader holds at a time: a long history of large events is read, folded or listed a page at a time, never whole. */
export const STREAM_PAGE = 100;

export interface StreamRange {
  /** Inclusive; 0 when absent. */
  readonly fromRevision?: number;
  /** At most this many events from fromRevision; the rest of the stream when absent. */
  readonly maxCount?: number;
}

/** Hands the stream's events in `range` to `visit` in order, at most STREAM_PAGE at a time. */
export async function forEachPage(store: EventStore, stream: string, visit: (page: readonly RecordedEvent[]) => void, range: StreamRange = {}): Promise<void> {
  let fromRevision = range.fromRevision ?? 0;
  let left = range.maxCount ?? Number.POSITIVE_INFINITY;
  while (left > 0) {
    const maxCount = Math.min(STREAM_PAGE, left);
    const page = await store.readStream(stream, { fromRevision, maxCount });
    if (page.length > 0) visit(page);
    if (page.length < maxCount) return;
    fromRevision = page[page.length - 1]!.revision + 1;
    left -= page.length;
  }
}

/** The stream's events in `range` folded onto `initial` a page at a time (`step` is never given an empty page). */
export async function foldStream<State>(store: EventStore, stream: string, initial: State, step: (state: State, page: readonly RecordedEvent[]) => State, range: StreamRange = {}): Promise<State> {
  let state = initial;
  await forEachPage(store, stream, (page) => (state = step(state, page)), range);
  return state;
}

/**
 * Many whole streams (a release's items), each folded onto its own initial state, with no read
 * returning more than about a page: streams short enough are read together (readStreams) while
 * their events fit one page, and a longer one alone, a page at a time. Lengths come from
 * streamRevisions, which reads no event; a stream that grew since is still read whole. `step` is
 * never given an empty page: a stream with no events keeps its initial state.
 */
export async function foldStreams<State>(
  store: EventStore,
  streams: readonly string[],
  initial: (stream: string) => State,
  step: (state: State, page: readonly RecordedEvent[]) => State,
): Promise<Map<string, State>> {
  const named = [...new Set(streams)];
  const revisions = await store.streamRevisions(named);
  const folded = new Map<string, State>();
  let batch: string[] = [];
  let batchEvents = 0;
  const readBatch = async () => {
    const read = await store.readStreams(batch);
    for (const stream of batch) {
      const events = read.get(stream) ?? [];
      folded.set(stream, events.length > 0 ? step(initial(stream), events) : initial(stream));
    }
    batch = [];
    batchEvents = 0;
  };
  for (const stream of named) {
    const length = (revisions.get(stream) ?? -1) + 1;
    if (length > STREAM_PAGE) {
      folded.set(stream, await foldStream(store, stream, initial(stream), step));
      continue;
    }
    if (batchEvents + length > STREAM_PAGE) await readBatch();
    batch.push(stream);
    batchEvents += length;
  }
  if (batch.length > 0) await readBatch();
  return folded;
}
