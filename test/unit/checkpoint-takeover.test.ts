import type { Position } from '../../infra/eventstore/port';
import type { Checkpoint, ReadStore } from '../../infra/readstore/port';
import { continuedPosition, takeOverContinuedCheckpoints } from '../../projections/checkpoint-takeover';
import { groupCheckpointName, resolveCheckpoints } from '../../projections/group-checkpoint';
import type { Projector } from '../../projections/projector';

const at = (commit: number): Position => ({ commit: BigInt(commit), prepare: BigInt(commit) });

/** Checkpoints and collections in memory, with the calls that change them in order. */
function memoryStore(checkpoints: Checkpoint[], collections: string[]) {
  const rows = new Map(checkpoints.map((checkpoint) => [checkpoint.name, checkpoint.position]));
  const tables = new Set(collections);
  const calls: string[] = [];
  const store = {
    listCheckpoints: () => Promise.resolve([...rows].map(([name, position]) => ({ name, position }))),
    apply: (_changes: unknown[], written: Checkpoint[] = []) => {
      for (const { name, position } of written) rows.set(name, position);
      calls.push(...written.map(({ name }) => `checkpoint ${name}`));
      return Promise.resolve();
    },
    deleteCheckpoint: (name: string) => {
      rows.delete(name);
      return Promise.resolve();
    },
    dropCollection: (name: string) => {
      tables.delete(name);
      calls.push(`drop ${name}`);
      return Promise.resolve();
    },
  };
  return { store: store as unknown as ReadStore, rows, tables, calls };
}

const projector = (version: number, continues?: number): Projector => ({
  name: 'states',
  version,
  ...(continues === undefined ? {} : { continues }),
  collections: [{ name: 'kept', indexes: [] }],
  retiredCollections: ['copy'],
  eventTypes: new Set(),
  project: () => Promise.resolve([]),
});
const other: Projector = { name: 'other', collections: [], eventTypes: new Set(), project: () => Promise.resolve([]) };

describe('checkpoint takeover of a version a projector continues', () => {
  it('renames the earlier version\'s checkpoint (in a group row too) to its own, after dropping the retired collections', async () => {
    const group = groupCheckpointName(['states@3', 'other']);
    const { store, rows, tables, calls } = memoryStore([{ name: group, position: at(7) }], ['kept', 'copy']);
    await takeOverContinuedCheckpoints(store, [projector(4, 3), other]);
    expect(Object.fromEntries(resolveCheckpoints([...rows].map(([name, position]) => ({ name, position }))))).toEqual({ 'states@4': at(7), other: at(7) });
    expect([...tables]).toEqual(['kept']);
    expect(calls.slice(0, 2)).toEqual(['drop copy', 'checkpoint states@4']);
  });

  it('leaves a store alone that holds no earlier version, or its own already (a stop halfway: the earlier one is removed)', async () => {
    const fresh = memoryStore([{ name: 'states@2', position: at(5) }], ['kept', 'copy']);
    await takeOverContinuedCheckpoints(fresh.store, [projector(4, 3)]);
    expect([...fresh.rows.keys()]).toEqual(['states@2']);
    expect([...fresh.tables]).toEqual(['kept', 'copy']);

    const halfway = memoryStore([{ name: 'states@4', position: at(9) }, { name: 'states@3', position: at(8) }], ['kept']);
    await takeOverContinuedCheckpoints(halfway.store, [projector(4, 3)]);
    expect(Object.fromEntries(halfway.rows)).toEqual({ 'states@4': at(9) });
  });

  it('reads where a projector stands from its own checkpoint, else the continued version\'s, never another\'s', () => {
    const positions = new Map([['states@3', at(3)], ['states@2', at(2)]]);
    expect(continuedPosition(projector(4, 3), positions)).toEqual(at(3));
    expect(continuedPosition(projector(4, 3), new Map([...positions, ['states@4', at(4)]]))).toEqual(at(4));
    expect(continuedPosition(projector(4), positions)).toBeNull();
    // The earlier version (an instance of the previous release) finds no checkpoint of its own once the store was taken over: it awaits a backfill.
    expect(continuedPosition(projector(3), new Map([['states@4', at(4)]]))).toBeNull();
  });
});
