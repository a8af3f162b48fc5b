import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Change, ColumnDefinition, Document, IndexDefinition } from '../../infra/readstore/port';
import { sortablePosition } from '../../src/domain/audit/log-position';
import { contentEvent } from '../../src/domain/content/events';
import type { Projector } from '../projector';
import type { ContentItemDocument } from './content-items';

export const PUBLISHED_VERSIONS = 'published_versions';
export const PUBLISHED_VERSION_ITEMS = 'published_version_items';

/** The end of a version still published: later than any time a request may name, so "served at T" is one range test. */
export const OPEN_END = '9999-12-31T23:59:59.999Z';
const OPEN_END_MS = Date.parse(OPEN_END);

/**
 * One published version of an item, as content_items held its published document while the
 * version was public, with its validity: from the event that published it (time and log
 * position) until the event that replaced or unpublished it (OPEN_END while it is current).
 * Id `${workspaceId}:${itemId}:${version}`.
 */
export interface PublishedVersionDocument extends ContentItemDocument {
  readonly stage: 'published';
  /** `${workspaceId}:${contentType}`: every list names both, and one key is one comparison per index entry, not two. */
  readonly scope: string;
  readonly validFrom: string;
  readonly validFromPosition: string;
  readonly validUntil: string;
  readonly validUntilPosition: string | null;
  /** validFrom and validUntil in milliseconds: what queries compare (a number compares faster than text in every index entry a total counts). */
  readonly validFromMs: number;
  readonly validUntilMs: number;
}

/**
 * What the projector remembers of a living item, id `${workspaceId}:${itemId}`: when it was
 * created, its open version (the whole row, so closing it needs no second read) and the ids of
 * all its rows (an item deleted or erased takes every one of them along).
 */
interface PublishedVersionItemDocument extends Document {
  readonly workspaceId: string;
  readonly itemId: string;
  readonly createdAt: string;
  readonly open: PublishedVersionDocument | null;
  readonly rows: readonly string[];
}

export const publishedVersionId = (workspaceId: string, itemId: string, version: number) => `${workspaceId}:${itemId}:${version}`;
export const publishedVersionScope = (workspaceId: string, contentType: string) => `${workspaceId}:${contentType}`;
const itemKey = (workspaceId: string, itemId: string) => `${workspaceId}:${itemId}`;

/** Every query names the scope (workspace and type) and a time; typed columns so that the filter compiler reads columns and b-trees. */
export const PUBLISHED_VERSION_COLUMNS: readonly ColumnDefinition[] = [
  { path: 'scope', type: 'text' },
  { path: 'workspaceId', type: 'text' },
  { path: 'itemId', type: 'text' },
  { path: 'validFromMs', type: 'number' },
  { path: 'validUntilMs', type: 'number' },
  { path: 'createdAt', type: 'datetime' },
  { path: 'updatedAt', type: 'datetime' },
  { path: 'publishedAt', type: 'datetime' },
];

/** The columns of a version's validity, in the order every index that tests it ends with. */
export const VALIDITY = ['validFromMs', 'validUntilMs'];
/**
 * Totals and aggregates are an index-only range over the versions published up to T (testing
 * validUntil in the same entries), or over those not ended by T, whichever the planner finds
 * smaller (early times: the first; late ones: the second). Pages in the list's default order (id)
 * and by id or a system date walk their index in order and test validity there too, fetching
 * only the rows they answer; relation targets are found by item id.
 */
const PUBLISHED_VERSION_INDEXES: readonly IndexDefinition[] = [
  { fields: ['scope', ...VALIDITY] },
  { fields: ['scope', 'validUntilMs', 'validFromMs'] },
  { fields: ['scope', 'id', ...VALIDITY] },
  ...['itemId', 'createdAt', 'publishedAt'].map((path) => ({ fields: ['scope', path, 'id', ...VALIDITY] })),
  { fields: ['workspaceId', 'itemId', ...VALIDITY] },
];

/**
 * The read model behind as-of list, ids and aggregate queries (queries/content-as-of.ts):
 * every version an item had on the published paths, with the interval it was served in.
 * Deleting an item (or its draft when nothing is published, which ends the item) and erasing
 * it remove all its rows, as API keys may never read deleted or erased content again.
 */
export const publishedVersionsProjector: Projector = {
  name: 'published_versions',
  collections: [
    { name: PUBLISHED_VERSIONS, indexes: PUBLISHED_VERSION_INDEXES, columns: PUBLISHED_VERSION_COLUMNS },
    { name: PUBLISHED_VERSION_ITEMS, indexes: [] },
  ],
  eventTypes: new Set(['ContentDraftSaved', 'ContentRestored', 'ContentPublished', 'ContentUnpublished', 'ContentDraftDeleted', 'ContentDeleted', 'ContentErased']),

  prefetch(recorded) {
    const { workspaceId, itemId } = recorded.data as { workspaceId: string; itemId: string };
    return [{ collection: PUBLISHED_VERSION_ITEMS, id: itemKey(workspaceId, itemId) }];
  },

  async project(recorded, view) {
    const event = contentEvent.parse(recorded);
    const { workspaceId, itemId, contentType } = event.data;
    const key = itemKey(workspaceId, itemId);
    const item = await view.get<PublishedVersionItemDocument>(PUBLISHED_VERSION_ITEMS, key);
    const at = recorded.metadata.timestamp;

    switch (event.type) {
      case 'ContentDraftSaved':
      case 'ContentRestored':
        return item ? [] : [saveItem({ id: key, workspaceId, itemId, createdAt: at, open: null, rows: [] })];
      case 'ContentPublished': {
        const version = recorded.revision + 1;
        const row: PublishedVersionDocument = {
          id: publishedVersionId(workspaceId, itemId, version),
          scope: publishedVersionScope(workspaceId, contentType),
          workspaceId,
          contentType,
          itemId,
          stage: 'published',
          fields: event.data.fields,
          translations: event.data.translations as ContentItemDocument['translations'],
          createdAt: item?.createdAt ?? at,
          updatedAt: at,
          publishedAt: at,
          version,
          validFrom: at,
          validFromPosition: sortablePosition(recorded.position),
          validUntil: OPEN_END,
          validUntilPosition: null,
          validFromMs: Date.parse(at),
          validUntilMs: OPEN_END_MS,
        };
        const rows = [...(item?.rows ?? []).filter((id) => id !== row.id), row.id];
        return [...close(item, recorded), saveRow(row), saveItem({ id: key, workspaceId, itemId, createdAt: row.createdAt, open: row, rows })];
      }
      case 'ContentUnpublished':
        return item ? [...close(item, recorded), saveItem({ ...item, open: null })] : [];
      case 'ContentDraftDeleted':
        // Without a published version the item ends: it is deleted for every reader, its past included.
        return item && !item.open ? removeItem(item) : [];
      case 'ContentDeleted':
      case 'ContentErased':
        return item ? removeItem(item) : [];
    }
    return [];
  },
};

/** The open version, closed at this event. */
function close(item: PublishedVersionItemDocument | null, recorded: RecordedEvent): Change[] {
  if (!item?.open) return [];
  const at = recorded.metadata.timestamp;
  return [saveRow({ ...item.open, validUntil: at, validUntilPosition: sortablePosition(recorded.position), validUntilMs: Date.parse(at) })];
}

function removeItem(item: PublishedVersionItemDocument): Change[] {
  return [
    ...item.rows.map((id): Change => ({ kind: 'delete', collection: PUBLISHED_VERSIONS, id })),
    { kind: 'delete', collection: PUBLISHED_VERSION_ITEMS, id: item.id },
  ];
}

const saveRow = (document: PublishedVersionDocument): Change => ({ kind: 'upsert', collection: PUBLISHED_VERSIONS, document });
const saveItem = (document: PublishedVersionItemDocument): Change => ({ kind: 'upsert', collection: PUBLISHED_VERSION_ITEMS, document });
