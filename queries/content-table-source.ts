import type { ColumnDefinition, ReadStore } from '../infra/readstore/port';
import { CONTENT_ITEMS } from '../projections/read-models/content-items';
import { CONTENT_TABLES } from '../projections/read-models/content-tables';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { answersAlike, type ContentTableDocument, contentTableId, tableColumns, type TableGeneration } from '../projections/content-tables/schema';

export interface ContentSource {
  readonly collection: string;
  /** A typed table: it holds the items (or the published versions) of one content type of one workspace. */
  readonly typed: boolean;
  /** A content table's typed columns, which a release's preview evaluates as the table does (none for a versions source: no preview reads one). */
  readonly columns: readonly ColumnDefinition[];
}

const FALLBACK: ContentSource = { collection: CONTENT_ITEMS, typed: false, columns: [] };

export interface RouteOptions {
  /** How long a registry entry read for queries is used again (0: read on every query). */
  readonly maxAgeMs?: number;
  readonly now?: () => number;
  /**
   * False while the typed tables are not kept up to date: content_tables awaits its backfill
   * (with published_versions, whose item states it computes the version rows from), so every
   * query reads content_items and no as-of query is answered.
   */
  readonly ready?: () => boolean;
}

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
 * otherwise content_items, slower but always right. Likewise for its published versions
 * (as-of queries): its typed versions table, else none (no other table holds them).
 *
 * Registry entries are reused for up to `maxAgeMs` (0: read on every query) instead of costing
 * every query a round trip of its own; `forget` drops them, and is called on every write of this
 * process to the registry (src/container.ts), so this process never queries a table it switched out.
 */
export class ContentTableRoutes {
  private readonly routes = new Map<string, Route>();
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private readonly ready: () => boolean;

  constructor(
    private readonly store: ReadStore,
    options: RouteOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 0;
    this.now = options.now ?? (() => performance.now());
    this.ready = options.ready ?? (() => true);
  }

  async source(workspaceId: string, type: ContentTypeDocument): Promise<ContentSource> {
    const serving = await this.serving(workspaceId, type);
    return serving ? { collection: serving.collection, typed: true, columns: tableColumns(serving) } : FALLBACK;
  }

  /**
   * Where the type's published versions are queried; null while no versions table answers the
   * type alike (a type before its first build, a retyped field, a table of layout 2, the typed
   * tables awaiting their backfill).
   */
  async versions(workspaceId: string, type: ContentTypeDocument): Promise<ContentSource | null> {
    const versions = (await this.serving(workspaceId, type))?.versions;
    return versions ? { collection: versions, typed: true, columns: [] } : null;
  }

  private async serving(workspaceId: string, type: ContentTypeDocument): Promise<TableGeneration | null> {
    if (!this.ready()) return null;
    const serving = (await this.entry(contentTableId(workspaceId, type.key)))?.serving;
    return serving && answersAlike(serving.fields, type.fields) ? serving : null;
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
