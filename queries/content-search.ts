import type { AiContextItem } from '../infra/ai/port';
import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { CONTENT_ITEMS, contentItemId, type ContentItemDocument } from '../projections/read-models/content-items';
import { CONTENT_SEARCH, type ContentSearchDocument } from '../projections/read-models/content-search';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { type CorpusStatistics, rankBm25 } from '../src/domain/search/bm25';
import { snippet } from '../src/domain/search/snippet';
import { questionTerms, textValues } from '../src/domain/search/text';
import type { ContentTypeQueries } from './content-types';
import { ownValue } from '../src/domain/own-value';

/** Terms of a question searched for; the rest of a very long question is ignored. */
const MAX_QUESTION_TERMS = 12;
/** Items scored in memory per question, and at most this many fetched per term. */
const MAX_CANDIDATES = 500;
const MAX_CANDIDATES_PER_TERM = 200;
const SNIPPET_LENGTH = 240;
const EXCERPT_LENGTH = 2000;
const MAX_TITLE_LENGTH = 200;

/**
 * Full-text retrieval over a workspace's published content (the content_search read model):
 * candidates are the items holding the question's rarest terms, then BM25 ranks them in memory.
 */
export class ContentSearchQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly contentTypes: ContentTypeQueries,
  ) {}

  async search(workspaceId: string, question: string, limit = 5): Promise<AiContextItem[]> {
    const queryTerms = questionTerms(question).slice(0, MAX_QUESTION_TERMS);
    if (queryTerms.length === 0) return [];
    const inWorkspace: Filter = { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId };
    const withTerm = (term: string): Filter => ({
      type: 'and',
      // Stored text is already folded to lower case the way the terms are, and padded with spaces: whole terms only.
      conditions: [inWorkspace, { type: 'condition', field: 'text', operator: 'contains', value: ` ${term} ` }],
    });
    const [documentCount, averageLength, frequencies] = await Promise.all([
      this.store.count(CONTENT_SEARCH, { filter: inWorkspace }),
      this.store.aggregate(CONTENT_SEARCH, { filter: inWorkspace, field: 'length', operation: 'avg' }),
      Promise.all(queryTerms.map(async (term) => [term, await this.store.count(CONTENT_SEARCH, { filter: withTerm(term) })] as const)),
    ]);
    const corpus: CorpusStatistics = { documentCount, averageLength: averageLength ?? 0, documentFrequency: new Map(frequencies) };

    const candidates = new Map<string, ContentSearchDocument>();
    const rarestFirst = frequencies.filter(([, frequency]) => frequency > 0).sort((a, b) => a[1] - b[1]);
    // Items holding every term come first, so a per-term cap on common terms cannot leave the best matches out.
    if (rarestFirst.length > 1) {
      const withEveryTerm: Filter = { type: 'and', conditions: rarestFirst.map(([term]) => withTerm(term)) };
      for (const document of await this.store.list<ContentSearchDocument>(CONTENT_SEARCH, { filter: withEveryTerm, limit: MAX_CANDIDATES_PER_TERM })) {
        candidates.set(document.id, document);
      }
    }
    for (const [term] of rarestFirst) {
      if (candidates.size >= MAX_CANDIDATES) break;
      const found = await this.store.list<ContentSearchDocument>(CONTENT_SEARCH, { filter: withTerm(term), limit: MAX_CANDIDATES_PER_TERM });
      for (const document of found) candidates.set(document.id, document);
    }
    const ranked = rankBm25(
      queryTerms,
      [...candidates.values()].map((document) => ({ id: document, terms: document.text.trim().split(' ') })),
      corpus,
      limit,
    );
    return this.describe(workspaceId, ranked.map((match) => ({ document: match.id, matched: match.matched })));
  }

  /** Titles and passages come from the published items themselves, in ranking order. */
  private async describe(workspaceId: string, matches: { document: ContentSearchDocument; matched: readonly string[] }[]): Promise<AiContextItem[]> {
    const items = await this.store.getMany<ContentItemDocument>(
      CONTENT_ITEMS,
      matches.map(({ document }) => contentItemId(workspaceId, document.itemId, 'published')),
    );
    const byId = new Map(items.map((item) => [item.itemId, item]));
    const typeKeys = [...new Set(items.map((item) => item.contentType))];
    const types = new Map(await Promise.all(typeKeys.map(async (key) => [key, await this.contentTypes.get(workspaceId, key)] as const)));
    return matches.flatMap(({ document, matched }) => {
      const item = byId.get(document.itemId);
      if (!item) return [];
      const text = [...textValues(item.fields), ...textValues(item.translations)].join(' · ');
      return [
        {
          id: item.itemId,
          contentType: item.contentType,
          title: titleOf(item, types.get(item.contentType) ?? null),
          snippet: snippet(text, matched, SNIPPET_LENGTH),
          excerpt: snippet(text, matched, EXCERPT_LENGTH),
        },
      ];
    });
  }
}

/** The content type's title field, else its first text field with a value, else any text value, else the id. */
function titleOf(item: ContentItemDocument, type: ContentTypeDocument | null): string {
  const textFields = type?.fields.filter((field) => field.type === 'Text' || field.type === 'RichText').map((field) => field.key) ?? [];
  const keys = type?.fieldTitleKey ? [type.fieldTitleKey, ...textFields] : textFields;
  const title = keys.flatMap((key) => textValues(ownValue(item.fields, key))).at(0) ?? textValues(item.fields).at(0) ?? item.itemId;
  return title.length > MAX_TITLE_LENGTH ? `${title.slice(0, MAX_TITLE_LENGTH)}…` : title;
}
