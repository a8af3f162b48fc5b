import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Document } from '../../infra/readstore/port';
import { CONTENT_ITEM_STATES } from '../../projections/read-models/content-item-states';
import { PUBLISHED_COUNTS, type PublishedCountDocument } from '../../projections/read-models/published-counts';
import { publishedVersionsProjector } from '../../projections/read-models/published-versions-projector';

const WS = 'ws1';
const ref = (itemId: string) => ({ workspaceId: WS, itemId, contentType: 'Article', fields: {}, translations: {} });
let position = 100n;

/** The projector over events in memory; `times` are the events' recorded times. */
async function project(store: Map<string, Document>, events: readonly [itemId: string, type: string, time: string][], twice = false) {
  const view = { get: <T extends Document>(collection: string, id: string) => Promise.resolve((store.get(`${collection}/${id}`) as T | undefined) ?? null) };
  for (const [itemId, type, time] of events) {
    position += 1n;
    const recorded: RecordedEvent = {
      id: `event-${position}`,
      stream: `content-${WS}-${itemId}`,
      revision: 0,
      position: { commit: position, prepare: position },
      type,
      data: { ...ref(itemId), firstPublish: false },
      metadata: { workspaceId: WS, actor: 'key:1', correlationId: 'c', timestamp: time },
    };
    for (let seen = 0; seen < (twice ? 2 : 1); seen++) {
      for (const change of await publishedVersionsProjector.project(recorded, view)) {
        const key = `${change.collection}/${change.kind === 'upsert' ? change.document.id : change.id}`;
        if (change.kind === 'upsert') store.set(key, change.document);
        else store.delete(key);
      }
    }
  }
}

/** The period changes of one level as `startMs → change`, zeros left out. */
function periods(store: Map<string, Document>, level: PublishedCountDocument['level']) {
  const found: Record<string, number> = {};
  for (const [key, document] of store) {
    const period = document as PublishedCountDocument;
    if (key.startsWith(`${PUBLISHED_COUNTS}/`) && period.level === level && period.change !== 0) found[new Date(period.startMs).toISOString()] = period.change;
  }
  return found;
}

describe('published_counts projector', () => {
  it('adds +1 at a version start and -1 at its end to the periods holding them; a republish changes nothing', async () => {
    const store = new Map<string, Document>();
    await project(store, [
      ['a', 'ContentPublished', '2026-01-05T10:15:00.000Z'],
      ['a', 'ContentPublished', '2026-01-06T11:00:00.000Z'],
      ['a', 'ContentUnpublished', '2026-02-01T00:30:00.000Z'],
    ]);
    expect(periods(store, 'hour')).toEqual({ '2026-01-05T10:00:00.000Z': 1, '2026-02-01T00:00:00.000Z': -1 });
    expect(periods(store, 'month')).toEqual({ '2026-01-01T00:00:00.000Z': 1, '2026-02-01T00:00:00.000Z': -1 });
    // Two levels only: a first publish writes two period rows.
    expect([...store.values()].filter((document) => (document as PublishedCountDocument).level !== undefined).map((document) => (document as PublishedCountDocument).level).sort()).toEqual(['hour', 'hour', 'month', 'month']);
  });

  it('takes back a deleted item, and a version whose end came before its start, leaving no item document', async () => {
    const store = new Map<string, Document>();
    await project(store, [
      ['a', 'ContentPublished', '2026-01-05T10:15:00.000Z'],
      ['b', 'ContentPublished', '2026-03-01T00:00:00.000Z'],
      // Times backwards: b's first version ends before it starts, so it was never served.
      ['b', 'ContentPublished', '2026-02-01T00:00:00.000Z'],
      ['a', 'ContentUnpublished', '2026-01-07T00:00:00.000Z'],
      ['a', 'ContentDeleted', '2026-01-08T00:00:00.000Z'],
    ]);
    expect(periods(store, 'hour')).toEqual({ '2026-02-01T00:00:00.000Z': 1 });
    expect(periods(store, 'month')).toEqual({ '2026-02-01T00:00:00.000Z': 1 });
    expect([...store.keys()].filter((key) => key.startsWith(`${CONTENT_ITEM_STATES}/`))).toEqual([`${CONTENT_ITEM_STATES}/${WS}:b`]);
  });

  it('counts an event seen twice once', async () => {
    const once = new Map<string, Document>();
    const twice = new Map<string, Document>();
    const events: [string, string, string][] = [
      ['a', 'ContentPublished', '2026-01-05T10:15:00.000Z'],
      ['a', 'ContentUnpublished', '2026-01-06T00:00:00.000Z'],
      ['b', 'ContentPublished', '2026-01-06T00:00:00.000Z'],
    ];
    await project(once, events);
    await project(twice, events, true);
    expect(periods(twice, 'hour')).toEqual(periods(once, 'hour'));
    expect(periods(once, 'hour')).toEqual({ '2026-01-05T10:00:00.000Z': 1 });
  });
});
