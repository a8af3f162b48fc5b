import type { ReadStore } from '../infra/readstore/port';
import { CONTENT_ITEMS } from '../projections/read-models/content-items';
import { CONTENT_TABLES } from '../projections/read-models/content-tables';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { answersAlike, type ContentTableDocument, contentTableId } from '../projections/content-tables/schema';

export interface ContentSource {
  readonly collection: string;
  /** A typed table: it holds the items of one content type of one workspace. */
  readonly typed: boolean;
}

const FALLBACK: ContentSource = { collection: CONTENT_ITEMS, typed: false };

/**
 * How long a registry entry read for queries is used again. Far below the 30 s a replaced table
 * is kept after its switch-out (projections/content-tables/builder.ts), so no query reaches a
 * dropped table; a switch made by another instance is seen within this time.
 */
export const ROUTE_MAX_AGE_MS = 1000;

interface Route {
  readonly readAt: number;
  readonly entry: Promise<ContentTableDocument | null>;
}

/**
 * The collection to query a content type's items in: its typed table when the registry
 * says one serves and that table answers the type's current fields alike (while the table
 * for a changed field set is built, the old one serves unless a field was retyped);
 * otherwise content_items, slower but always right.
 *
 * Registry entries are reused for up to `maxAgeMs` (0: read on every query) instead of costing
 * every query a round trip of its own; `forget` drops them, and is called on every write of this
 * process to the registry (src/container.ts), so this process never queries a table it switched out.
 */
export class ContentTableRoutes {
  private readonly routes = new Map<string, Route>();

  constructor(
    private readonly store: ReadStore,
    private readonly maxAgeMs = 0,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async source(workspaceId: string, type: ContentTypeDocument): Promise<ContentSource> {
    const serving = (await this.entry(contentTableId(workspaceId, type.key)))?.serving;
    if (!serving || !answersAlike(serving.fields, type.fields)) return FALLBACK;
    return { collection: serving.collection, typed: true };
  }

  /** Reads after this one see the registry as it is now (a read still under way was started before). */
  forget(): void {
    this.routes.clear();
  }

  private entry(id: string): Promise<ContentTableDocument | null> {
    if (this.maxAgeMs <= 0) return this.store.get<ContentTableDocument>(CONTENT_TABLES, id);
    const now = this.now();
    const known = this.routes.get(id);
    if (known && now - known.readAt < this.maxAgeMs) return known.entry;
    const entry = this.store.get<ContentTableDocument>(CONTENT_TABLES, id);
    // Concurrent queries share the read; a failed read is not kept.
    this.routes.set(id, { readAt: now, entry });
    entry.catch(() => {
      if (this.routes.get(id)?.entry === entry) this.routes.delete(id);
    });
    return entry;
  }
}
