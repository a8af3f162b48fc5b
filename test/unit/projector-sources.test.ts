import { withTheirSources } from '../../projections/projector';

describe('withTheirSources', () => {
  const all = [
    { name: 'items' },
    { name: 'tables', reads: ['items', 'versions'] },
    { name: 'search' },
    { name: 'versions', reads: ['history'] },
    { name: 'history' },
  ];

  it('adds what the named projectors read, and what those read, in the order of the list', () => {
    expect(withTheirSources(all, ['tables']).map((projector) => projector.name)).toEqual(['items', 'tables', 'versions', 'history']);
    expect(withTheirSources(all, ['search', 'history']).map((projector) => projector.name)).toEqual(['search', 'history']);
  });

  it('answers every projector for no names', () => {
    expect(withTheirSources(all, [])).toEqual(all);
  });
});
