import { contentEvent } from '../../src/domain/content/events';
import { eachTextValue, terms } from '../../src/domain/search/text';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const CONTENT_SEARCH = 'content_search';

/** Terms kept per item; past this the rest of a very long item is not searched. */
export const MAX_TERMS_PER_ITEM = 4000;

/** The search terms of one published item; id `${workspaceId}:${itemId}`. */
export interface ContentSearchDocument extends Document {
  readonly workspaceId: string;
  readonly itemId: string;
  readonly contentType: string;
  /**
   * The item's text-like values (fields and translations) as terms (src/domain/search/text.ts),
   * separated and surrounded by single spaces, so `contains " term "` matches whole terms only.
   */
  readonly text: string;
  /** Number of terms in `text`, for BM25's length normalisation. */
  readonly length: number;
}

export const contentSearchDocumentId = (workspaceId: string, itemId: string) => `${workspaceId}:${itemId}`;

/** Full-text terms of published content, for the AI assistant's retrieval. Drafts are never searched. */
export const contentSearchProjector: Projector = {
  name: 'content_search',
  // 2: workspaceId became a typed column, so that a republish (which keeps it) can be a HOT update (content-items.ts).
  version: 2,
  collections: [{ name: CONTENT_SEARCH, indexes: [{ fields: ['workspaceId'] }], columns: [{ path: 'workspaceId', type: 'text' }] }],
  eventTypes: new Set(['ContentPublished', 'ContentUnpublished', 'ContentDeleted', 'ContentErased']),

  async project(recorded) {
    const event = contentEvent.parse(recorded);
    const { workspaceId, itemId, contentType } = event.data;
    const id = contentSearchDocumentId(workspaceId, itemId);
    if (event.type !== 'ContentPublished') return [{ kind: 'delete', collection: CONTENT_SEARCH, id }];
    // Reads the values only up to the limit: cleaning and folding a whole long item took 120 ms of the projections' thread (450 fields of 1,500 characters).
    const itemTerms = terms(textsOf(event.data.fields, event.data.translations), MAX_TERMS_PER_ITEM);
    const document: ContentSearchDocument = { id, workspaceId, itemId, contentType, text: ` ${itemTerms.join(' ')} `, length: itemTerms.length };
    return [{ kind: 'upsert', collection: CONTENT_SEARCH, document }];
  },
};

function* textsOf(...values: unknown[]): Generator<string> {
  for (const value of values) yield* eachTextValue(value);
}
