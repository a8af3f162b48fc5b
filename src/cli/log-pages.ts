import { comparePositions, type EventStore, LOG_PAGE_BYTES, type Position, type RecordedEvent, START } from '../../infra/eventstore/port';

const PAGE_SIZE = 1000;

/**
 * The global log up to `head` (inclusive), one page at a time. The next page is read while the
 * caller works on this one (the database answers on its own process or thread meanwhile), so at
 * most two pages are ever in memory.
 */
export async function* logPages(events: EventStore, head: Position): AsyncGenerator<readonly RecordedEvent[]> {
  const read = async (after: Position) => (await events.readAll({ after, maxCount: PAGE_SIZE, maxBytes: LOG_PAGE_BYTES })).filter((event) => comparePositions(event.position, head) <= 0);
  let next: Promise<RecordedEvent[]> | null = comparePositions(START, head) < 0 ? read(START) : null;
  try {
    while (next) {
      const page = await next;
      if (page.length === 0) return;
      const after = page[page.length - 1]!.position;
      next = comparePositions(after, head) < 0 ? read(after) : null;
      yield page;
    }
  } finally {
    // A caller that stops early leaves a read in flight: its failure is of no interest any more.
    next?.catch(() => undefined);
  }
}
