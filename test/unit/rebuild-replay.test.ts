import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { AppendRequest, NewEvent } from '../../infra/eventstore/port';
import type { Document } from '../../infra/readstore/port';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import type { Projector } from '../../projections/projector';
import { rebuildReadModels } from '../../projections/rebuild';
import { countingCalls } from '../support/counting';
import { seededRandom } from '../support/seeded-random';
import { openMemoryPglite } from '../support/pglite-template';

interface Counter extends Document {
  readonly count: number;
}

/** Counts `Counted` per id and forgets the id on `Reset`: each document depends on all before it. */
const counters: Projector = {
  name: 'counters',
  collections: [{ name: 'counters', indexes: [{ fields: ['count'] }] }],
  eventTypes: new Set(['Counted', 'Reset']),
  prefetch: (event) => [{ collection: 'counters', id: (event.data as { id: string }).id }],
  async project(event, view) {
    const { id } = event.data as { id: string };
    if (event.type === 'Reset') return [{ kind: 'delete', collection: 'counters', id }];
    const current = await view.get<Counter>('counters', id);
    return [{ kind: 'upsert', collection: 'counters', document: { id, count: (current?.count ?? 0) + 1 } }];
  },
};

const metadata = { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: new Date(0).toISOString() };

describe('rebuild replay', () => {
  it('replays pages pipelined into the fresh collections, reading none of its own writes back, and ends as the log says', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const { proxy: readStore, calls } = countingCalls(await PostgresReadStore.open(sql), ['getMany', 'get']);
    const random = seededRandom(16);
    const expected = new Map<string, number>();
    const revisions = new Map<string, number>();
    // 12,000 events over 300 counters: three pages of the replay, each counter revisited across them.
    for (let batch = 0; batch < 24; batch++) {
      const requests = new Map<string, NewEvent[]>();
      for (let index = 0; index < 500; index++) {
        const id = `counter-${random.int(300)}`;
        const reset = random.chance(0.05);
        if (reset) expected.delete(id);
        else expected.set(id, (expected.get(id) ?? 0) + 1);
        requests.set(id, [...(requests.get(id) ?? []), { type: reset ? 'Reset' : 'Counted', data: { id }, metadata }]);
      }
      const appends: AppendRequest[] = [...requests].map(([stream, streamEvents]) => {
        const revision = revisions.get(stream) ?? -1;
        revisions.set(stream, revision + streamEvents.length);
        return { stream, events: streamEvents, expectedRevision: revision === -1 ? 'no_stream' : revision };
      });
      await events.appendMany(appends);
    }

    const phases: string[] = [];
    await rebuildReadModels(events, readStore, [counters], null, (progress) => {
      if (phases.at(-1) !== progress.phase) phases.push(progress.phase);
    });

    expect(calls.getMany + calls.get).toBe(0);
    const { items } = await readStore.find<Counter>('counters', { sort: [{ field: 'id', direction: 'asc' }] });
    expect(new Map(items.map((item) => [item.id, item.count]))).toEqual(expected);
    // Built after the load: the index is there once the rebuild has swapped in.
    const indexes = await sql.query<{ name: string }>(`select indexname as name from pg_indexes where tablename = 'rm_counters'`);
    expect(indexes.length).toBe(2);
    // The index builds are a phase of their own, so a progress bar does not sit at 100% of the replay meanwhile.
    expect(phases).toEqual(['replaying', 'indexing', 'catching-up', 'switching', 'done']);
    await sql.close();
  });

  it('keeps as many applies in flight as it is given writers: three by default, one on a one-connection engine', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const inner = await PostgresReadStore.open(sql);
    for (let page = 0; page < 4; page++) {
      await events.append(`counter-page-${page}`, Array.from({ length: 1000 }, (_, index) => ({ type: 'Counted', data: { id: `counter-${index}` }, metadata })), 'no_stream');
    }
    // Three projectors, so that a batch can be split three ways.
    const three = ['a', 'b', 'c'].map((name): Projector => ({
      name,
      collections: [{ name, indexes: [] }],
      eventTypes: new Set(['Counted']),
      prefetch: (event) => [{ collection: name, id: (event.data as { id: string }).id }],
      async project(event, view) {
        const { id } = event.data as { id: string };
        const current = await view.get<Counter>(name, id);
        return [{ kind: 'upsert', collection: name, document: { id, count: (current?.count ?? 0) + 1 } }];
      },
    }));
    const mostInFlight = async (writers?: number) => {
      let inFlight = 0;
      let most = 0;
      const store = Object.create(inner) as PostgresReadStore;
      store.apply = async (changes, checkpoints) => {
        most = Math.max(most, ++inFlight);
        try {
          return await inner.apply(changes, checkpoints);
        } finally {
          inFlight -= 1;
        }
      };
      await rebuildReadModels(events, store, three, null, () => undefined, writers === undefined ? {} : { writers });
      return most;
    };
    expect(await mostInFlight()).toBe(3);
    expect(await mostInFlight(1)).toBe(1);
    expect(await inner.get<Counter>('a', 'counter-7')).toEqual({ id: 'counter-7', count: 4 });
    await sql.close();
  });
});
