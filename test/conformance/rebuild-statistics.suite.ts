import { comparePositions, type NewEvent, type Position } from '../../infra/eventstore/port';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { Document } from '../../infra/readstore/port';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import type { SqlClient } from '../../infra/sql/client';
import { checkpointName, type Projector } from '../../projections/projector';
import { rebuildName, rebuildReadModels } from '../../projections/rebuild';

interface Counter extends Document {
  readonly id: string;
  readonly count: number;
}

/** Counts `Counted` per id, in a collection indexed on the count. */
const counters: Projector = {
  name: 'counters',
  collections: [{ name: 'counters', indexes: [{ fields: ['count'] }], columns: [{ path: 'count', type: 'number' }] }],
  eventTypes: new Set(['Counted']),
  prefetch: (event) => [{ collection: 'counters', id: (event.data as { id: string }).id }],
  async project(event, view) {
    const { id } = event.data as { id: string };
    const current = await view.get<Counter>('counters', id);
    return [{ kind: 'upsert', collection: 'counters', document: { id, count: (current?.count ?? 0) + 1 } }];
  },
};

const metadata = { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: new Date(0).toISOString() };
const IDS = 400;
const EVENTS = 2000;

/** What the engine knows of the table's contents for planning: ANALYZE's column statistics, and (PostgreSQL) whether ANALYZE was run on it (autovacuum's counts apart). */
async function statistics(sql: SqlClient, table: string): Promise<{ columns: number; analyzed: boolean }> {
  const [columns] = await sql.query<{ n: number }>(`select count(*)::int as n from pg_stats where tablename = $1`, [table]);
  if (sql.engine === 'pglite') return { columns: columns!.n, analyzed: columns!.n > 0 };
  const [stat] = await sql.query<{ analyzed: boolean }>(`select last_analyze is not null as analyzed from pg_stat_user_tables where relname = $1`, [table]);
  return { columns: columns!.n, analyzed: stat?.analyzed ?? false };
}

/**
 * A rebuilt collection is analyzed before it serves (the pause before the swap), so its first
 * queries are planned from statistics even where autovacuum never comes (PGlite, or PostgreSQL
 * with autovacuum off); and what is appended while its indexes are built is replayed before the
 * pause, not during it, when writers wait.
 */
export function describeRebuildStatistics(engine: 'pglite' | 'postgres', open: () => Promise<{ sql: SqlClient; close: () => Promise<void> }>): void {
  describe(`a rebuilt collection before it serves (${engine})`, () => {
    it('has its statistics, and holds what was appended while it was indexed', async () => {
      const { sql, close } = await open();
      try {
        const events = await PostgresEventStore.create(sql);
        const inner = await PostgresReadStore.open(sql);
        for (let first = 0; first < EVENTS; first += 500) {
          const batch: NewEvent[] = Array.from({ length: 500 }, (_, index) => ({ type: 'Counted', data: { id: `c${(first + index) % IDS}` }, metadata }));
          await events.append(`counters-${first}`, batch, 'no_stream');
        }
        // Appended while the indexes are built, as a writer would.
        let duringIndexing: Position | null = null;
        const store = Object.create(inner) as PostgresReadStore;
        store.analyzeCollection = async (name) => {
          duringIndexing ??= (await events.append('counters-late', [{ type: 'Counted', data: { id: 'late' }, metadata }], 'no_stream')).position;
          return inner.analyzeCollection(name);
        };
        const table = `rm_${rebuildName('counters')}`;
        let atPause: { statistics: { columns: number; analyzed: boolean }; checkpoint: Position | null } | null = null;
        const live = {
          pause: async () => {
            atPause = { statistics: await statistics(sql, table), checkpoint: await inner.getCheckpoint(rebuildName(checkpointName(counters))) };
          },
          resume: async () => undefined,
        };

        await rebuildReadModels(events, store, [counters], live);

        expect(atPause).not.toBeNull();
        const { statistics: before, checkpoint } = atPause!;
        expect(before.analyzed).toBe(true);
        // id, doc, and the typed count column.
        expect(before.columns).toBeGreaterThanOrEqual(3);
        expect(checkpoint && comparePositions(checkpoint, duringIndexing!)).toBeGreaterThanOrEqual(0);
        expect(await inner.get<Counter>('counters', 'late')).toEqual({ id: 'late', count: 1 });
        expect((await inner.count('counters', {}))).toBe(IDS + 1);
        // The statistics went with the table into service.
        expect((await statistics(sql, 'rm_counters')).columns).toBe(before.columns);
      } finally {
        await close();
      }
    });
  });
}
