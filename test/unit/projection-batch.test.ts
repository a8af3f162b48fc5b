import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Document, ReadStore } from '../../infra/readstore/port';
import { ProjectionBatch } from '../../projections/batch';
import { CONTENT_ITEM_STATES, type ContentItemStateDocument } from '../../projections/read-models/content-item-states';
import { type PublishedVersionDocument, VERSION_ROWS, versionRowsProjector } from '../../projections/read-models/published-versions';

const WS = 'ws1';

/** A store of documents in memory that records how it was read. */
function recordingStore(documents: Record<string, Document>) {
  const reads: string[] = [];
  const store = {
    get: (collection: string, id: string) => {
      reads.push(`get ${collection}`);
      return Promise.resolve(documents[`${collection}/${id}`] ?? null);
    },
    getManyAcross: (wanted: ReadonlyMap<string, readonly string[]>) => {
      reads.push(`getManyAcross ${[...wanted.keys()].sort().join(' ')}`);
      return Promise.resolve(new Map([...wanted].map(([collection, ids]) => [collection, ids.flatMap((id) => documents[`${collection}/${id}`] ?? [])])));
    },
  };
  return { store: store as unknown as ReadStore, reads };
}

const published = (itemId: string, revision: number): RecordedEvent => ({
  id: `event-${itemId}-${revision}`,
  stream: `content-${WS}-${itemId}`,
  revision,
  position: { commit: BigInt(1000 + revision), prepare: BigInt(1000 + revision) },
  type: 'ContentPublished',
  data: { workspaceId: WS, itemId, contentType: 'Article', fields: { title: `v${revision}` }, translations: {}, firstPublish: false },
  metadata: { workspaceId: WS, actor: 'key:1', correlationId: 'c', timestamp: '2026-03-01T00:00:00.000Z' },
});

describe('projection batch', () => {
  it('reads the open versions that publishes close with the batch, one query for all, never one by one', async () => {
    const documents: Record<string, Document> = {};
    for (const itemId of ['a', 'b', 'c']) {
      const state: ContentItemStateDocument = {
        id: `${WS}:${itemId}`,
        workspaceId: WS,
        itemId,
        contentType: 'Article',
        createdAt: '2026-01-01T00:00:00.000Z',
        hasDraft: true,
        open: { version: 2, fromMs: Date.parse('2026-01-02T00:00:00.000Z') },
        closed: [],
        position: '0',
      };
      documents[`${CONTENT_ITEM_STATES}/${state.id}`] = state;
      documents[`${VERSION_ROWS}/${WS}:${itemId}:2`] = { id: `${WS}:${itemId}:2`, itemId, validUntil: '9999-12-31T23:59:59.999Z' } as unknown as PublishedVersionDocument;
    }
    const { store, reads } = recordingStore(documents);
    const batch = new ProjectionBatch(store, (collection) => collection);
    for (const itemId of ['a', 'b', 'c']) batch.add([versionRowsProjector], published(itemId, 4));

    const changes = await batch.drain();

    const closed = changes.filter((change) => change.kind === 'upsert' && change.collection === VERSION_ROWS && change.document.id.endsWith(':2'));
    expect(closed.map((change) => change.kind === 'upsert' && (change.document as PublishedVersionDocument).validUntil)).toEqual(Array(3).fill('2026-03-01T00:00:00.000Z'));
    expect(reads.filter((read) => read.startsWith('get '))).toEqual([]);
    expect(reads).toEqual([`getManyAcross ${CONTENT_ITEM_STATES}`, `getManyAcross ${VERSION_ROWS}`]);
  });
});

describe('projection batch, on the thread', () => {
  /** A projector that holds the thread `ms` per event, as one of 100,000 characters does. */
  const slow = (ms: number) => ({
    name: 'slow',
    collections: [],
    eventTypes: new Set(['ContentPublished']),
    project: () => {
      for (const started = performance.now(); performance.now() - started < ms; );
      return Promise.resolve([]);
    },
  });

  it('lets other work run between events once it has held the thread a few milliseconds, in live mode too', async () => {
    const { store } = recordingStore({});
    const batch = new ProjectionBatch(store, (collection) => collection);
    for (let revision = 0; revision < 10; revision++) batch.add([slow(3)], published('a', revision));
    const ranAt: number[] = [];
    const started = performance.now();
    const ticking = setInterval(() => ranAt.push(performance.now() - started), 0);
    await batch.drain();
    const drained = performance.now() - started;
    clearInterval(ticking);
    // 30 ms of projecting: timers ran during it (in one task, none would have).
    expect(ranAt.length).toBeGreaterThanOrEqual(2);
    expect(ranAt[0]).toBeLessThan(drained);
  });
});
