import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { foldStream, foldStreams, STREAM_PAGE } from '../../infra/eventstore/stream-pages';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { watchLargestRead } from '../support/largest-read';
import { openMemoryPglite } from '../support/pglite-template';

const metadata = { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: '2026-11-29T00:00:00.000Z' };
const revisionsOf = (folded: number[], page: readonly { revision: number }[]) => [...folded, ...page.map((event) => event.revision)];

describe('stream pages', () => {
  let sql: PgliteSqlClient;
  let events: PostgresEventStore;
  const lengths = { a: 30, b: 50, c: 40, long: 250, d: 100, e: 1 };

  beforeAll(async () => {
    sql = await openMemoryPglite();
    events = await PostgresEventStore.create(sql);
    for (const [stream, length] of Object.entries(lengths)) {
      await events.append(stream, Array.from({ length }, (_, n) => ({ type: 'Counted', data: { n }, metadata })), 'no_stream');
    }
  });
  afterAll(() => sql.close());

  it('folds a stream a page at a time, and a range of it', async () => {
    const reads = watchLargestRead(events);
    const readStream = jest.spyOn(events, 'readStream');
    expect(await foldStream(events, 'long', [] as number[], revisionsOf)).toEqual(Array.from({ length: 250 }, (_, n) => n));
    expect(readStream).toHaveBeenCalledTimes(3);
    expect(reads.largest()).toBe(STREAM_PAGE);
    expect(await foldStream(events, 'long', [] as number[], revisionsOf, { fromRevision: 90, maxCount: 120 })).toEqual(Array.from({ length: 120 }, (_, n) => n + 90));
    expect(await foldStream(events, 'd', [] as number[], revisionsOf)).toHaveLength(100);
    expect(await foldStream(events, 'none', [] as number[], revisionsOf)).toEqual([]);
  });

  it('folds many streams, short ones read together while they fit a page, a long one alone, none read whole past a page', async () => {
    const reads = watchLargestRead(events);
    const readStreams = jest.spyOn(events, 'readStreams');
    const streams = ['a', 'b', 'none', 'c', 'long', 'd', 'a', 'e'];
    const folded = await foldStreams(events, streams, () => [] as number[], revisionsOf);
    expect(reads.largest()).toBeLessThanOrEqual(STREAM_PAGE);
    expect(readStreams.mock.calls.map(([named]) => named)).toEqual([['a', 'b', 'none'], ['c'], ['d'], ['e']]);
    for (const [stream, length] of Object.entries({ ...lengths, none: 0 })) expect(folded.get(stream)).toEqual(Array.from({ length }, (_, n) => n));
  });
});
