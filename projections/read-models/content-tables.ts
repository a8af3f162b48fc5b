import { contentTypeEvent } from '../../src/domain/content-type/events';
import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Change } from '../../infra/readstore/port';
import type { Projector, ReadView } from '../projector';
import { CONTENT_ITEMS, contentItemId, type ContentItemDocument, ITEM_DOCUMENT_EVENTS, type Stage } from './content-items';
import { type ContentTableDocument, contentTableId, tableGeneration, typedFields } from '../content-tables/schema';
import { itemStep, itemTransition, openRowKeys, versionRowChanges } from './published-versions';

export const CONTENT_TABLES = 'content_tables';

const BOTH_STAGES: readonly Stage[] = ['draft', 'published'];
/** Item events that change one stage's document only (content_items): the other stage's row is left as it is, sparing its indexes a rewrite. */
const STAGES_CHANGED: Readonly<Record<string, readonly Stage[]>> = {
  ContentDraftSaved: ['draft'],
  ContentRestored: ['draft'],
  ContentDraftDeleted: ['draft'],
};

/**
 * The typed read model of content: per content type a table of the same documents as
 * content_items with a typed column per scalar field (projections/content-tables/schema.ts)
 * and a table of the type's published versions typed alike (versions-schema.ts), and
 * the registry of which tables serve each type.
 *
 * This projector keeps the registry's wanted field set up to date from ContentTypeSaved and
 * ContentTypeDeleted, and its query indexes (declared, pinned, advised) and the forbidden ones from
 * ContentTypeQueryIndexesDeclared (built on the content table by the builder's pass), and mirrors each content event into the type's serving tables. It runs
 * after content_items in the same batch, so it copies the documents content_items has just
 * made, and before published_versions, from whose item state as it stands before the event it
 * computes the type's version rows (a delete's rows are known only from that state).
 * Tables are built (and rebuilt when the fields change) by replaying the type's events:
 * ContentTableBuilder.
 */
export const contentTablesProjector: Projector = {
  name: 'content_tables',
  collections: [{ name: CONTENT_TABLES, indexes: [] }],
  // Mirrored from their state in the same batch: a copy of a read model that is not live (awaiting its backfill) would go wrong.
  reads: ['content_items', 'published_versions'],
  eventTypes: new Set(['ContentTypeSaved', 'ContentTypeDeleted', 'ContentTypeQueryIndexesDeclared', ...ITEM_DOCUMENT_EVENTS]),

  prefetch(recorded) {
    if (recorded.type === 'ContentTypeSaved') {
      const { workspaceId, definition } = recorded.data as { workspaceId: string; definition: { key: string } };
      return [{ collection: CONTENT_TABLES, id: contentTableId(workspaceId, definition.key) }];
    }
    const { workspaceId, contentType, key } = recorded.data as { workspaceId: string; contentType?: string; key?: string };
    // The documents of content_items and the item state of published_versions it reads are prefetched by those projectors in the same batch.
    return [{ collection: CONTENT_TABLES, id: contentTableId(workspaceId, contentType ?? key ?? '') }];
  },

  // The open version a publish closes in the type's versions table, named by the item state published_versions prefetches.
  prefetchFollowing(recorded, prefetched) {
    if (!ITEM_DOCUMENT_EVENTS.includes(recorded.type)) return [];
    const { workspaceId, contentType } = recorded.data as { workspaceId: string; contentType: string };
    const versions = (prefetched(CONTENT_TABLES, contentTableId(workspaceId, contentType)) as ContentTableDocument | null | undefined)?.serving?.versions;
    return versions ? openRowKeys(recorded, prefetched, versions) : [];
  },

  async project(recorded, view) {
    if (recorded.type === 'ContentTypeSaved' || recorded.type === 'ContentTypeDeleted' || recorded.type === 'ContentTypeQueryIndexesDeclared') {
      const event = contentTypeEvent.parse(recorded);
      const { workspaceId } = event.data;
      const contentType = event.type === 'ContentTypeSaved' ? event.data.definition.key : event.data.key;
      const id = contentTableId(workspaceId, contentType);
      const current = await view.get<ContentTableDocument>(CONTENT_TABLES, id);
      if (event.type === 'ContentTypeQueryIndexesDeclared') {
        return current ? [{ kind: 'upsert', collection: CONTENT_TABLES, document: { ...current, queryIndexes: event.data.indexes, forbiddenIndexes: event.data.forbidden } }] : [];
      }
      const wanted = event.type === 'ContentTypeSaved' ? tableGeneration(workspaceId, contentType, typedFields(event.data.definition.fields)) : null;
      // A save keeps the query indexes and the forbidden ones; a deleted type's go with it (created again, it starts with none).
      const queryIndexes = event.type === 'ContentTypeSaved' ? (current?.queryIndexes ?? []) : [];
      const forbiddenIndexes = event.type === 'ContentTypeSaved' ? (current?.forbiddenIndexes ?? []) : [];
      const uniqueFields = event.type === 'ContentTypeSaved' ? event.data.definition.fields.filter((field) => field.unique).map((field) => field.key) : [];
      const document: ContentTableDocument = { id, workspaceId, contentType, wanted, serving: current?.serving ?? null, queryIndexes, forbiddenIndexes, ...(uniqueFields.length > 0 ? { uniqueFields } : {}) };
      return [{ kind: 'upsert', collection: CONTENT_TABLES, document }];
    }
    // The item events' own parse runs in content_items, whose documents are copied here.
    const { workspaceId, itemId, contentType } = recorded.data as { workspaceId: string; itemId: string; contentType: string };
    const registry = await view.get<ContentTableDocument>(CONTENT_TABLES, contentTableId(workspaceId, contentType));
    const serving = registry?.serving;
    if (!serving) return [];
    const changes: Change[] = [];
    const table = serving.collection;
    for (const stage of STAGES_CHANGED[recorded.type] ?? BOTH_STAGES) {
      const id = contentItemId(workspaceId, itemId, stage);
      const document = await view.get<ContentItemDocument>(CONTENT_ITEMS, id);
      changes.push(document ? { kind: 'upsert', collection: table, document } : { kind: 'delete', collection: table, id });
    }
    if (serving.versions) changes.push(...(await versionChanges(recorded, view, serving.versions)));
    return changes;
  },
};

/**
 * The version rows of the event, written to the type's versions table: from the item state as it
 * stands before the event (published_versions projects after this projector and moves it), the
 * open row read from the versions table itself.
 */
async function versionChanges(recorded: RecordedEvent, view: ReadView, table: string): Promise<Change[]> {
  const step = itemStep(recorded);
  const transition = await itemTransition(step, view);
  return transition ? versionRowChanges(step, transition, view, table) : [];
}
