import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Document } from '../../infra/readstore/port';
import { OPEN_END, type PublishedVersionDocument, VERSION_ROWS, versionRowsProjector } from '../../projections/read-models/published-versions';
import { CONTENT_ITEM_STATES, type ContentItemStateDocument, versionServedAt } from '../../projections/read-models/content-item-states';
import { publishedVersionsProjector } from '../../projections/read-models/published-versions-projector';

const WS = 'ws1';
const ITEM = 'item1';
const ref = { workspaceId: WS, itemId: ITEM, contentType: 'Article' };

/**
 * One item's events in memory as the live batch projects them: its version rows computed from the
 * item state before each event (as content_tables writes them to the type's versions table), then
 * the published_versions projector (item state and counts). The version rows after them.
 */
async function project(events: readonly [type: string, data?: Record<string, unknown>][], store = new Map<string, Document>()) {
  const view = { get: <T extends Document>(collection: string, id: string) => Promise.resolve((store.get(`${collection}/${id}`) as T | undefined) ?? null) };
  for (const [revision, [type, data]] of events.entries()) {
    const recorded: RecordedEvent = {
      id: `event-${revision}`,
      stream: `content-${WS}-${ITEM}`,
      revision,
      position: { commit: BigInt(100 + revision), prepare: BigInt(revision) },
      type,
      data: { ...ref, ...data },
      metadata: { workspaceId: WS, actor: 'key:1', correlationId: 'c', timestamp: `2026-01-0${revision + 1}T00:00:00.000Z` },
    };
    const rows = (await versionRowsProjector.project(recorded, view)).filter((change) => change.collection === VERSION_ROWS);
    const states = await publishedVersionsProjector.project(recorded, view);
    expect(states.filter((change) => change.collection === VERSION_ROWS)).toEqual([]);
    for (const change of [...rows, ...states]) {
      const key = `${change.collection}/${change.kind === 'upsert' ? change.document.id : change.id}`;
      if (change.kind === 'upsert') store.set(key, change.document);
      else store.delete(key);
    }
  }
  return [...store.entries()].filter(([key]) => key.startsWith(`${VERSION_ROWS}/`)).map(([, document]) => document as PublishedVersionDocument);
}

const content = (title: string) => ({ fields: { title }, translations: {} });
const saved = (title: string): [string, Record<string, unknown>] => ['ContentDraftSaved', { created: false, ...content(title) }];
const published = (title: string): [string, Record<string, unknown>] => ['ContentPublished', { firstPublish: false, ...content(title) }];

describe('published versions: the rows of the typed versions tables and the published_versions projector', () => {
  it('keeps only the item states since version 5: it continues version 4, retiring the published_versions table (version 4) and the counts (version 5, now item_counts)', () => {
    expect(publishedVersionsProjector.collections.map((collection) => collection.name)).toEqual([CONTENT_ITEM_STATES]);
    expect(publishedVersionsProjector).toMatchObject({ version: 5, continues: 4 });
    expect(publishedVersionsProjector.retiredCollections).toEqual(expect.arrayContaining(['published_versions', 'content_counts', 'published_counts']));
  });

  it('keeps each published version with the interval it was served in, closed by the next publish and by an unpublish', async () => {
    const rows = await project([saved('one'), published('one'), saved('two'), published('two'), ['ContentUnpublished']]);
    expect(rows.map(({ id, fields, createdAt, version, validFrom, validUntil, validFromPosition, validUntilPosition }) => ({ id, fields, createdAt, version, validFrom, validUntil, validFromPosition, validUntilPosition }))).toEqual([
      {
        id: `${WS}:${ITEM}:2`,
        fields: { title: 'one' },
        createdAt: '2026-01-01T00:00:00.000Z',
        version: 2,
        validFrom: '2026-01-02T00:00:00.000Z',
        validUntil: '2026-01-04T00:00:00.000Z',
        validFromPosition: `${'101'.padStart(20, '0')}${'1'.padStart(20, '0')}`,
        validUntilPosition: `${'103'.padStart(20, '0')}${'3'.padStart(20, '0')}`,
      },
      {
        id: `${WS}:${ITEM}:4`,
        fields: { title: 'two' },
        createdAt: '2026-01-01T00:00:00.000Z',
        version: 4,
        validFrom: '2026-01-04T00:00:00.000Z',
        validUntil: '2026-01-05T00:00:00.000Z',
        validFromPosition: `${'103'.padStart(20, '0')}${'3'.padStart(20, '0')}`,
        validUntilPosition: `${'104'.padStart(20, '0')}${'4'.padStart(20, '0')}`,
      },
    ]);
  });

  it('leaves a current version open and ignores drafts and restores', async () => {
    const rows = await project([saved('one'), published('one'), saved('draft'), ['ContentRestored', { fromVersion: 1, stage: 'draft', reason: null, ...content('one') }]]);
    expect(rows).toEqual([expect.objectContaining({ fields: { title: 'one' }, validUntil: OPEN_END, validUntilPosition: null, stage: 'published' })]);
  });

  it('keeps the versions when the draft is deleted while a version is published', async () => {
    expect(await project([saved('one'), published('one'), ['ContentDraftDeleted'], ['ContentUnpublished']])).toHaveLength(1);
  });

  it('removes every version when the item ends: deleted, its draft deleted with nothing published, or erased', async () => {
    expect(await project([saved('one'), published('one'), published('two'), ['ContentDeleted']])).toEqual([]);
    expect(await project([saved('one'), published('one'), ['ContentUnpublished'], ['ContentDraftDeleted']])).toEqual([]);
    expect(await project([saved('one'), published('one'), published('two'), ['ContentErased', { reason: 'request' }]])).toEqual([]);
  });

  it('keeps one state row per item, numbers only: the open version is read from its row when it closes', async () => {
    const store = new Map<string, Document>();
    const rows = await project([saved('one'), published('secret one'), saved('two'), published('secret two'), ['ContentDraftDeleted']], store);
    expect(rows.map(({ version, validUntil }) => [version, validUntil])).toEqual([
      [2, '2026-01-04T00:00:00.000Z'],
      [4, OPEN_END],
    ]);
    const others = [...store].filter(([key]) => !key.startsWith(`${VERSION_ROWS}/`));
    expect(others.map(([key]) => key)).toEqual([`${CONTENT_ITEM_STATES}/${WS}:${ITEM}`]);
    expect(others[0]![1]).toMatchObject({ hasDraft: false, open: { version: 4 }, closed: [[2, Date.parse('2026-01-02T00:00:00.000Z'), Date.parse('2026-01-04T00:00:00.000Z')]] });
    expect(JSON.stringify(others[0]![1])).not.toContain('secret');
  });

  it('starts a new life after a delete: createdAt and versions afresh', async () => {
    const rows = await project([saved('one'), published('one'), ['ContentDeleted'], saved('again'), published('again')]);
    expect(rows).toEqual([expect.objectContaining({ fields: { title: 'again' }, createdAt: '2026-01-04T00:00:00.000Z', version: 5, validUntil: OPEN_END })]);
  });

  it('names in the item state the version served at any time, as the rows\' intervals do (relation targets at a time)', async () => {
    const store = new Map<string, Document>();
    const rows = await project([saved('one'), published('one'), saved('two'), published('two'), ['ContentUnpublished'], published('three')], store);
    const state = store.get(`${CONTENT_ITEM_STATES}/${WS}:${ITEM}`) as ContentItemStateDocument;
    const times = ['2026-01-01T12:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T12:00:00.000Z', '2026-01-04T00:00:00.000Z', '2026-01-05T12:00:00.000Z', '2026-01-06T00:00:00.000Z', '2027-01-01T00:00:00.000Z'];
    const fromRows = times.map((time) => rows.find((row) => row.validFromMs <= Date.parse(time) && Date.parse(time) < row.validUntilMs)?.version ?? null);
    expect(fromRows).toEqual([null, 2, 2, 4, null, 6, 6]);
    expect(times.map((time) => versionServedAt(state, Date.parse(time)))).toEqual(fromRows);
  });
});
