import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { Change, Checkpoint } from '../../infra/readstore/port';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { comparePositions, type Position, positionToString } from '../../infra/eventstore/port';
import { PROJECTION_QUARANTINE, type QuarantinedEvent } from '../../projections/quarantine';
import { ProjectionDaemon } from '../../projections/daemon';
import { deleteCheckpointEverywhere, groupMembers, isGroupCheckpoint, resolveCheckpoints } from '../../projections/group-checkpoint';
import { checkpointName, type Projector } from '../../projections/projector';
import { rebuildReadModels } from '../../projections/rebuild';
import { RebuildCoordinator } from '../../projections/rebuild-coordinator';
import { projectionStatuses } from '../../projections/status';
import { systemClock } from '../../infra/clock';
import { openMemoryPglite } from '../support/pglite-template';

const notes: Projector = {
  name: 'notes',
  collections: [{ name: 'notes', indexes: [] }],
  eventTypes: new Set(['NoteWritten']),
  async project(event) {
    const { id, text } = event.data as { id: string; text: string };
    return [{ kind: 'upsert', collection: 'notes', document: { id, text } }];
  },
};

/** A read model added later: one document per note written, whatever its text. */
const writes: Projector = {
  name: 'writes',
  collections: [{ name: 'writes', indexes: [] }],
  eventTypes: new Set(['NoteWritten']),
  async project(event) {
    return [{ kind: 'upsert', collection: 'writes', document: { id: event.id } }];
  },
};

/** Copies each note as notes holds it after the event: it reads another read model in the same batch. */
const copies: Projector = {
  name: 'copies',
  collections: [{ name: 'copies', indexes: [] }],
  reads: ['notes'],
  eventTypes: new Set(['NoteWritten']),
  async project(event, view) {
    const note = await view.get('notes', (event.data as { id: string }).id);
    return note ? [{ kind: 'upsert', collection: 'copies', document: note }] : [];
  },
};

/** notes at version 2: the text upper-cased and kept in a typed, indexed column. */
const notesVersion2: Projector = {
  ...notes,
  version: 2,
  collections: [{ name: 'notes', indexes: [{ fields: ['text'] }], columns: [{ path: 'text', type: 'text' }] }],
  async project(event) {
    const { id, text } = event.data as { id: string; text: string };
    return [{ kind: 'upsert', collection: 'notes', document: { id, text: text.toUpperCase() } }];
  },
};

const metadata = { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: new Date(0).toISOString() };

/** Counts NoteWritten per note id: each document depends on the one before it. */
function counting(projected: string[]): Projector {
  return {
    name: 'counts',
    collections: [{ name: 'counts', indexes: [] }],
    eventTypes: new Set(['NoteWritten']),
    prefetch: (event) => [{ collection: 'counts', id: (event.data as { id: string }).id }],
    async project(event, view) {
      const { id } = event.data as { id: string };
      projected.push(event.id);
      const current = await view.get<{ id: string; count: number }>('counts', id);
      return [{ kind: 'upsert', collection: 'counts', document: { id, count: (current?.count ?? 0) + 1 } }];
    },
  };
}

/** The store, with every position written for checkpoint `name` recorded. */
function watchingCheckpoint(store: PostgresReadStore, name: string): { watched: PostgresReadStore; positions: Position[] } {
  const positions: Position[] = [];
  const watched = Object.create(store) as PostgresReadStore;
  watched.apply = async (changes: readonly Change[], checkpoints?: readonly Checkpoint[]) => {
    for (const checkpoint of checkpoints ?? []) {
      if (checkpoint.name === name || (isGroupCheckpoint(checkpoint.name) && groupMembers(checkpoint.name).includes(name))) positions.push(checkpoint.position);
    }
    return store.apply(changes, checkpoints);
  };
  return { watched, positions };
}

/** Where the read model stands: its own checkpoint or a group checkpoint naming it. */
async function checkpointOf(store: PostgresReadStore, name: string): Promise<Position | null> {
  return resolveCheckpoints(await store.listCheckpoints()).get(name) ?? null;
}

/** The read models' checkpoint names, group rows resolved. */
async function checkpointNames(store: PostgresReadStore): Promise<string[]> {
  return [...resolveCheckpoints(await store.listCheckpoints()).keys()];
}

async function eventually(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (condition()) return true;
  }
  return condition();
}

describe('projection daemon', () => {
  it('recovers by itself after the read store fails, and the write becomes visible', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const inner = await PostgresReadStore.open(sql);
    let failuresLeft = 2;
    const flaky = Object.create(inner) as PostgresReadStore;
    flaky.apply = async (changes: readonly Change[], checkpoints?: readonly Checkpoint[]) => {
      if (changes.length > 0 && failuresLeft-- > 0) throw new Error('database went away');
      return inner.apply(changes, checkpoints);
    };
    const daemon = new ProjectionDaemon(events, flaky, [notes], pino({ level: 'silent' }));
    await daemon.start();

    const appended = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'hello' }, metadata }], 'no_stream');
    expect(await daemon.waitFor(appended.position, 10_000)).toBe(true);
    expect(await inner.get('notes', 'n1')).toEqual({ id: 'n1', text: 'hello' });
    expect(failuresLeft).toBeLessThan(0);

    await daemon.stop();
    await sql.close();
  });

  it('quarantines an event the store refuses for one read model, and every other event and read model goes on', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    // Each text once: a second note with the same text is refused by the store (23505), whatever is retried.
    const uniqueNotes: Projector = { ...notes, collections: [{ name: 'notes', indexes: [{ fields: ['text'], unique: true }] }] };
    const daemon = new ProjectionDaemon(events, store, [uniqueNotes, writes], pino({ level: 'silent' }));
    await daemon.start();

    await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'same' }, metadata }], 'no_stream');
    const refused = await events.append('note-2', [{ type: 'NoteWritten', data: { id: 'n2', text: 'same' }, metadata: { ...metadata, workspaceId: 'ws-2' } }], 'no_stream');
    const later = await events.append('note-3', [{ type: 'NoteWritten', data: { id: 'n3', text: 'other' }, metadata }], 'no_stream');

    expect(await daemon.waitFor(later.position, 10_000)).toBe(true);
    expect(await store.get('notes', 'n3')).toEqual({ id: 'n3', text: 'other' });
    expect(await store.get('notes', 'n2')).toBeNull();
    expect((await store.list('writes', {})).map((document) => document.id)).toHaveLength(3);
    const [entry, ...more] = await store.list<QuarantinedEvent>(PROJECTION_QUARANTINE, {});
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ projection: 'notes', stream: 'note-2', eventType: 'NoteWritten', workspaceId: 'ws-2', position: positionToString(refused.position), resolution: null });
    expect(entry!.error).toMatch(/unique/);
    expect(await checkpointOf(store, 'notes')).toEqual(later.position);

    // Later batches are whole again (not one event at a time).
    const next = await events.append('note-4', [{ type: 'NoteWritten', data: { id: 'n4', text: 'fourth' }, metadata }], 'no_stream');
    expect(await daemon.waitFor(next.position, 10_000)).toBe(true);
    expect(await store.get('notes', 'n4')).toEqual({ id: 'n4', text: 'fourth' });

    await daemon.stop();
    await sql.close();
  });

  it('quarantines an event a projector throws on, and retries a store that is away instead of quarantining', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const inner = await PostgresReadStore.open(sql);
    let outagesLeft = 2;
    const flaky = Object.create(inner) as PostgresReadStore;
    flaky.apply = async (changes: readonly Change[], checkpoints?: readonly Checkpoint[]) => {
      if (changes.length > 0 && outagesLeft-- > 0) throw Object.assign(new Error('connection lost'), { code: '08006' });
      return inner.apply(changes, checkpoints);
    };
    const picky: Projector = {
      ...notes,
      async project(event) {
        const { id, text } = event.data as { id: string; text: string | null };
        return [{ kind: 'upsert', collection: 'notes', document: { id, length: text!.length } }];
      },
    };
    const daemon = new ProjectionDaemon(events, flaky, [picky], pino({ level: 'silent' }));
    await daemon.start();
    await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: null }, metadata }], 'no_stream');
    const later = await events.append('note-2', [{ type: 'NoteWritten', data: { id: 'n2', text: 'abc' }, metadata }], 'no_stream');

    expect(await daemon.waitFor(later.position, 10_000)).toBe(true);
    expect(outagesLeft).toBeLessThan(0);
    expect(await inner.get('notes', 'n2')).toEqual({ id: 'n2', length: 3 });
    expect((await inner.list<QuarantinedEvent>(PROJECTION_QUARANTINE, {})).map((entry) => entry.stream)).toEqual(['note-1']);

    await daemon.stop();
    await sql.close();
  });

  it('resumes after a pause by itself when the stores do not answer at its end, and the write becomes visible', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const inner = await PostgresReadStore.open(sql);
    let failuresLeft = 0;
    const flaky = Object.create(inner) as PostgresReadStore;
    flaky.listCheckpoints = async () => {
      if (failuresLeft-- > 0) throw new Error('database went away');
      return inner.listCheckpoints();
    };
    const daemon = new ProjectionDaemon(events, flaky, [notes], pino({ level: 'silent' }));
    await daemon.start();

    // A switch paused it, and the database is away when the switch ends (a typed table's, a rebuild's).
    await daemon.pause();
    failuresLeft = 2;
    await daemon.resume();
    expect(daemon.running).toBe(false);

    const appended = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'hello' }, metadata }], 'no_stream');
    expect(await daemon.waitFor(appended.position, 10_000)).toBe(true);
    expect(daemon.running).toBe(true);
    expect(await inner.get('notes', 'n1')).toEqual({ id: 'n1', text: 'hello' });

    await daemon.stop();
    await sql.close();
  });

  it('runs again only when the last of overlapping pauses ends, joining what was backfilled meanwhile, and never after a stop; a start during a pause reads what awaits a backfill', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const logger = pino({ level: 'silent' });
    const first = new ProjectionDaemon(events, store, [notes], logger);
    await first.start();
    const one = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'one' }, metadata }], 'no_stream');
    expect(await first.waitFor(one.position, 5000)).toBe(true);
    await first.stop();
    // writes is new to this populated store: it waits for its backfill.
    const daemon = new ProjectionDaemon(events, store, [notes, writes], logger);
    // Started during a typed table's switch: it runs only when the switch ends, but already says what awaits a backfill.
    await daemon.pause();
    await daemon.start();
    expect(daemon.running).toBe(false);
    expect(daemon.awaitingBackfill.map((projector) => projector.name)).toEqual(['writes']);

    // A rebuild's swap overlaps the switch; the switch ends first, before the swap has written writes' checkpoint.
    await daemon.pause();
    await daemon.resume();
    expect(daemon.running).toBe(false);
    // The swap: the backfilled collection with its checkpoint.
    await store.ensureCollection('writes', []);
    await store.apply([{ kind: 'upsert', collection: 'writes', document: { id: 'backfilled' } }], [{ name: checkpointName(writes), position: one.position }]);
    await daemon.resume();
    expect(daemon.running).toBe(true);
    expect(daemon.awaitingBackfill).toEqual([]);
    const two = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'two' }, metadata }], 0);
    expect(await daemon.waitFor(two.position, 5000)).toBe(true);
    // Live: the event after the checkpoint the swap wrote, beside what the backfill wrote.
    expect((await store.list<{ id: string }>('writes', {})).map((document) => document.id)).toEqual(expect.arrayContaining(['backfilled']));
    expect(await store.list('writes', {})).toHaveLength(2);

    // Shut down during a switch: its end does not start the projections again.
    await daemon.pause();
    await daemon.stop();
    await daemon.resume();
    expect(daemon.running).toBe(false);
    await expect(daemon.resume()).rejects.toThrow(/without a pause/);
    await sql.close();
  });

  it('ensures the collections at a start, not at the end of a pause, which writers wait through', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const inner = await PostgresReadStore.open(sql);
    const ensured: string[] = [];
    const counted = Object.create(inner) as PostgresReadStore;
    counted.ensureCollection = async (name, indexes, columns) => {
      ensured.push(name);
      return inner.ensureCollection(name, indexes, columns);
    };
    const daemon = new ProjectionDaemon(events, counted, [notes, copies], pino({ level: 'silent' }));
    await daemon.start();
    expect(ensured.sort()).toEqual([PROJECTION_QUARANTINE, 'copies', 'notes'].sort());

    await daemon.pause();
    const paused = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'during' }, metadata }], 'no_stream');
    await daemon.resume();
    expect(await daemon.waitFor(paused.position, 5000)).toBe(true);
    expect(ensured).toHaveLength(3);

    // A start ensures them again: collections may have been dropped while it was stopped.
    await daemon.stop();
    await inner.dropCollection('copies');
    await daemon.start();
    expect(ensured).toHaveLength(6);
    const next = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'after' }, metadata }], 0);
    expect(await daemon.waitFor(next.position, 5000)).toBe(true);
    expect(await inner.get('copies', 'n1')).toEqual({ id: 'n1', text: 'after' });
    await daemon.stop();
    await sql.close();
  });

  it('projects the next batch while the one before it is written, from the documents of that write, and answers each write once its own batch is written', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const inner = await PostgresReadStore.open(sql);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const written: Position[] = [];
    const gated = Object.create(inner) as PostgresReadStore;
    gated.apply = async (changes: readonly Change[], checkpoints: readonly Checkpoint[] = []) => {
      if (changes.length > 0 && written.length === 0) await gate;
      await inner.apply(changes, checkpoints);
      if (checkpoints[0]) written.push(checkpoints[0].position);
    };
    const projected: string[] = [];
    const daemon = new ProjectionDaemon(events, gated, [counting(projected)], pino({ level: 'silent' }));
    await daemon.start();

    const first = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'one' }, metadata }], 'no_stream');
    expect(await eventually(() => projected.length === 1, 5000)).toBe(true);
    const firstVisible = daemon.waitFor(first.position, 10_000);
    const second = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'two' }, metadata }], 0);
    // The first batch's write is held; the second batch is projected meanwhile.
    expect(await eventually(() => projected.length === 2, 5000)).toBe(true);
    expect(written).toEqual([]);
    expect(comparePositions(daemon.position, first.position)).toBeLessThan(0);

    release();
    expect(await firstVisible).toBe(true);
    expect(await daemon.waitFor(second.position, 10_000)).toBe(true);
    expect(written).toEqual([first.position, second.position]);
    // The second batch counted on the first one's document, which was not in the store yet.
    expect(await inner.get('counts', 'n1')).toEqual({ id: 'n1', count: 2 });
    expect(await checkpointOf(inner, 'counts')).toEqual(second.position);

    await daemon.stop();
    await sql.close();
  });

  it('writes the events of one append in one batch, however many: readers never see part of it', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const inner = await PostgresReadStore.open(sql);
    const batches: number[] = [];
    const counted = Object.create(inner) as PostgresReadStore;
    counted.apply = async (changes: readonly Change[], checkpoints?: readonly Checkpoint[]) => {
      if (changes.length > 0) batches.push(changes.length);
      return inner.apply(changes, checkpoints);
    };
    const daemon = new ProjectionDaemon(events, counted, [notes], pino({ level: 'silent' }));
    await daemon.start();

    const note = (i: number) => ({ type: 'NoteWritten', data: { id: `n${i}`, text: 'x' }, metadata });
    const [, last] = await events.appendMany([
      { stream: 'notes-a', events: Array.from({ length: 400 }, (_, i) => note(i)), expectedRevision: 'no_stream' },
      { stream: 'notes-b', events: Array.from({ length: 200 }, (_, i) => note(400 + i)), expectedRevision: 'no_stream' },
    ]);
    expect(await daemon.waitFor(last!.position, 20_000)).toBe(true);
    expect(batches).toEqual([600]);

    await daemon.stop();
    await sql.close();
  });

  it('writes one checkpoint row per batch for all its read models, which every reader resolves to each of them', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const written: (readonly Checkpoint[])[] = [];
    const watched = Object.create(store) as PostgresReadStore;
    watched.apply = async (changes: readonly Change[], checkpoints?: readonly Checkpoint[]) => {
      written.push(checkpoints ?? []);
      return store.apply(changes, checkpoints);
    };
    const daemon = new ProjectionDaemon(events, watched, [notes, writes, copies], pino({ level: 'silent' }));
    await daemon.start();
    for (const id of ['n1', 'n2', 'n3']) {
      const appended = await events.append(`note-${id}`, [{ type: 'NoteWritten', data: { id, text: id }, metadata }], 'no_stream');
      expect(await daemon.waitFor(appended.position, 5000)).toBe(true);
    }
    const head = daemon.position;
    await daemon.stop();

    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(written.every((checkpoints) => checkpoints.length === 1)).toBe(true);
    expect((await store.listCheckpoints()).map((checkpoint) => checkpoint.name)).toEqual(['live:copies,notes,writes']);
    const statuses = await projectionStatuses(events, store, [notes, writes, copies], systemClock);
    expect(statuses.projections.map(({ name, checkpoint, atHead }) => ({ name, checkpoint, atHead }))).toEqual(
      ['notes', 'writes', 'copies'].map((name) => ({ name, checkpoint: positionToString(head), atHead: true })),
    );

    // Restarted with one read model fewer: the others go on from the group's position, and only they form the new group.
    const later = await events.append('note-n4', [{ type: 'NoteWritten', data: { id: 'n4', text: 'n4' }, metadata }], 'no_stream');
    const fewer = new ProjectionDaemon(events, store, [notes, writes], pino({ level: 'silent' }));
    await fewer.start();
    expect(await fewer.waitFor(later.position, 5000)).toBe(true);
    await fewer.stop();
    expect(await store.find('notes', {})).toMatchObject({ total: 4 });
    expect((await store.list('writes', {})).length).toBe(4);
    expect(new Map((await store.listCheckpoints()).map((checkpoint) => [checkpoint.name, positionToString(checkpoint.position)]))).toEqual(
      new Map([
        ['notes', positionToString(head)],
        ['writes', positionToString(head)],
        ['live:notes,writes', positionToString(later.position)],
      ]),
    );
    await sql.close();
  });

  it('resumes a store of the release before (its own checkpoint row per read model) without replaying, and moves no read model back', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const one = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'one' }, metadata }], 'no_stream');
    // As that release left it: the documents, and each read model's checkpoint under its own name.
    await store.ensureCollection('notes', []);
    await store.ensureCollection('writes', []);
    await store.apply(
      [
        { kind: 'upsert', collection: 'notes', document: { id: 'n1', text: 'as projected then' } },
        { kind: 'upsert', collection: 'writes', document: { id: 'written-then' } },
      ],
      [
        { name: 'notes', position: one.position },
        { name: 'writes', position: one.position },
      ],
    );
    const { watched, positions } = watchingCheckpoint(store, 'notes');
    const daemon = new ProjectionDaemon(events, watched, [notes, writes], pino({ level: 'silent' }));
    await daemon.start();
    expect(daemon.awaitingBackfill).toEqual([]);
    const two = await events.append('note-2', [{ type: 'NoteWritten', data: { id: 'n2', text: 'two' }, metadata }], 'no_stream');
    expect(await daemon.waitFor(two.position, 5000)).toBe(true);
    await daemon.stop();

    // n1 was not projected again: its document is still the one the release before wrote.
    expect(await store.get('notes', 'n1')).toEqual({ id: 'n1', text: 'as projected then' });
    const writtenIds = (await store.list('writes', {})).map((document) => document.id);
    expect(writtenIds).toHaveLength(2);
    expect(writtenIds).toContain('written-then');
    expect(positions.every((position) => comparePositions(position, one.position) >= 0)).toBe(true);
    expect(await checkpointOf(store, 'notes')).toEqual(two.position);
    expect(await checkpointOf(store, 'writes')).toEqual(two.position);
    await sql.close();
  });

  it('resumes from its checkpoint after a restart without replaying into other state', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const first = new ProjectionDaemon(events, store, [notes], pino({ level: 'silent' }));
    await first.start();
    const one = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'one' }, metadata }], 'no_stream');
    await first.waitFor(one.position, 5000);
    await first.stop();
    expect(await checkpointOf(store, 'notes')).toEqual(one.position);

    const two = await events.append('note-2', [{ type: 'NoteWritten', data: { id: 'n2', text: 'two' }, metadata }], 'no_stream');
    const second = new ProjectionDaemon(events, store, [notes], pino({ level: 'silent' }));
    await second.start();
    expect(await second.waitFor(two.position, 5000)).toBe(true);
    expect((await store.find('notes', {})).total).toBe(2);
    await second.stop();
    await sql.close();
  });

  it('backfills a read model added to a populated store apart: the live ones never go back, reads stay current, writes are not held', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const logger = pino({ level: 'silent' });
    const first = new ProjectionDaemon(events, store, [notes], logger);
    await first.start();
    // More events than one batch, so that a shared restart from the beginning would write a checkpoint before the head.
    const notesWritten = 600;
    await events.append('note-0', [{ type: 'NoteWritten', data: { id: 'n0', text: 'first' }, metadata }], 'no_stream');
    for (let chunk = 0; chunk < notesWritten / 100; chunk++) {
      const chunkEvents = Array.from({ length: 100 }, (_, index) => ({ type: 'NoteWritten', data: { id: `n${chunk * 100 + index + 1}`, text: 'text' }, metadata }));
      await events.append(`notes-${chunk}`, chunkEvents, 'no_stream');
    }
    const last = await events.append('note-0', [{ type: 'NoteWritten', data: { id: 'n0', text: 'latest' }, metadata }], 0);
    await first.waitFor(last.position, 10_000);
    await first.stop();
    const liveCheckpoint = (await checkpointOf(store, 'notes'))!;

    const { watched, positions: notesCheckpoints } = watchingCheckpoint(store, 'notes');
    const daemon = new ProjectionDaemon(events, watched, [notes, writes], logger);
    const rebuilds = new RebuildCoordinator(events, watched, daemon, logger);
    await rebuilds.startProjections();
    expect(daemon.awaitingBackfill.map((projector) => projector.name)).toEqual(['writes']);

    const readsDuringBackfill: unknown[] = [];
    const next = await events.append('note-new', [{ type: 'NoteWritten', data: { id: 'new', text: 'new' }, metadata }], 'no_stream');
    const writeStartedAt = Date.now();
    expect(await daemon.waitFor(next.position, 5000)).toBe(true);
    const writeWaitedMs = Date.now() - writeStartedAt;
    while (rebuilds.status?.state === 'running') {
      readsDuringBackfill.push((await store.get('notes', 'n0'))?.text);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }

    expect(rebuilds.status).toMatchObject({ state: 'succeeded', projections: ['writes'] });
    expect(writeWaitedMs).toBeLessThan(1000);
    expect(notesCheckpoints.every((position) => comparePositions(position, liveCheckpoint) > 0)).toBe(true);
    expect(new Set(readsDuringBackfill)).toEqual(new Set(['latest']));
    // n0 twice, the notes written, and the write made during the backfill.
    expect((await store.find('writes', {})).total).toBe(notesWritten + 3);
    expect(daemon.awaitingBackfill).toEqual([]);
    const joinedId = randomUUID();
    const afterJoin = await events.append('note-joined', [{ id: joinedId, type: 'NoteWritten', data: { id: 'joined', text: 'j' }, metadata }], 'no_stream');
    expect(await daemon.waitFor(afterJoin.position, 5000)).toBe(true);
    expect(await store.get('writes', joinedId)).toEqual({ id: joinedId });
    await daemon.stop();
    await sql.close();
  }, 60_000);

  it('keeps a projector that reads a read model awaiting its backfill out of live processing too, and backfills both', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const logger = pino({ level: 'silent' });
    const first = new ProjectionDaemon(events, store, [notes, copies], logger);
    await first.start();
    const one = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'one' }, metadata }], 'no_stream');
    await first.waitFor(one.position, 5000);
    await first.stop();
    // As a store without notes finds it: its collection and checkpoint absent, copies' kept.
    await store.dropCollection('notes');
    await deleteCheckpointEverywhere(store, 'notes');

    const daemon = new ProjectionDaemon(events, store, [notes, copies], logger);
    const rebuilds = new RebuildCoordinator(events, store, daemon, logger);
    await rebuilds.startProjections();
    expect(daemon.awaitingBackfill.map((projector) => projector.name)).toEqual(['notes', 'copies']);
    // Copied by the backfill from notes as it stands then, not live from a notes collection nobody keeps up to date.
    await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'two' }, metadata }], 0);
    expect(await eventually(() => rebuilds.status?.state !== 'running', 10_000)).toBe(true);
    expect(rebuilds.status).toMatchObject({ state: 'succeeded', projections: ['notes', 'copies'] });
    expect(daemon.awaitingBackfill).toEqual([]);
    expect(await store.get('copies', 'n1')).toEqual({ id: 'n1', text: 'two' });
    const three = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'three' }, metadata }], 1);
    expect(await daemon.waitFor(three.position, 5000)).toBe(true);
    expect(await store.get('copies', 'n1')).toEqual({ id: 'n1', text: 'three' });
    await daemon.stop();
    await sql.close();
  });

  it('answers a waiting write at once when a rebuild swap already covered its event', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const daemon = new ProjectionDaemon(events, store, [notes], pino({ level: 'silent' }));
    await daemon.start();
    await daemon.pause();
    const appended = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'one' }, metadata }], 'no_stream');
    const waiting = daemon.waitFor(appended.position, 5000);
    const startedAt = Date.now();

    await rebuildReadModels(events, store, [notes], daemon);
    await daemon.resume();

    expect(await waiting).toBe(true);
    expect(Date.now() - startedAt).toBeLessThan(1000);
    await daemon.stop();
    await sql.close();
  });

  it('rebuilds a read model whose version changed blue/green: its old collection serves until the swap, no other goes back, and a downgrade backfills too', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const logger = pino({ level: 'silent' });
    const first = new ProjectionDaemon(events, store, [notes, writes], logger);
    await first.start();
    for (let chunk = 0; chunk < 6; chunk++) {
      const chunkEvents = Array.from({ length: 100 }, (_, index) => ({ type: 'NoteWritten', data: { id: `n${chunk * 100 + index + 1}`, text: 'text' }, metadata }));
      await events.append(`notes-${chunk}`, chunkEvents, 'no_stream');
    }
    const last = await events.append('note-0', [{ type: 'NoteWritten', data: { id: 'n0', text: 'latest' }, metadata }], 'no_stream');
    await first.waitFor(last.position, 10_000);
    await first.stop();
    const writesCheckpoint = (await checkpointOf(store, 'writes'))!;
    const notesStatus = async () => (await projectionStatuses(events, store, [notesVersion2, writes], systemClock)).projections[0];
    expect(await notesStatus()).toMatchObject({ name: 'notes', checkpoint: null, version: 2, storedVersion: 1 });

    const { watched, positions: writesCheckpoints } = watchingCheckpoint(store, 'writes');
    const upgraded = new ProjectionDaemon(events, watched, [notesVersion2, writes], logger);
    const upgrades = new RebuildCoordinator(events, watched, upgraded, logger);
    await upgrades.startProjections();
    expect(upgraded.awaitingBackfill.map((projector) => projector.name)).toEqual(['notes']);
    const readsDuringBackfill: unknown[] = [];
    const during = await events.append('note-new', [{ type: 'NoteWritten', data: { id: 'new', text: 'new' }, metadata }], 'no_stream');
    expect(await upgraded.waitFor(during.position, 5000)).toBe(true);
    while (upgrades.status?.state === 'running') {
      readsDuringBackfill.push((await store.get('notes', 'n0'))?.text);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }

    expect(upgrades.status).toMatchObject({ state: 'succeeded', projections: ['notes'] });
    // The version 1 collection, never emptied nor half-written, until the version 2 one replaced it.
    expect(readsDuringBackfill.every((text) => text === 'latest' || text === 'LATEST')).toBe(true);
    expect(writesCheckpoints.every((position) => comparePositions(position, writesCheckpoint) >= 0)).toBe(true);
    expect(await store.get('notes', 'n0')).toEqual({ id: 'n0', text: 'LATEST' });
    expect(await store.get('notes', 'new')).toEqual({ id: 'new', text: 'NEW' });
    expect((await store.find('notes', { filter: { type: 'condition', field: 'text', operator: 'e', value: 'TEXT' } })).total).toBe(600);
    const columns = await sql.query<{ name: string }>(`select column_name as name from information_schema.columns where table_name = 'rm_notes' order by 1`);
    expect(columns.map((column) => column.name)).toEqual(['c_text', 'doc', 'id']);
    const names = await checkpointNames(store);
    expect(names).toContain('notes@2');
    expect(names).not.toContain('notes');
    expect(await notesStatus()).toMatchObject({ atHead: true, version: 2, storedVersion: 2 });
    await upgraded.stop();

    // The version before finds no checkpoint of its own: it backfills rather than resume onto version 2's documents.
    const downgraded = new ProjectionDaemon(events, store, [notes, writes], logger);
    const downgrades = new RebuildCoordinator(events, store, downgraded, logger);
    await downgrades.startProjections();
    expect(downgraded.awaitingBackfill.map((projector) => projector.name)).toEqual(['notes']);
    expect(await eventually(() => downgrades.status?.state !== 'running', 10_000)).toBe(true);
    expect(downgrades.status).toMatchObject({ state: 'succeeded' });
    expect(await store.get('notes', 'n0')).toEqual({ id: 'n0', text: 'latest' });
    expect(await checkpointNames(store)).toEqual(expect.arrayContaining(['notes', 'writes']));
    expect(await checkpointNames(store)).not.toContain('notes@2');
    await downgraded.stop();
    await sql.close();
  }, 60_000);
});
