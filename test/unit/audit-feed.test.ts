import type { EventMetadata, RecordedEvent } from '../../infra/eventstore/port';
import { positionFromString } from '../../infra/eventstore/port';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import type { SqlClient } from '../../infra/sql/client';
import { ProjectionBatch } from '../../projections/batch';
import { auditEntriesProjector, AUDIT_ENTRIES, type AuditRowDocument } from '../../projections/read-models/audit-entries';
import { ActorNames } from '../../queries/actor-names';
import { type AuditFilter, AuditFeedQueries } from '../../queries/audit-feed';
import { version3Document, type Version3Document, version3Feed } from '../support/audit-entries-v3';
import { countingCalls } from '../support/counting';
import { openMemoryPglite } from '../support/pglite-template';
import { recordingSql } from '../support/query-plans';
import { seededRandom } from '../support/seeded-random';

const WS = 'ws';

async function openStore(): Promise<{ sql: SqlClient; store: PostgresReadStore }> {
  const sql = await openMemoryPglite();
  const store = await PostgresReadStore.open(sql);
  for (const collection of auditEntriesProjector.collections) await store.ensureCollection(collection.name, collection.indexes, collection.columns);
  return { sql, store };
}

/** Projects `events` in batches that end after the given indexes (one batch when none), as the daemon does. */
async function project(store: PostgresReadStore, events: readonly RecordedEvent[], batchEnds: ReadonlySet<number> = new Set()): Promise<void> {
  const batch = new ProjectionBatch(store, (collection) => collection);
  for (const [index, event] of events.entries()) {
    batch.add([auditEntriesProjector], event);
    if (batchEnds.has(index) || index === events.length - 1) await store.apply(await batch.drain());
  }
}

const rows = async (store: PostgresReadStore) => (await store.find<AuditRowDocument>(AUDIT_ENTRIES, { sort: [{ field: 'id', direction: 'asc' }] })).items;

/** A log written append by append: each append one commit, its events consecutive. */
class Log {
  readonly events: RecordedEvent[] = [];
  private commit = 100n;
  private readonly revisions = new Map<string, number>();

  append(stream: string, events: readonly { type: string; data?: object; metadata?: Partial<EventMetadata> }[], base: Partial<EventMetadata> = {}): RecordedEvent[] {
    this.commit += 1n;
    const appended = events.map((event, index) => {
      const revision = (this.revisions.get(stream) ?? -1) + 1;
      this.revisions.set(stream, revision);
      return {
        id: `event-${this.events.length + index}`,
        stream,
        revision,
        position: { commit: this.commit, prepare: BigInt(index) },
        type: event.type,
        data: { workspaceId: WS, ...event.data },
        metadata: { workspaceId: WS, actor: 'key:k1', actorKind: 'apiKey', actorId: 'k1', actorName: 'writer', correlationId: `request-${this.commit}`, serverRequestId: `server-${this.commit}`, timestamp: new Date(Date.UTC(2026, 0, 1) + Number(this.commit) * 1000).toISOString(), ...base, ...event.metadata },
      } satisfies RecordedEvent;
    });
    this.events.push(...appended);
    return appended;
  }

  /** A save and publish of an item, as PUT /v2/contents does. */
  saveAndPublish(itemId: string, base: Partial<EventMetadata> = {}): RecordedEvent[] {
    return this.append(`content-${WS}-${itemId}`, [
      { type: 'ContentDraftSaved', data: { itemId, contentType: 'Note', fields: { title: itemId } } },
      { type: 'ContentPublished', data: { itemId, contentType: 'Note', firstPublish: true } },
    ], base);
  }
}

/** Every entry of the feed for `filter`, page after page of `limit` from `after`. */
async function wholeFeed(feed: AuditFeedQueries, filter: AuditFilter, limit: number, after: string | null = null) {
  const entries = [];
  let cursor = after;
  for (;;) {
    const page = await feed.page(WS, filter, cursor ? positionFromString(cursor) : null, limit);
    entries.push(...page.items);
    if (!page.hasMore) return entries;
    cursor = page.next;
  }
}

describe('audit feed, one row per append', () => {
  it('writes a save and publish as one row, and the feed shows its two entries with the exact shape, order and cursors of one row per event', async () => {
    const { sql, store } = await openStore();
    const log = new Log();
    log.append(`apikeys-${WS}`, [{ type: 'ApiKeyIssued', data: { keyId: 'k1', name: 'writer' } }], { actor: 'admin', actorKind: 'admin', actorId: 'alice', actorName: 'alice' });
    const [saved, published] = log.saveAndPublish('item-1');
    await project(store, log.events);

    const stored = await rows(store);
    expect(stored).toHaveLength(2);
    const row = stored.find((document) => document.stream === saved!.stream)!;
    expect(row.entries.map((entry) => entry.id)).toEqual([saved!.id, published!.id]);

    const feed = new AuditFeedQueries(store, new ActorNames(store));
    const old = version3Feed(log.events.map((event) => version3Document(event)!), WS);
    const page = await feed.page(WS, {}, null, 100);
    // The same entries, fields in the same order, each with its own position as its cursor.
    expect(page.items).toEqual(old);
    expect(page.items.map((entry) => Object.keys(entry))).toEqual(old.map((entry) => Object.keys(entry)));
    expect(page.items.slice(1).map((entry) => [entry.eventId, entry.position])).toEqual([
      [saved!.id, `${saved!.position.commit}/0`],
      [published!.id, `${published!.position.commit}/1`],
    ]);
    expect(page).toMatchObject({ next: `${published!.position.commit}/1`, hasMore: false });
    // A cursor inside the row: the page after the save holds the publish only.
    const afterSave = await feed.page(WS, {}, saved!.position, 1);
    expect(afterSave.items.map((entry) => entry.eventId)).toEqual([published!.id]);
    expect(afterSave).toMatchObject({ next: `${published!.position.commit}/1`, hasMore: false });
    const firstOfRow = await feed.page(WS, { itemId: 'item-1' }, null, 1);
    expect(firstOfRow).toMatchObject({ items: [expect.objectContaining({ eventId: saved!.id })], next: `${saved!.position.commit}/0`, hasMore: true });
    // The type filter finds either entry of the row, and only it.
    expect((await feed.page(WS, { types: ['ContentPublished'] }, null, 10)).items.map((entry) => entry.eventId)).toEqual([published!.id]);
    expect((await feed.page(WS, { types: ['ContentDraftSaved'] }, null, 10)).items.map((entry) => entry.eventId)).toEqual([saved!.id]);
    expect(await feed.page(WS, { types: ['ContentDraftSaved'] }, saved!.position, 10)).toEqual({ items: [], next: `${saved!.position.commit}/0`, hasMore: false });
    await sql.close();
  });

  it('merges an append split between batches into one row, and writes the same rows when its events are seen again', async () => {
    const whole = await openStore();
    const split = await openStore();
    const log = new Log();
    log.append('import-stream', Array.from({ length: 6 }, (_, index) => ({ type: index % 2 === 0 ? 'ItemImported' : 'ItemTagged', data: { itemId: 'imported' } })));
    log.saveAndPublish('item-2');
    await project(whole.store, log.events);
    await project(split.store, log.events, new Set([0, 2, 3, 6]));
    // A replay from before the last batches (a checkpoint that did not move with its changes).
    await project(split.store, log.events.slice(2), new Set([1, 3]));

    const expected = await rows(whole.store);
    expect(expected.map((row) => row.entries.length)).toEqual([6, 2]);
    expect(await rows(split.store)).toEqual(expected);
    await whole.sql.close();
    await split.sql.close();
  });

  it('starts a row of its own for an event of the append that differs from its row (a third type, another actor, item or time), and for every later event of the append', async () => {
    const { sql, store } = await openStore();
    const log = new Log();
    log.append('mixed', [
      { type: 'A' },
      { type: 'B' },
      { type: 'A' },
      { type: 'C' },
      { type: 'C' },
      { type: 'C', metadata: { actorId: 'k2' } },
      { type: 'C', data: { itemId: 'other' } },
      { type: 'C', metadata: { timestamp: '2027-01-01T00:00:00.000Z' } },
    ]);
    // A release publish: an event on each of many streams in one append.
    for (const item of ['r1', 'r2', 'r3']) log.append(`content-${WS}-${item}`, [{ type: 'ContentDraftSaved', data: { itemId: item } }]);
    const release = log.events.length;
    const streams = ['r1', 'r2', 'r3'];
    const commit = 900n;
    log.events.push(
      ...streams.map((item, index) => ({
        id: `release-${item}`,
        stream: `content-${WS}-${item}`,
        revision: 1,
        position: { commit, prepare: BigInt(index) },
        type: 'ContentPublished',
        data: { workspaceId: WS, itemId: item },
        metadata: { workspaceId: WS, actor: 'system', correlationId: 'release-1', releaseId: 'rel-1', timestamp: '2026-06-01T00:00:00.000Z' },
      })),
    );
    await project(store, log.events, new Set([1, 3, release]));

    const stored = (await rows(store)).sort((a, b) => (a.seq < b.seq ? -1 : 1));
    expect(stored.map((row) => row.entries.map((entry) => entry.type).join(''))).toEqual(['ABA', 'C', 'C', 'C', 'C', 'C', 'ContentDraftSaved', 'ContentDraftSaved', 'ContentDraftSaved', 'ContentPublished', 'ContentPublished', 'ContentPublished']);
    const feed = new AuditFeedQueries(store, new ActorNames(store));
    const old = log.events.map((event) => version3Document(event)!);
    expect(await wholeFeed(feed, {}, 2)).toEqual(version3Feed(old, WS));
    expect(await wholeFeed(feed, { types: ['C', 'B'] }, 1)).toEqual(version3Feed(old, WS, { types: ['C', 'B'] }));
    await sql.close();
  });

  it('answers every filter, page size and cursor as one row per event did, for a mixed log projected in random batches', async () => {
    const { sql, store } = await openStore();
    const seeded = seededRandom(27);
    const random = () => seeded.next();
    const log = new Log();
    const types = ['ContentDraftSaved', 'ContentPublished', 'ContentErased', 'AssetUploaded'];
    const actors = ['k1', 'k2', 'k3'];
    for (let append = 0; append < 120; append++) {
      const actorId = actors[Math.floor(random() * actors.length)]!;
      const base = { actorId, actor: `key:${actorId}`, ...(random() < 0.2 ? { actorKind: 'system' as const, actor: 'system', actorId: 'system' } : {}) };
      const item = `item-${Math.floor(random() * 15)}`;
      if (random() < 0.5) log.saveAndPublish(item, base);
      else log.append(`stream-${item}`, Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({ type: types[Math.floor(random() * types.length)]!, data: { itemId: random() < 0.9 ? item : 'other' } })), base);
    }
    await project(store, log.events, new Set(log.events.map((_, index) => index).filter(() => random() < 0.1)));

    expect((await rows(store)).length).toBeLessThan(log.events.length * 0.7);
    const feed = new AuditFeedQueries(store, new ActorNames(store));
    const old: Version3Document[] = log.events.map((event) => version3Document(event)!);
    const filters: AuditFilter[] = [{}, { types: ['ContentPublished'] }, { types: ['ContentDraftSaved', 'AssetUploaded'] }, { actorId: 'k2' }, { actorKind: 'system' }, { itemId: 'item-3' }, { stream: 'content-ws-item-4' }, { types: ['ContentErased'], actorId: 'k1' }];
    for (const filter of filters) {
      const expected = version3Feed(old, WS, filter);
      for (const limit of [1, 2, 5, 1000]) expect(await wholeFeed(feed, filter, limit)).toEqual(expected);
      // From every cursor the unfiltered feed gives (inside rows and between them).
      for (const cursor of version3Feed(old, WS).filter(() => random() < 0.2)) {
        const matching = new Set(expected.map((entry) => entry.eventId));
        const after = version3Feed(old, WS).findIndex((entry) => entry.eventId === cursor.eventId);
        const rest = version3Feed(old, WS).slice(after + 1).filter((entry) => matching.has(entry.eventId));
        expect(await wholeFeed(feed, filter, 3, cursor.position)).toEqual(rest);
      }
    }
    await sql.close();
  });

  it('reads a page filtered by many event types with two queries (first and second types), in log order', async () => {
    const { sql, store } = await openStore();
    const log = new Log();
    const types = Array.from({ length: 50 }, (_, index) => `Type${index}`);
    for (let index = 0; index < 150; index++) log.append(`stream-${index % 7}`, [{ type: index % 3 === 0 ? 'Other' : types[index % types.length]! }, { type: 'Other' }]);
    await project(store, log.events);
    const { proxy, calls } = countingCalls(store, ['list', 'find', 'listIds', 'findIds']);

    const page = await new AuditFeedQueries(proxy, new ActorNames(proxy)).page(WS, { types }, null, 20);

    expect(calls).toEqual({ list: 2, find: 0, listIds: 0, findIds: 0 });
    const expected = log.events.filter((event) => event.type !== 'Other').slice(0, 20);
    expect(page.items.map((item) => item.eventId)).toEqual(expected.map((event) => event.id));
    expect(page.hasMore).toBe(true);
    await sql.close();
  });

  it.each([
    ['actor kind', { actorKind: 'sharedAccessKey' }, '"c_actorKind"'],
    ['a first type', { types: ['SharedAssetDownloaded'] }, ', c_type'],
    ['a second type', { types: ['SharedAssetDownloaded'] }, '"c_secondType"'],
  ] as const)('reads a page filtered by %s from an index, not by filtering every row of the workspace', async (_name, filter, column) => {
    const { sql, store } = await openStore();
    const log = new Log();
    // Rare rows among many key writes: the page of them must not walk the rest.
    for (let index = 0; index < 5000; index++) {
      const rare = index % 500 === 0;
      const downloaded = { type: 'SharedAssetDownloaded', data: { assetId: 'a' } };
      log.append(`stream-${index}`, rare ? (column === '"c_secondType"' ? [{ type: 'AssetRead' }, downloaded] : [downloaded]) : [{ type: 'ContentDraftSaved' }], rare ? { actorKind: 'sharedAccessKey', actorId: 'sak' } : {});
    }
    await project(store, log.events, new Set(log.events.map((_, index) => index).filter((index) => index % 1000 === 999)));
    await store.analyzeCollection(AUDIT_ENTRIES);
    const [index] = await sql.query<{ name: string }>(`select indexname as name from pg_indexes where tablename = 'rm_audit_entries' and indexdef like '%${column}%'`);

    const statements: { sql: string; params: unknown[] }[] = [];
    const recording = await PostgresReadStore.open(recordingSql(sql, statements));
    const page = await new AuditFeedQueries(recording, new ActorNames(recording)).page(WS, filter, null, 20);
    const plans: string[] = [];
    for (const statement of statements.filter((statement) => statement.sql.includes('rm_audit_entries'))) {
      plans.push((await sql.query<Record<string, string>>(`explain ${statement.sql}`, statement.params)).map((row) => Object.values(row).join('')).join('\n'));
    }

    const expected = log.events.filter((event) => event.type === 'SharedAssetDownloaded');
    expect(page.items.map((item) => item.eventId)).toEqual(expected.map((event) => event.id));
    expect(index).toBeDefined();
    expect(plans.join('\n')).toContain(index!.name);
    expect(plans.join('\n')).not.toMatch(/Seq Scan/);
    await sql.close();
  });
});
