import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../../projections/projector';
import { CONTENT_ITEM_STATES } from '../../projections/read-models/content-item-states';
import { CONTENT_ITEMS, type ContentItemDocument, contentItemsProjector } from '../../projections/read-models/content-items';
import { ITEM_COUNTS, type ItemCountDocument, type ItemCountHead, itemCountHeadId, itemCountsProjector } from '../../projections/read-models/item-counts';
import { publishedVersionsProjector } from '../../projections/read-models/published-versions-projector';
import { seededRandom } from '../support/seeded-random';

const WS = 'ws1';
const EVENT_TYPES = ['ContentDraftSaved', 'ContentRestored', 'ContentPublished', 'ContentUnpublished', 'ContentDraftDeleted', 'ContentDeleted', 'ContentErased'];
let position = 100n;

function recorded(itemId: string, type: string, time: string, contentType = 'Article'): RecordedEvent {
  position += 1n;
  return {
    id: `event-${position}`,
    stream: `content-${WS}-${itemId}`,
    revision: Number(position),
    position: { commit: position, prepare: position },
    type,
    data: { workspaceId: WS, itemId, contentType, fields: { title: 'x' }, translations: {}, firstPublish: false, created: false, reason: 'test', fromVersion: 1, stage: 'draft' },
    metadata: { workspaceId: WS, actor: 'key:1', correlationId: 'c', timestamp: time },
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

/** item_counts reads the item state published_versions keeps, as it stood before the event: it runs first. */
const counting = [itemCountsProjector, publishedVersionsProjector];

const projectAll = async (store: Map<string, Document>, events: readonly [itemId: string, type: string, time: string][]) => {
  for (const [itemId, type, time] of events) await project(store, counting, recorded(itemId, type, time));
};

const days = (store: Map<string, Document>) => [...store].filter(([key]) => key.startsWith(`${ITEM_COUNTS}/`)).map(([, document]) => document as ItemCountDocument);

/** The served count's changes as `day → change`, zeros left out. */
function changes(store: Map<string, Document>) {
  const found: Record<string, number> = {};
  for (const day of days(store)) if (day.served !== 0) found[new Date(day.dayMs).toISOString().slice(0, 10)] = day.served;
  return found;
}

/** Per type and stage: the sum of the type's days (served only: drafts are counted now only), its head's count now, and how many documents content_items holds. */
function tallies(store: Map<string, Document>) {
  const counted: Record<string, number> = {};
  const now: Record<string, number> = {};
  const held: Record<string, number> = {};
  for (const day of days(store)) {
    const contentType = day.scope.slice(day.scope.indexOf(':') + 1);
    counted[`${contentType}/published`] = (counted[`${contentType}/published`] ?? 0) + day.served;
    if (day.id !== itemCountHeadId(day.scope)) continue;
    const head = day as ItemCountHead;
    for (const [stage, total] of [['draft', head.draftsNow], ['published', head.servedNow]] as const) if (total !== 0) now[`${contentType}/${stage}`] = total;
  }
  for (const [key, document] of store) {
    if (!key.startsWith(`${CONTENT_ITEMS}/`)) continue;
    const item = document as ContentItemDocument;
    held[`${item.contentType}/${item.stage}`] = (held[`${item.contentType}/${item.stage}`] ?? 0) + 1;
  }
  const published = Object.fromEntries(Object.entries(held).filter(([name]) => name.endsWith('/published')));
  return { counted: Object.fromEntries(Object.entries(counted).filter(([, total]) => total !== 0)), now, held, published };
}

describe('item_counts: a type\'s counts a day, from the item states of published_versions', () => {
  it('sums, per type and stage, to exactly the documents content_items holds, through any sequence of item events at times running either way', async () => {
    const random = seededRandom(17);
    const store = new Map<string, Document>();
    const items = Array.from({ length: 12 }, (_, index) => ({ itemId: `item-${index}`, contentType: index % 3 === 0 ? 'Page' : 'Article' }));
    let time = Date.UTC(2026, 0, 1);
    for (let step = 0; step < 600; step++) {
      const { itemId, contentType } = random.pick(items);
      time += (random.int(48) - 8) * 3_600_000;
      await project(store, [contentItemsProjector, itemCountsProjector, publishedVersionsProjector], recorded(itemId, random.pick(EVENT_TYPES), new Date(time).toISOString(), contentType));
      const { counted, now, held, published } = tallies(store);
      expect({ step, counted, now }).toEqual({ step, counted: published, now: held });
    }
    expect(new Set(days(store).map((day) => day.dayMs)).size).toBeGreaterThan(50);
  });

  it('writes one row of counts for a create (a draft saved and published), both stages in it: the head, holding its day and the counts now', async () => {
    const store = new Map<string, Document>();
    const head = (dayMs: number, served: number, servedNow: number, draftsNow: number) => ({ id: itemCountHeadId(`${WS}:Article`), scope: `${WS}:Article`, dayMs, served, servedNow, draftsNow });
    const create = (itemId: string, time: string): [string, string, string][] => [
      [itemId, 'ContentDraftSaved', time],
      [itemId, 'ContentPublished', time],
    ];
    await projectAll(store, create('b', '2026-01-05T10:15:00.000Z'));
    expect(days(store)).toEqual([head(Date.UTC(2026, 0, 5), 1, 1, 1)]);
    const changed = await itemCountsProjector.project(recorded('c', 'ContentDraftSaved', '2026-01-05T11:00:00.000Z'), { get: (collection, id) => Promise.resolve((store.get(`${collection}/${id}`) ?? null) as never) });
    expect(changed.filter((change) => change.collection === ITEM_COUNTS)).toHaveLength(1);

    // A later day moves the head there and leaves the day before as a row; an earlier one changes that day's row and the counts now.
    await projectAll(store, create('c', '2026-01-07T08:00:00.000Z'));
    await projectAll(store, create('d', '2026-01-03T08:00:00.000Z'));
    expect(days(store)).toEqual(
      expect.arrayContaining([
        { id: `${WS}:Article:${Date.UTC(2026, 0, 5)}`, scope: `${WS}:Article`, dayMs: Date.UTC(2026, 0, 5), served: 1 },
        { id: `${WS}:Article:${Date.UTC(2026, 0, 3)}`, scope: `${WS}:Article`, dayMs: Date.UTC(2026, 0, 3), served: 1 },
        head(Date.UTC(2026, 0, 7), 1, 3, 3),
      ]),
    );
    expect(days(store)).toHaveLength(3);
  });

  it('adds +1 at a version start and -1 at its end to the days holding them; a republish changes nothing', async () => {
    const store = new Map<string, Document>();
    await projectAll(store, [
      ['a', 'ContentDraftSaved', '2026-01-05T10:15:00.000Z'],
      ['a', 'ContentPublished', '2026-01-05T10:15:00.000Z'],
      ['a', 'ContentPublished', '2026-01-06T11:00:00.000Z'],
      ['a', 'ContentUnpublished', '2026-02-01T00:30:00.000Z'],
    ]);
    expect(changes(store)).toEqual({ '2026-01-05': 1, '2026-02-01': -1 });
    expect(days(store).find((day) => day.id === itemCountHeadId(day.scope))).toMatchObject({ servedNow: 0, draftsNow: 1 });
  });

  it('takes back a deleted item, and a version whose end came before its start, leaving no item document', async () => {
    const store = new Map<string, Document>();
    await projectAll(store, [
      ['a', 'ContentDraftSaved', '2026-01-05T10:15:00.000Z'],
      ['a', 'ContentPublished', '2026-01-05T10:15:00.000Z'],
      ['b', 'ContentPublished', '2026-03-01T00:00:00.000Z'],
      // Times backwards: b's first version ends before it starts, so it was never served.
      ['b', 'ContentPublished', '2026-02-01T00:00:00.000Z'],
      ['a', 'ContentUnpublished', '2026-01-07T00:00:00.000Z'],
      ['a', 'ContentDeleted', '2026-01-08T00:00:00.000Z'],
    ]);
    expect(changes(store)).toEqual({ '2026-02-01': 1 });
    // a's draft went with it; b never had one.
    expect(days(store).find((day) => day.id === itemCountHeadId(day.scope))).toMatchObject({ servedNow: 1, draftsNow: 0 });
    expect([...store.keys()].filter((key) => key.startsWith(`${CONTENT_ITEM_STATES}/`))).toEqual([`${CONTENT_ITEM_STATES}/${WS}:b`]);
  });

  it('changes no count when it sees an event again', async () => {
    const once = new Map<string, Document>();
    const twice = new Map<string, Document>();
    const events: RecordedEvent[] = [
      recorded('a', 'ContentDraftSaved', '2026-01-05T09:00:00.000Z'),
      recorded('a', 'ContentPublished', '2026-01-05T10:15:00.000Z'),
      recorded('a', 'ContentUnpublished', '2026-01-06T00:00:00.000Z'),
      recorded('b', 'ContentPublished', '2026-01-06T00:00:00.000Z'),
    ];
    for (const event of events) await project(once, counting, event);
    for (const event of events) {
      await project(twice, counting, event);
      await project(twice, counting, event);
    }
    expect(days(twice)).toEqual(days(once));
    expect(changes(once)).toEqual({ '2026-01-05': 1 });
    expect(days(once).find((day) => day.id === itemCountHeadId(day.scope))).toMatchObject({ servedNow: 1, draftsNow: 1 });
  });
});
