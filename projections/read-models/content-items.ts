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

export const contentItemsProjector: Projector = {
  name: 'content_items',
  collections: [
    { name: CONTENT_ITEMS, indexes: [{ fields: ['workspaceId', 'contentType', 'stage'] }, { fields: ['workspaceId', 'itemId'] }] },
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
    const { workspaceId, itemId, contentType } = event.data;
    const at = recorded.metadata.timestamp;
    const version = recorded.revision + 1;
    const draftId = contentItemId(workspaceId, itemId, 'draft');
    const publishedId = contentItemId(workspaceId, itemId, 'published');
    const base = { workspaceId, contentType, itemId, updatedAt: at, version };

    switch (event.type) {
      case 'ContentDraftSaved':
      case 'ContentRestored':
      case 'ContentPublished': {
        const [draft, published] = await Promise.all([get(view, draftId), get(view, publishedId)]);
        const content = {
          ...base,
          fields: event.data.fields,
          translations: event.data.translations as ContentItemDocument['translations'],
          createdAt: draft?.createdAt ?? published?.createdAt ?? at,
        };
        // A restore makes an earlier state the draft: to the read model it is a draft save.
        if (event.type !== 'ContentPublished') {
          return [upsert({ id: draftId, ...content, stage: 'draft', publishedAt: published?.publishedAt ?? null })];
        }
        const changes = [upsert({ id: publishedId, ...content, stage: 'published', publishedAt: at })];
        if (draft) changes.push(upsert({ ...draft, publishedAt: at }));
        return changes;
      }
      case 'ContentUnpublished':
        return [{ kind: 'delete', collection: CONTENT_ITEMS, id: publishedId }, ...(await withPublishedAt(view, draftId, null))];
      case 'ContentDraftDeleted': {
        // Without a published version the item is gone, and its encrypted values with it.
        const published = await get(view, publishedId);
        const secrets: Change[] = published ? [] : [{ kind: 'delete', collection: CONTENT_SECRETS, id: contentSecretsId(workspaceId, itemId) }];
        return [{ kind: 'delete', collection: CONTENT_ITEMS, id: draftId }, ...secrets];
      }
      // An erased item's rows go with everything they held; a rebuild projects its sealed events with empty values up to here.
      case 'ContentDeleted':
      case 'ContentErased':
        return [
          { kind: 'delete', collection: CONTENT_ITEMS, id: draftId },
          { kind: 'delete', collection: CONTENT_ITEMS, id: publishedId },
          { kind: 'delete', collection: CONTENT_SECRETS, id: contentSecretsId(workspaceId, itemId) },
        ];
      case 'ContentEncryptedFieldsSet': {
        const id = contentSecretsId(workspaceId, itemId);
        const current = await view.get<ContentSecretsDocument>(CONTENT_SECRETS, id);
        const document: ContentSecretsDocument = { id, workspaceId, itemId, ciphertexts: { ...current?.ciphertexts, ...event.data.ciphertexts } };
        return [{ kind: 'upsert', collection: CONTENT_SECRETS, document }];
      }
    }
  },
};

const upsert = (document: ContentItemDocument): Change => ({ kind: 'upsert', collection: CONTENT_ITEMS, document });

function get(view: ReadView, id: string): Promise<ContentItemDocument | null> {
  return view.get<ContentItemDocument>(CONTENT_ITEMS, id);
}

async function withPublishedAt(view: ReadView, draftId: string, publishedAt: string | null): Promise<Change[]> {
  const draft = await get(view, draftId);
  return draft ? [upsert({ ...draft, publishedAt })] : [];
}
