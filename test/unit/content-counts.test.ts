import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../../projections/projector';
import { CONTENT_COUNTS, type ContentCountDocument } from '../../projections/read-models/content-counts';
import { publishedVersionsProjector } from '../../projections/read-models/published-versions-projector';
import { CONTENT_ITEMS, type ContentItemDocument, contentItemsProjector } from '../../projections/read-models/content-items';
import { seededRandom } from '../support/seeded-random';

const WS = 'ws1';
const EVENT_TYPES = ['ContentDraftSaved', 'ContentRestored', 'ContentPublished', 'ContentUnpublished', 'ContentDraftDeleted', 'ContentDeleted', 'ContentErased'];
let position = 100n;

function recorded(itemId: string, contentType: string, type: string): RecordedEvent {
  position += 1n;
  return {
    id: `event-${position}`,
    stream: `content-${WS}-${itemId}`,
    revision: Number(position),
    position: { commit: position, prepare: position },
    type,
    data: { workspaceId: WS, itemId, contentType, fields: { title: 'x' }, translations: {}, firstPublish: false, created: false, reason: 'test', fromVersion: 1, stage: 'draft' },
    metadata: { workspaceId: WS, actor: 'key:1', correlationId: 'c', timestamp: new Date(Number(position)).toISOString() },
  };
}

/** Projects `event` with each projector into the in-memory store, each seeing the store as the others left it. */
async function project(store: Map<string, Document>, projectors: readonly Projector[], event: RecordedEvent): Promise<void> {
  const view = { get: <T extends Document>(collection: string, id: string) => Promise.resolve((store.get(`${collection}/${id}`) as T | undefined) ?? null) };
  for (const projector of projectors) {
    for (const change of await projector.project(event, view)) {
      const key = `${change.collection}/${change.kind === 'upsert' ? change.document.id : change.id}`;
      if (change.kind === 'upsert') store.set(key, change.document);
      else store.delete(key);
    }
  }
}

/** Per type and stage: what content_counts says, and how many documents content_items holds. */
function tallies(store: Map<string, Document>) {
  const counted: Record<string, number> = {};
  const held: Record<string, number> = {};
  for (const [key, document] of store) {
    if (key.startsWith(`${CONTENT_COUNTS}/`)) {
      const count = document as ContentCountDocument;
      for (const stage of ['draft', 'published'] as const) if (count[stage] !== 0) counted[`${count.contentType}/${stage}`] = count[stage];
    }
    if (key.startsWith(`${CONTENT_ITEMS}/`)) {
      const item = document as ContentItemDocument;
      const name = `${item.contentType}/${item.stage}`;
      held[name] = (held[name] ?? 0) + 1;
    }
  }
  return { counted, held };
}

describe('content_counts projector', () => {
  it('counts, per type and stage, exactly the documents content_items holds, through any sequence of item events', async () => {
    const random = seededRandom(17);
    const store = new Map<string, Document>();
    const items = Array.from({ length: 12 }, (_, index) => ({ itemId: `item-${index}`, contentType: index % 3 === 0 ? 'Page' : 'Article' }));
    for (let step = 0; step < 600; step++) {
      const { itemId, contentType } = random.pick(items);
      await project(store, [contentItemsProjector, publishedVersionsProjector], recorded(itemId, contentType, random.pick(EVENT_TYPES)));
      const { counted, held } = tallies(store);
      expect({ step, counted }).toEqual({ step, counted: held });
    }
  });

  it('moves both stages of a type in one row: a saved and published item writes one count', async () => {
    const store = new Map<string, Document>();
    await project(store, [publishedVersionsProjector], recorded('a', 'Article', 'ContentDraftSaved'));
    const changes = await publishedVersionsProjector.project(recorded('b', 'Article', 'ContentPublished'), { get: () => Promise.resolve(null) });
    expect(changes.filter((change) => change.collection === CONTENT_COUNTS)).toHaveLength(1);
    await project(store, [publishedVersionsProjector], recorded('a', 'Article', 'ContentPublished'));
    expect([...store.keys()].filter((key) => key.startsWith(`${CONTENT_COUNTS}/`))).toEqual([`${CONTENT_COUNTS}/${WS}:Article`]);
    expect(tallies(store).counted).toEqual({ 'Article/draft': 1, 'Article/published': 1 });
  });

  it('changes no count when it sees an event again', async () => {
    const store = new Map<string, Document>();
    const published = recorded('a', 'Article', 'ContentPublished');
    await project(store, [publishedVersionsProjector], recorded('a', 'Article', 'ContentDraftSaved'));
    await project(store, [publishedVersionsProjector], published);
    const unpublished = recorded('a', 'Article', 'ContentUnpublished');
    await project(store, [publishedVersionsProjector], unpublished);
    await project(store, [publishedVersionsProjector], published);
    await project(store, [publishedVersionsProjector], unpublished);
    expect(tallies(store).counted).toEqual({ 'Article/draft': 1 });
  });
});
