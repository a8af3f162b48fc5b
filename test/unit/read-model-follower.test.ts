import pino from 'pino';
import { comparePositions } from '../../infra/eventstore/port';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { CachingReadStore } from '../../infra/readstore/caching';
import { PostgresReadModelFeed } from '../../infra/readstore/feed-postgres';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { ProjectionDaemon } from '../../projections/daemon';
import type { Projector } from '../../projections/projector';
import { ReadModelFollower } from '../../projections/read-model-follower';
import { ReadModelPublisher } from '../../projections/read-model-publisher';
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
const metadata = { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: new Date(0).toISOString() };
const silent = pino({ level: 'silent' });

describe('an instance that follows the read models another instance writes', () => {
  it('answers a write once the holder wrote it and serves nothing older from memory; with a holder that sends no moves (an older version), from probes of the store', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const feed = new PostgresReadModelFeed(sql);
    const cache = new CachingReadStore(store, { cacheGets: () => true, cacheQueries: () => true });
    const daemon = new ProjectionDaemon(events, cache, [notes], silent);
    const follower = new ReadModelFollower(feed, daemon, (collections, documents) => cache.forget(collections, documents), silent);
    cache.awaitBeforeServing(() => follower.caughtUp());
    const holderCache = () => new CachingReadStore(store, { cacheGets: () => true, cacheQueries: () => true });
    const write = (id: string, text: string) => events.append(`note-${id}`, [{ type: 'NoteWritten', data: { id, text }, metadata }], 'any');

    const holder = new ProjectionDaemon(events, holderCache(), [notes], silent, new ReadModelPublisher(feed, () => true, silent).moved);
    await holder.start();
    await follower.start();
    expect(daemon.running).toBe(false);
    const first = await write('a', 'one');
    expect(await follower.waitFor(first.position, 5000)).toBe(true);
    expect(await cache.get('notes', 'a')).toEqual({ id: 'a', text: 'one' });
    const second = await write('a', 'two');
    // Whichever instance the writer waited on, a read after the holder wrote it sees it: the cached copy is retired first.
    expect(await holder.waitFor(second.position, 5000)).toBe(true);
    expect(await cache.get('notes', 'a')).toEqual({ id: 'a', text: 'two' });
    expect(comparePositions(daemon.position, second.position)).toBeGreaterThanOrEqual(0);
    await holder.stop();

    const older = new ProjectionDaemon(events, holderCache(), [notes], silent);
    await older.start();
    const third = await write('a', 'three');
    expect(await follower.waitFor(third.position, 5000)).toBe(true);
    expect(await cache.get('notes', 'a')).toEqual({ id: 'a', text: 'three' });
    const fourth = await write('a', 'four');
    expect(await older.waitFor(fourth.position, 5000)).toBe(true);
    expect(await cache.get('notes', 'a')).toEqual({ id: 'a', text: 'four' });
    await older.stop();
    await follower.stop();
    await sql.close();
  });
});
