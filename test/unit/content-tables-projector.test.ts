import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Change, Document } from '../../infra/readstore/port';
import type { ReadView } from '../../projections/projector';
import { contentItemId } from '../../projections/read-models/content-items';
import { CONTENT_TABLES, contentTablesProjector } from '../../projections/read-models/content-tables';
import { type ContentTableDocument, contentTableId } from '../../projections/content-tables/schema';
import { VERSION_ROWS, versionRowsProjector } from '../../projections/read-models/published-versions';
import { publishedVersionsProjector } from '../../projections/read-models/published-versions-projector';
import { contentTypeDefinition } from '../../src/domain/content-type/definition';

const workspaceId = 'ws';
const itemId = 'item-1';
const table = 'ct_table';
const draftId = contentItemId(workspaceId, itemId, 'draft');
const publishedId = contentItemId(workspaceId, itemId, 'published');

/** The documents content_items holds after the event, and the registry naming the type's serving table. */
function viewOf(documents: Record<string, Document>): ReadView {
  const registry = { id: contentTableId(workspaceId, 'Product'), workspaceId, contentType: 'Product', wanted: null, serving: { collection: table, fields: [] } };
  return {
    get: async <T extends Document>(collection: string, id: string) => ((collection === CONTENT_TABLES ? registry : documents[id]) ?? null) as T | null,
  };
}

const event = (type: string): RecordedEvent => ({
  id: 'e1',
  stream: `content-${workspaceId}-${itemId}`,
  revision: 3,
  position: { commit: 1n, prepare: 1n },
  type,
  data: { workspaceId, itemId, contentType: 'Product' },
  metadata: { workspaceId, actor: 'test', correlationId: 'c', timestamp: new Date(0).toISOString() },
});

describe('content tables projector', () => {
  const draft = { id: draftId, stage: 'draft' };
  const published = { id: publishedId, stage: 'published' };

  it.each(['ContentDraftSaved', 'ContentRestored'])('mirrors only the draft row on %s: the published row stays as it is', async (type) => {
    expect(await contentTablesProjector.project(event(type), viewOf({ [draftId]: draft, [publishedId]: published }))).toEqual([
      { kind: 'upsert', collection: table, document: draft },
    ]);
  });

  it('deletes only the draft row on ContentDraftDeleted', async () => {
    expect(await contentTablesProjector.project(event('ContentDraftDeleted'), viewOf({ [publishedId]: published }))).toEqual([{ kind: 'delete', collection: table, id: draftId }]);
  });

  it.each(['ContentPublished', 'ContentUnpublished', 'ContentDeleted'])('mirrors both rows on %s', async (type) => {
    expect(await contentTablesProjector.project(event(type), viewOf({ [draftId]: draft }))).toEqual([
      { kind: 'upsert', collection: table, document: draft },
      { kind: 'delete', collection: table, id: publishedId },
    ]);
  });
});

describe('content tables registry', () => {
  const id = contentTableId(workspaceId, 'Product');
  const definition = contentTypeDefinition.parse({ name: 'Product', key: 'Product', fields: [{ key: 'title', type: 'Text' }] });
  const indexes = [{ fields: [{ key: 'title', direction: 'desc' }] }];
  const typeEvent = (type: string, data: Record<string, unknown>): RecordedEvent => ({ ...event(type), stream: `contenttype-${workspaceId}-Product`, data: { workspaceId, contentTypeId: 't-1', ...data } });
  const saved = (created: boolean) => typeEvent('ContentTypeSaved', { created, definition, sealedActionHeaders: {} });

  /** Projects the events in order, each seeing the registry entry the one before made. */
  async function registryAfter(...events: RecordedEvent[]): Promise<ContentTableDocument | null> {
    let entry: ContentTableDocument | null = null;
    for (const recorded of events) {
      const view: ReadView = { get: async <T extends Document>(collection: string, docId: string) => (collection === CONTENT_TABLES && docId === id ? entry : null) as T | null };
      const [change] = await contentTablesProjector.project(recorded, view);
      if (change?.kind === 'upsert') entry = change.document as ContentTableDocument;
    }
    return entry;
  }

  it('carries the declared query indexes, keeps them when the type is saved again and forgets them with the type', async () => {
    const declared = typeEvent('ContentTypeQueryIndexesDeclared', { key: 'Product', indexes });
    expect((await registryAfter(saved(true), declared))?.queryIndexes).toEqual(indexes);
    expect((await registryAfter(saved(true), declared, saved(false)))?.queryIndexes).toEqual(indexes);
    const deleted = typeEvent('ContentTypeDeleted', { key: 'Product' });
    expect(await registryAfter(saved(true), declared, deleted, saved(true))).toMatchObject({ queryIndexes: [], wanted: expect.objectContaining({ fields: [{ key: 'title', type: 'Text' }] }) });
  });
});

describe('content tables projector: versions table', () => {
  const versions = 'pv_table';
  const registry = { id: contentTableId(workspaceId, 'Product'), workspaceId, contentType: 'Product', wanted: null, serving: { collection: table, versions, fields: [] } };
  const content = { fields: { title: 'two' }, translations: {} };
  const recorded = (type: string, revision: number, data: Record<string, unknown> = {}): RecordedEvent => ({
    ...event(type),
    revision,
    position: { commit: BigInt(revision), prepare: BigInt(revision) },
    data: { workspaceId, itemId, contentType: 'Product', ...data },
    metadata: { workspaceId, actor: 'test', correlationId: 'c', timestamp: new Date(revision * 1000).toISOString() },
  });

  /** The versions table kept live from published_versions' item state, and the rows a replay makes, both in memory after the events. */
  async function mirror(events: readonly RecordedEvent[]) {
    const store = new Map<string, Document>();
    const view: ReadView = {
      get: async <T extends Document>(collection: string, id: string) => ((collection === CONTENT_TABLES ? registry : store.get(`${collection}/${id}`)) ?? null) as T | null,
    };
    const apply = (changes: readonly Change[]) => {
      for (const change of changes) {
        const key = `${change.collection}/${change.kind === 'upsert' ? change.document.id : change.id}`;
        if (change.kind === 'upsert') store.set(key, change.document);
        else store.delete(key);
      }
    };
    const rowsOf = (collection: string) => [...store].filter(([key]) => key.startsWith(`${collection}/`)).map(([, document]) => document);
    for (const next of events) {
      // The rows a replay of the type writes (versionRowsProjector, into VERSION_ROWS here), from the same state before the event.
      const replayed = (await versionRowsProjector.project(next, view)).filter((change) => change.collection === VERSION_ROWS);
      // In the batch's order: this projector first, then published_versions (the item state).
      apply((await contentTablesProjector.project(next, view)).filter((change) => change.collection === versions));
      apply(replayed);
      apply(await publishedVersionsProjector.project(next, view));
      expect(rowsOf(versions)).toEqual(rowsOf(VERSION_ROWS));
    }
    return rowsOf(versions);
  }

  it('writes the rows a replay of the type writes, event by event: publishes, closes, unpublishes', async () => {
    const rows = await mirror([
      recorded('ContentDraftSaved', 0, { created: true, ...content }),
      recorded('ContentPublished', 1, { firstPublish: true, ...content }),
      recorded('ContentPublished', 2, { firstPublish: false, ...content }),
      recorded('ContentUnpublished', 3),
    ]);
    expect(rows.map((row) => [row.id, row.validFromMs, row.validUntilMs])).toEqual([
      [`${workspaceId}:${itemId}:2`, 1000, 2000],
      [`${workspaceId}:${itemId}:3`, 2000, 3000],
    ]);
  });

  it.each(['ContentDeleted', 'ContentErased'])('removes every row of the item on %s, which only the state before the event names', async (type) => {
    const rows = await mirror([
      recorded('ContentDraftSaved', 0, { created: true, ...content }),
      recorded('ContentPublished', 1, { firstPublish: true, ...content }),
      recorded('ContentPublished', 2, { firstPublish: false, ...content }),
      recorded(type, 3, { reason: 'request' }),
    ]);
    expect(rows).toEqual([]);
  });
});
