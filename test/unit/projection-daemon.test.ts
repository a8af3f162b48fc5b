import pino from 'pino';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { Change, Checkpoint } from '../../infra/readstore/port';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { ProjectionDaemon } from '../../projections/daemon';
import type { Projector } from '../../projections/projector';

const notes: Projector = {
  name: 'notes',
  collections: [{ name: 'notes', indexes: [] }],
  eventTypes: new Set(['NoteWritten']),
  async project(event) {
    const { id, text } = event.data as { id: string; text: string };
    return [{ kind: 'upsert', collection: 'notes', document: { id, text } }];
  },
};

/** A second read model over the same events, as an upgrade would add one. */
const noteLengths: Projector = {
  name: 'note_lengths',
  collections: [{ name: 'note_lengths', indexes: [] }],
  eventTypes: new Set(['NoteWritten']),
  async project(event) {
    const { id, text } = event.data as { id: string; text: string };
    return [{ kind: 'upsert', collection: 'note_lengths', document: { id, length: text.length } }];
  },
};

const metadata = { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: new Date(0).toISOString() };

describe('projection daemon', () => {
  it('recovers by itself after the read store fails, and the write becomes visible', async () => {
    const sql = await PgliteSqlClient.open();
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

  it('resumes from its checkpoint after a restart without replaying into other state', async () => {
    const sql = await PgliteSqlClient.open();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const first = new ProjectionDaemon(events, store, [notes], pino({ level: 'silent' }));
    await first.start();
    const one = await events.append('note-1', [{ type: 'NoteWritten', data: { id: 'n1', text: 'one' }, metadata }], 'no_stream');
    await first.waitFor(one.position, 5000);
    await first.stop();
    expect(await store.getCheckpoint('notes')).toEqual(one.position);

    const two = await events.append('note-2', [{ type: 'NoteWritten', data: { id: 'n2', text: 'two' }, metadata }], 'no_stream');
    const second = new ProjectionDaemon(events, store, [notes], pino({ level: 'silent' }));
    await second.start();
    expect(await second.waitFor(two.position, 5000)).toBe(true);
    expect((await store.find('notes', {})).total).toBe(2);
    await second.stop();
    await sql.close();
  });

  it('builds a read model new to a built store by replay before it starts, and the live subscription resumes at the others\' checkpoint', async () => {
    const sql = await PgliteSqlClient.open();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const first = new ProjectionDaemon(events, store, [notes], pino({ level: 'silent' }));
    await first.start();
    let last = await events.append('note-0', [{ type: 'NoteWritten', data: { id: 'n0', text: 'zero' }, metadata }], 'no_stream');
    for (let index = 1; index < 50; index++) {
      last = await events.append(`note-${index}`, [{ type: 'NoteWritten', data: { id: `n${index}`, text: 'x'.repeat(index) }, metadata }], 'no_stream');
    }
    await first.waitFor(last.position, 5000);
    await first.stop();

    const subscribedAfter: unknown[] = [];
    const watched = Object.create(events) as PostgresEventStore;
    watched.subscribeToAll = (options) => {
      subscribedAfter.push(options.after);
      return events.subscribeToAll(options);
    };
    const upgraded = new ProjectionDaemon(watched, store, [notes, noteLengths], pino({ level: 'silent' }));
    await upgraded.start();
    // Built when start() returns, not caught up later by the shared subscription...
    expect(await store.getCheckpoint('note_lengths')).toEqual(last.position);
    expect((await store.find('note_lengths', {})).total).toBe(50);
    expect(await store.get('note_lengths', 'n7')).toEqual({ id: 'n7', length: 7 });
    // ...which starts where the others were, instead of replaying the log from the start for every read model.
    expect(subscribedAfter).toEqual([last.position]);

    const next = await events.append('note-new', [{ type: 'NoteWritten', data: { id: 'new', text: 'abc' }, metadata }], 'no_stream');
    expect(await upgraded.waitFor(next.position, 5000)).toBe(true);
    expect(await store.get('note_lengths', 'new')).toEqual({ id: 'new', length: 3 });
    await upgraded.stop();
    await sql.close();
  });
});
