import type { ReleaseItemPreview } from '../commands/releases';
import type { ReadStore } from '../infra/readstore/port';
import { RELEASES, releaseDocumentId, type ReleaseDocument } from '../projections/read-models/releases';
import { notFound } from '../src/domain/errors';
import { createPatch } from '../src/domain/json-patch';

export interface ReleaseListQuery {
  readonly page: number;
  readonly pageSize: number;
}

export class ReleaseQueries {
  constructor(
    private readonly store: ReadStore,
    /** Each entry decided on its item as it is now (ReleaseCommands.preview). */
    private readonly preview: (workspaceId: string, releaseId: string) => Promise<ReleaseItemPreview[]>,
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
   * The release with each entry; an Open release also shows, per entry, what publishing it now
   * would change in the published content (RFC 6902, from what is published now) or its problem.
   */
  async get(workspaceId: string, releaseId: string) {
    const document = await this.store.get<ReleaseDocument>(RELEASES, releaseDocumentId(workspaceId, releaseId));
    if (!document) throw notFound(`release ${releaseId} does not exist`);
    const previews = document.status === 'Open' ? new Map((await this.preview(workspaceId, releaseId)).map((preview) => [preview.itemId, preview])) : null;
    const items = document.items.map((item) => {
      const preview = previews?.get(item.itemId);
      return {
        ...item,
        ...(preview ? { problem: preview.problem, diff: preview.problem === null ? createPatch(preview.publishedNow, preview.publishedAfter) : null } : {}),
      };
    });
    return { ...toSummary(document), items };
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
