import { upkeepStatements } from '../../infra/sql/pglite-maintenance';

describe('the embedded engine upkeep', () => {
  it('vacuums and analyzes a due table in statements of their own (statements waiting run between them), and only what is due', () => {
    expect(upkeepStatements({ name: 'public.rm_ct', vacuum: true, analyze: true })).toEqual(['vacuum public.rm_ct', 'analyze public.rm_ct']);
    expect(upkeepStatements({ name: 'public.es_events', vacuum: true, analyze: false })).toEqual(['vacuum public.es_events']);
    expect(upkeepStatements({ name: 'public.rm_audit', vacuum: false, analyze: true })).toEqual(['analyze public.rm_audit']);
  });
});
