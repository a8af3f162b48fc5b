import { contentEvent } from '../../src/domain/content/events';
import type { Change, Document } from '../../infra/readstore/port';
import type { Projector, ReadView } from '../projector';

export const CONTENT_ITEMS = 'content_items';
export const CONTENT_SECRETS = 'content_secrets';

export type Stage = 'draft' | 'published';

/** One document per item and stage; id `${workspaceId}:${itemId}:${stage}`. */
export interface ContentItemDocument extends Document {
  readonly workspaceId: string;
  readonly contentType: string;
  readonly itemId: string;
  readonly stage: Stage;
  readonly fields: Record<string, unknown>;
  readonly translations: Record<string, Record<string, unknown>>;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly publishedAt: string | null;
  /** The item's stream version (1-based) this document reflects. */
  readonly version: number;
}

/** Ciphertexts of an item's encrypted fields, kept apart from what ordinary reads return. */
export interface ContentSecretsDocument extends Document {
  readonly workspaceId: string;
  readonly itemId: string;
  readonly ciphertexts: Record<string, string>;
}

export const contentItemId = (workspaceId: string, itemId: string, stage: Stage) => `${workspaceId}:${itemId}:${stage}`;
/** The item id inside a document id built by contentItemId. */
export const itemIdOf = (documentId: string) => documentId.slice(documentId.indexOf(':') + 1, documentId.lastIndexOf(':'));
export const contentSecretsId = (workspaceId: string, itemId: string) => `${workspaceId}:${itemId}`;

/** The events that change an item's draft or published document (the typed content tables mirror these). */
export const ITEM_DOCUMENT_EVENTS: readonly string[] = [
  'ContentDraftSaved',
  'ContentRestored',
  'ContentPublished',
  'ContentUnpublished',
  'ContentDraftDeleted',
  'ContentDeleted',
  'ContentErased',
];

/**
 * The fields content_items is looked up by, as typed columns: its indexes are on these, not on
 * the document, so an update that leaves them as they were (every save and publish) can be a HOT
 * update that adds no index entry. An index on an expression of `doc` makes every update of the
 * row write an entry into each index.
 */
const CONTENT_ITEM_COLUMNS = (['workspaceId', 'contentType', 'stage', 'itemId'] as const).map((path) => ({ path, type: 'text' as const }));

export const contentItemsProjector: Projector = {
  name: 'content_items',
  // 2: the looked-up fields became typed columns (version 1 indexed expressions of the document).
  version: 2,
  collections: [
    { name: CONTENT_ITEMS, indexes: [{ fields: ['workspaceId', 'contentType', 'stage'] }, { fields: ['workspaceId', 'itemId'] }], columns: CONTENT_ITEM_COLUMNS },
    { name: CONTENT_SECRETS, indexes: [] },
  ],
  eventTypes: new Set([...ITEM_DOCUMENT_EVENTS, 'ContentEncryptedFieldsSet']),

  prefetch(recorded) {
    const { workspaceId, itemId } = recorded.data as { workspaceId: string; itemId: string };
    if (recorded.type === 'ContentEncryptedFieldsSet') return [{ collection: CONTENT_SECRETS, id: contentSecretsId(workspaceId, itemId) }];
    return (['draft', 'published'] as const).map((stage) => ({ collection: CONTENT_ITEMS, id: contentItemId(workspaceId, itemId, stage) }));
  },

  async project(recorded, view) {
    const event = contentEvent.parse(recorded);
    const { workspaceId, itemId } = event.data;
    if (event.type === 'ContentEncryptedFieldsSet') {
      const id = contentSecretsId(workspaceId, itemId);
      const current = await view.get<ContentSecretsDocument>(CONTENT_SECRETS, id);
      const document: ContentSecretsDocument = { id, workspaceId, itemId, ciphertexts: { ...current?.ciphertexts, ...event.data.ciphertexts } };
      return [{ kind: 'upsert', collection: CONTENT_SECRETS, document }];
    }
    const draftId = contentItemId(workspaceId, itemId, 'draft');
    const publishedId = contentItemId(workspaceId, itemId, 'published');
    const [draft, published] = await Promise.all([get(view, draftId), get(view, publishedId)]);
    const body = 'fields' in event.data ? event.data : null;
    const next = nextStages({ draft, published }, { ...event.data, type: event.type, at: recorded.metadata.timestamp, version: recorded.revision + 1, body });
    // Without a published version a draft delete ends the item, and its encrypted values go with it; so do a delete and an erasure.
    const secretsGo = event.type === 'ContentDeleted' || event.type === 'ContentErased' || (event.type === 'ContentDraftDeleted' && !published);
    return [
      ...stageChange(draftId, draft, next.draft),
      ...stageChange(publishedId, published, next.published),
      ...(secretsGo ? [{ kind: 'delete', collection: CONTENT_SECRETS, id: contentSecretsId(workspaceId, itemId) } as const] : []),
    ];
  },
};

/** An item's two documents; null where the stage holds nothing. */
export interface ItemStages {
  readonly draft: ContentItemDocument | null;
  readonly published: ContentItemDocument | null;
}

/** One event of an item, as far as its documents care: the values only for events that carry them. */
export interface ItemStep {
  readonly type: string;
  readonly workspaceId: string;
  readonly itemId: string;
  readonly contentType: string;
  readonly at: string;
  /** 1-based stream revision. */
  readonly version: number;
  readonly body: { readonly fields: Record<string, unknown>; readonly translations: Record<string, unknown> } | null;
}

/**
 * What one event makes of an item's documents: the read model's rules, which the history's
 * replay of past versions follows too (queries/content-timeline.ts).
 */
export function nextStages({ draft, published }: ItemStages, step: ItemStep): ItemStages {
  const { type, workspaceId, itemId, contentType, at, version } = step;
  switch (type) {
    case 'ContentDraftSaved':
    case 'ContentRestored':
    case 'ContentPublished': {
      const content = {
        workspaceId,
        contentType,
        itemId,
        updatedAt: at,
        version,
        fields: step.body?.fields ?? {},
        translations: (step.body?.translations ?? {}) as ContentItemDocument['translations'],
        createdAt: draft?.createdAt ?? published?.createdAt ?? at,
      };
      // A restore makes an earlier state the draft: to the read model it is a draft save.
      if (type !== 'ContentPublished') {
        return { draft: { id: contentItemId(workspaceId, itemId, 'draft'), ...content, stage: 'draft', publishedAt: published?.publishedAt ?? null }, published };
      }
      return { draft: draft && { ...draft, publishedAt: at }, published: { id: contentItemId(workspaceId, itemId, 'published'), ...content, stage: 'published', publishedAt: at } };
    }
    case 'ContentUnpublished':
      return { draft: draft && { ...draft, publishedAt: null }, published: null };
    case 'ContentDraftDeleted':
      return { draft: null, published };
    // An erased item's rows go with everything they held; a rebuild projects its sealed events with empty values up to here.
    case 'ContentDeleted':
    case 'ContentErased':
      return { draft: null, published: null };
    default:
      return { draft, published };
  }
}

function stageChange(id: string, before: ContentItemDocument | null, after: ContentItemDocument | null): Change[] {
  if (after) return after === before ? [] : [upsert(after)];
  return before ? [{ kind: 'delete', collection: CONTENT_ITEMS, id }] : [];
}

const upsert = (document: ContentItemDocument): Change => ({ kind: 'upsert', collection: CONTENT_ITEMS, document });

function get(view: ReadView, id: string): Promise<ContentItemDocument | null> {
  return view.get<ContentItemDocument>(CONTENT_ITEMS, id);
}
