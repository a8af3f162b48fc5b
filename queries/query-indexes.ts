import type { ReadStore } from '../infra/readstore/port';
import { originOf, type QueryIndex, type QueryIndexOrigin } from '../src/domain/content-type/query-indexes';
import { notBuiltAlready, queryIndexDefinitions, type QueryIndexState } from '../projections/content-tables/query-indexes';
import { type ContentTableDocument, contentTableId, tableIndexes } from '../projections/content-tables/schema';
import { CONTENT_TABLES } from '../projections/read-models/content-tables';
import { CONTENT_TYPES, contentTypeDocumentId } from '../projections/read-models/content-types';
import { type AdvisorThresholds, assess, type ShapeStatus } from './index-advice';
import type { QueryShape } from './query-shape';
import type { QueryShapeRecorder } from './query-shape-recorder';

export interface ListedQueryIndex extends QueryIndex {
  readonly origin: QueryIndexOrigin;
}

export interface DeclaredQueryIndexes {
  /** Declared, pinned and advised, each with who keeps it. */
  readonly indexes: readonly ListedQueryIndex[];
  /** Indexes the advisor may not declare. */
  readonly forbidden: readonly QueryIndex[];
  /** Whether they are built on the type's serving table yet (projections/content-tables/query-indexes.ts). */
  readonly state: QueryIndexState;
  /** Indexes each write of one of the type's rows updates in its typed table (its own, the primary key and the built query indexes); null while no typed table serves. */
  readonly indexesPerWrite: number | null;
}

export interface ListedShape extends Omit<QueryShape, 'conditions'> {
  readonly count: number;
  readonly meanMs: number;
  readonly totalMs: number;
  readonly recentCount: number;
  readonly recentMeanMs: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
  /** The index that serves it, or that the advisor would declare for it. */
  readonly index: QueryIndex | null;
  readonly servedBy: QueryIndexOrigin | null;
  readonly status: ShapeStatus;
}

export interface RecordedShapes {
  readonly advisor: AdvisorThresholds & { readonly windowMs: number; readonly intervalMs: number; readonly dropUnusedAfterMs: number };
  readonly shapes: readonly ListedShape[];
}

/**
 * A content type's query indexes as its registry entry of typed tables carries them, where their
 * build stands, and the query shapes this instance served for the type with their cost and what
 * the advisor makes of each.
 */
export class QueryIndexQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly stateOf: (entry: ContentTableDocument) => QueryIndexState,
    private readonly recorder: QueryShapeRecorder,
    private readonly advisor: RecordedShapes['advisor'],
  ) {}

  /** Null when the type does not exist. */
  async declared(workspaceId: string, key: string): Promise<DeclaredQueryIndexes | null> {
    const found = await this.entryOf(workspaceId, key);
    if (!found) return null;
    const { entry } = found;
    // A type saved a moment ago may have no registry entry yet: nothing is declared on it.
    if (!entry) return { indexes: [], forbidden: [], state: 'none', indexesPerWrite: null };
    const indexes = entry.queryIndexes ?? [];
    const built = entry.serving ? notBuiltAlready(queryIndexDefinitions(indexes, entry.serving)).length : 0;
    return {
      indexes: indexes.map((index) => ({ ...index, origin: originOf(index) })),
      forbidden: entry.forbiddenIndexes ?? [],
      state: this.stateOf(entry),
      // The type's own indexes and its primary key, and the query indexes.
      indexesPerWrite: entry.serving ? tableIndexes().length + 1 + built : null,
    };
  }

  /** Null when the type does not exist. */
  async shapes(workspaceId: string, key: string): Promise<RecordedShapes | null> {
    const found = await this.entryOf(workspaceId, key);
    if (!found) return null;
    const type = {
      columns: new Map((found.entry?.wanted?.fields ?? []).map((field) => [field.key, field.type])),
      indexes: found.entry?.queryIndexes ?? [],
      forbidden: found.entry?.forbiddenIndexes ?? [],
    };
    const shapes = this.recorder.shapes(workspaceId, key).map((stats) => {
      const { advice, servedBy, status } = assess(stats, type, this.advisor);
      const { conditions: _conditions, ...shape } = stats.shape;
      return {
        ...shape,
        count: stats.count,
        meanMs: round(stats.totalMs / stats.count),
        totalMs: round(stats.totalMs),
        recentCount: stats.recentCount,
        recentMeanMs: stats.recentCount === 0 ? 0 : round(stats.recentTotalMs / stats.recentCount),
        firstSeen: new Date(stats.firstSeen).toISOString(),
        lastSeen: new Date(stats.lastSeen).toISOString(),
        index: advice,
        servedBy,
        status,
      };
    });
    return { advisor: this.advisor, shapes };
  }

  private async entryOf(workspaceId: string, key: string): Promise<{ entry: ContentTableDocument | null } | null> {
    const [type, entry] = await Promise.all([
      this.store.get(CONTENT_TYPES, contentTypeDocumentId(workspaceId, key)),
      this.store.get<ContentTableDocument>(CONTENT_TABLES, contentTableId(workspaceId, key)),
    ]);
    return type ? { entry } : null;
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;
