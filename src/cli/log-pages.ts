import { comparePositions, type EventStore, type Position, type RecordedEvent, START } from '../../infra/eventstore/port';

const PAGE_SIZE = 1000;

/** The global log up to `head` (inclusive), one page at a time, so that only a page is ever in memory. */
export async function* logPages(events: EventStore, head: Position): AsyncGenerator<readonly RecordedEvent[]> {
  let after = START;
  while (comparePositions(after, head) < 0) {
    const page = (await events.readAll({ after, maxCount: PAGE_SIZE })).filter((event) => comparePositions(event.position, head) <= 0);
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]!.position;
  }
}
