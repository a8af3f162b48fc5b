import type { PGlite } from '@electric-sql/pglite';
import { EmbeddedMaintenance, upkeepStatements } from '../../infra/sql/pglite-maintenance';

describe('the embedded engine upkeep', () => {
  it('vacuums and analyzes a due table in statements of their own (statements waiting run between them), and only what is due', () => {
    expect(upkeepStatements({ name: 'public.rm_ct', vacuum: true, analyze: true })).toEqual(['vacuum public.rm_ct', 'analyze public.rm_ct']);
    expect(upkeepStatements({ name: 'public.es_events', vacuum: true, analyze: false })).toEqual(['vacuum public.es_events']);
    expect(upkeepStatements({ name: 'public.rm_audit', vacuum: false, analyze: true })).toEqual(['analyze public.rm_audit']);
  });

  it('leaves the engine to the service after each of its statements for as long as the statement held it: half the engine at most', async () => {
    let now = 0;
    /** What the upkeep did, in order: a turn of the engine and its statements, or a pause. */
    const done: string[] = [];
    const cost: Record<string, number> = { 'vacuum public.big': 1200, 'analyze public.big': 800, 'analyze public.small': 30 };
    const db = {
      closed: false,
      query: async (sql: string) => {
        if (sql.includes('pg_stat_all_tables')) {
          return {
            rows: [
              { name: 'public.big', vacuum: true, analyze: true },
              { name: 'public.small', vacuum: false, analyze: true },
            ],
          };
        }
        now += cost[sql] ?? 0;
        done.push(sql);
        return { rows: [] };
      },
    } as unknown as PGlite;
    const maintenance = new EmbeddedMaintenance(db, (work) => work(), { checkpointWalBytes: 1 }, { now: () => now, pause: async (ms) => void done.push(`pause ${ms}`) });
    maintenance.ranStatement();
    await maintenance.vacuumWhenDue();
    expect(done.filter((step) => !step.startsWith('select'))).toEqual(['vacuum public.big', 'pause 1200', 'analyze public.big', 'pause 800', 'analyze public.small', 'pause 30']);
  });
});
