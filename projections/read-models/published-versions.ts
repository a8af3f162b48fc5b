import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Change, Document } from '../../infra/readstore/port';
import { sortablePosition } from '../../src/domain/audit/log-position';
import { contentEvent } from '../../src/domain/content/events';
import type { DocumentKey, Projector, ReadView } from '../projector';
import { type ContentItemDocument, ITEM_DOCUMENT_EVENTS } from './content-items';
import { CONTENT_ITEM_STATES, type ContentItemStateDocument, contentItemStateId, itemStateAfter, type ItemStateStep } from './content-item-states';

/**
 * The logical collection of version rows in `versionRowsProjector`: a content type's typed
 * versions table (projections/content-tables/versions-schema.ts), to which the table's build maps
 * it. Until version 4 of the published_versions projector every type's rows were kept a second
 * time in one table of that name; the typed tables are computed the same way, not copied from it.
 */
export const VERSION_ROWS = 'version_rows';

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
  /** `${workspaceId}:${contentType}`, as item_counts names it (the column queries of published_versions compared until version 4; a typed versions table holds one scope). */
  readonly scope: string;
  readonly validFrom: string;
  readonly validFromPosition: string;
  readonly validUntil: string;
  readonly validUntilPosition: string | null;
  /** validFrom and validUntil in milliseconds: what queries compare (a number compares faster than text in every index entry a total counts). */
  readonly validFromMs: number;
  readonly validUntilMs: number;
}

export const publishedVersionId = (workspaceId: string, itemId: string, version: number) => `${workspaceId}:${itemId}:${version}`;
export const publishedVersionScope = (workspaceId: string, contentType: string) => `${workspaceId}:${contentType}`;

/** An item event as the version rows and the counts read it. */
export function itemStep(recorded: RecordedEvent): ItemStateStep & { readonly body: { readonly fields: Record<string, unknown>; readonly translations: unknown } | null } {
  const event = contentEvent.parse(recorded);
  const at = recorded.metadata.timestamp;
  const body = event.type === 'ContentPublished' ? { fields: event.data.fields, translations: event.data.translations } : null;
  const { workspaceId, itemId, contentType } = event.data;
  return { type: event.type, workspaceId, itemId, contentType, at, atMs: Date.parse(at), version: recorded.revision + 1, position: sortablePosition(recorded.position), body };
}

/** The item's state before the event and after it; null when the event was seen already. */
export async function itemTransition(step: ItemStateStep, view: ReadView): Promise<{ before: ContentItemStateDocument | null; after: ContentItemStateDocument | null } | null> {
  const before = await view.get<ContentItemStateDocument>(CONTENT_ITEM_STATES, contentItemStateId(step.workspaceId, step.itemId));
  if (before && before.position >= step.position) return null;
  return { before, after: itemStateAfter(before, step) };
}

/**
 * The version rows an event writes into `collection` (a type's typed versions table): a publish closes the open version and opens its own, an
 * unpublish closes it, an item that ends takes every row along. The open row is read from
 * `collection` itself, so the item state holds no copy of it.
 */
export async function versionRowChanges(
  step: ReturnType<typeof itemStep>,
  { before, after }: { before: ContentItemStateDocument | null; after: ContentItemStateDocument | null },
  view: ReadView,
  collection: string,
): Promise<Change[]> {
  const { workspaceId, itemId } = step;
  if (!after) return before ? rowIds(before).map((id): Change => ({ kind: 'delete', collection, id })) : [];
  if (after === before) return [];
  const changes: Change[] = [];
  if (before?.open && (step.type === 'ContentPublished' || step.type === 'ContentUnpublished')) {
    const open = await view.get<PublishedVersionDocument>(collection, publishedVersionId(workspaceId, itemId, before.open.version));
    if (open) changes.push(saveRow(collection, { ...open, validUntil: step.at, validUntilPosition: step.position, validUntilMs: step.atMs }));
  }
  if (step.body) {
    changes.push(
      saveRow(collection, {
        id: publishedVersionId(workspaceId, itemId, step.version),
        scope: publishedVersionScope(workspaceId, step.contentType),
        workspaceId,
        contentType: step.contentType,
        itemId,
        stage: 'published',
        fields: step.body.fields,
        translations: step.body.translations as ContentItemDocument['translations'],
        createdAt: after.createdAt,
        updatedAt: step.at,
        publishedAt: step.at,
        version: step.version,
        validFrom: step.at,
        validFromPosition: step.position,
        validUntil: OPEN_END,
        validUntilPosition: null,
        validFromMs: step.atMs,
        validUntilMs: OPEN_END_MS,
      }),
    );
  }
  return changes;
}

/** The open row an event closes, in `collection`, named by the item state the batch prefetched: read with the batch, not one by one. */
export function openRowKeys(recorded: RecordedEvent, prefetched: (collection: string, id: string) => Document | null | undefined, collection: string): DocumentKey[] {
  if (recorded.type !== 'ContentPublished' && recorded.type !== 'ContentUnpublished') return [];
  const { workspaceId, itemId } = recorded.data as { workspaceId: string; itemId: string };
  const open = (prefetched(CONTENT_ITEM_STATES, contentItemStateId(workspaceId, itemId)) as ContentItemStateDocument | null | undefined)?.open;
  return open ? [{ collection, id: publishedVersionId(workspaceId, itemId, open.version) }] : [];
}

const rowIds = (state: ContentItemStateDocument) =>
  [...state.closed.map(([version]) => version), ...(state.open ? [state.open.version] : [])].map((version) => publishedVersionId(state.workspaceId, state.itemId, version));

const saveRow = (collection: string, document: PublishedVersionDocument): Change => ({ kind: 'upsert', collection, document });

export const stateChange = (before: ContentItemStateDocument | null, after: ContentItemStateDocument | null): Change[] => {
  if (after === before) return [];
  return after ? [{ kind: 'upsert', collection: CONTENT_ITEM_STATES, document: after }] : [{ kind: 'delete', collection: CONTENT_ITEM_STATES, id: before!.id }];
};

export const ITEM_EVENTS: ReadonlySet<string> = new Set(ITEM_DOCUMENT_EVENTS);

/** The version rows and the item states alone, without the counts: what a typed versions table's replay writes (content-tables/replay.ts), VERSION_ROWS mapped to the table. */
export const versionRowsProjector: Projector = {
  name: 'published_version_rows',
  collections: [
    { name: VERSION_ROWS, indexes: [] },
    { name: CONTENT_ITEM_STATES, indexes: [] },
  ],
  eventTypes: ITEM_EVENTS,
  prefetch(recorded) {
    const { workspaceId, itemId } = recorded.data as { workspaceId: string; itemId: string };
    return [{ collection: CONTENT_ITEM_STATES, id: contentItemStateId(workspaceId, itemId) }];
  },
  prefetchFollowing: (recorded, prefetched) => openRowKeys(recorded, prefetched, VERSION_ROWS),
  async project(recorded, view) {
    const step = itemStep(recorded);
    const transition = await itemTransition(step, view);
    if (!transition) return [];
    return [...(await versionRowChanges(step, transition, view, VERSION_ROWS)), ...stateChange(transition.before, transition.after)];
  },
};

