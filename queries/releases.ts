import type { ReadStore } from '../infra/readstore/port';
import { RELEASES, releaseDocumentId, type ReleaseDocument } from '../projections/read-models/releases';
import { notFound } from '../src/domain/errors';
import type { ReleaseEntryDiffs } from './release-entries';

export interface ReleaseListQuery {
  readonly page: number;
  readonly pageSize: number;
}

/** A page of a release's entries (GET /v2/releases/{id}); the first page of 100 unless asked. */
export interface ReleaseEntriesPage {
  readonly page: number;
  readonly pageSize: number;
}

export const RELEASE_ENTRIES_PAGE: ReleaseEntriesPage = { page: 1, pageSize: 100 };

export class ReleaseQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly diffs: ReleaseEntryDiffs,
  ) {}

  /** Newest first, without items; `hasMore` instead of a total. */
  async list(workspaceId: string, query: ReleaseListQuery) {
    const documents = await this.store.list<ReleaseDocument>(RELEASES, {
      filter: { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
      sort: [{ field: 'createdAt', direction: 'desc' }],
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize + 1,
    });
    const items = documents.slice(0, query.pageSize).map(({ items, ...release }) => ({ ...toSummary(release), itemCount: items.length }));
    return { items, page: query.page, pageSize: query.pageSize, hasMore: documents.length > query.pageSize };
  }

  /**
   * The release with a page of its entries; an Open release also shows, per entry, what
   * publishing it now would change in the published content (RFC 6902, from what is published
   * now) or its problem, within the answer's diff budget (ReleaseEntryDiffs).
   */
  async get(workspaceId: string, releaseId: string, page: ReleaseEntriesPage = RELEASE_ENTRIES_PAGE) {
    const document = await this.release(workspaceId, releaseId);
    const entries = document.items.slice((page.page - 1) * page.pageSize, page.page * page.pageSize);
    const diffs = document.status === 'Open' ? await this.diffs.page(workspaceId, entries) : null;
    const items = entries.map((entry, i) => ({ ...entry, ...diffs?.[i] }));
    return { ...toSummary(document), itemCount: document.items.length, page: page.page, pageSize: page.pageSize, hasMore: page.page * page.pageSize < document.items.length, items };
  }

  /** One entry of a release; while Open with its diff or problem, whatever its size. */
  async entry(workspaceId: string, releaseId: string, itemId: string) {
    const document = await this.release(workspaceId, releaseId);
    const entry = document.items.find((item) => item.itemId === itemId);
    if (!entry) throw notFound(`item ${itemId} is not in release ${releaseId}`);
    return { ...entry, ...(document.status === 'Open' ? await this.diffs.entry(workspaceId, entry) : {}) };
  }

  /** 404 for a release the workspace does not have. */
  async assertExists(workspaceId: string, releaseId: string): Promise<void> {
    await this.release(workspaceId, releaseId);
  }

  private async release(workspaceId: string, releaseId: string): Promise<ReleaseDocument> {
    const document = await this.store.get<ReleaseDocument>(RELEASES, releaseDocumentId(workspaceId, releaseId));
    if (!document) throw notFound(`release ${releaseId} does not exist`);
    return document;
  }
}

function toSummary(document: Omit<ReleaseDocument, 'items'>) {
  return {
    id: document.releaseId,
    name: document.name,
    status: document.status,
    createdAtUtc: document.createdAt,
    updatedAtUtc: document.updatedAt,
    publishAtUtc: document.publishAt,
    publishedAtUtc: document.publishedAt,
    problems: document.problems,
    revertedAtUtc: document.revertedAt,
    revertReason: document.revertReason,
  };
}
