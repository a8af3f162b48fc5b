import type { Logger } from 'pino';
import { indexIdentity } from '../../infra/readstore/index-identity';
import type { IndexDefinition, ReadStore } from '../../infra/readstore/port';
import { originOf, type QueryIndex } from '../../src/domain/content-type/query-indexes';
import { type ContentTableDocument, tableIndexes, type TableGeneration } from './schema';

/** The index group (ReadStore.ensureIndexes) of the query indexes (declared, pinned, advised) on a typed table. */
export const QUERY_INDEX_GROUP = 'q';
/** A build that failed (a value too large for a b-tree, the server going away) is tried again after this long. */
const RETRY_AFTER_FAILURE_MS = 60_000;

/**
 * The columns of the system fields a declared index names. `id` is the document id, the final
 * key of every order (ORDER BY ..., id): declared between two fields (`[released desc, id, price]`)
 * it places that tie-breaker, so a page sorted by a field with many equal values and filtered on
 * another reads the index in its exact order, testing the filter in each entry, and stops at the
 * page's end; declared as `[released desc, price]`, each run of equal dates is sorted by id first.
 */
const SYSTEM_PATHS: ReadonlyMap<string, string> = new Map([
  ['id', 'id'],
  ['createdAt', 'createdAt'],
  ['updatedAt', 'updatedAt'],
  ['publishedAt', 'publishedAt'],
]);

/**
 * The indexes of the type's query indexes on a table of `generation`. A b-tree is (stage, f1[, f2,
 * f3], id), since every query is within one stage and its order ends with id (placed where
 * declared, if it is): `color = X order by price desc` then reads 20 entries of (stage, color,
 * price desc, id) for a page of 20. A text index is the kind the text operators use: `prefix`
 * (start) and `prefix-folded` (start, caseInsensitive) within a stage, `substring` (trigrams:
 * contains, end). One naming a field the table has no column for (one removed from the type, or
 * retyped to Json) is left out until a table with that column serves.
 */
export function queryIndexDefinitions(declared: readonly QueryIndex[], generation: TableGeneration): IndexDefinition[] {
  return declared.flatMap((index) => {
    const definition = queryIndexDefinition(index, generation);
    return definition ? [definition] : [];
  });
}

function queryIndexDefinition(index: QueryIndex, generation: TableGeneration): IndexDefinition | null {
  const columns = new Set(generation.fields.map((field) => field.key));
  const pathOf = (key: string) => SYSTEM_PATHS.get(key) ?? (columns.has(key) ? `fields.${key}` : undefined);
  const paths = index.fields.map((field) => pathOf(field.key));
  if (paths.some((path) => path === undefined)) return null;
  if (index.text) return index.text === 'substring' ? { fields: [paths[0]!], text: 'substring' } : { fields: ['stage', paths[0]!], text: index.text };
  const descending = index.fields.flatMap((field, position) => (field.direction === 'desc' ? [paths[position]!] : []));
  const keys = paths.includes('id') ? (paths as string[]) : [...(paths as string[]), 'id'];
  return { fields: ['stage', ...keys], ...(descending.length > 0 ? { descending } : {}), ...(index.covering ? { covering: true } : {}) };
}

/**
 * An operator's b-tree (declared or pinned) also keeps the totals of its first field within a
 * stage: `color = X` answers its total from one row, a range sums a row per distinct value in it,
 * where counting the index's entries costs a step per item. A count costs a write: one counter
 * row per typed row inserted or deleted, two when the counted value changes, none otherwise; the
 * advisor's indexes keep none, so its choices add index entries only. Not for the system fields:
 * an id or a timestamp is (nearly) unique per item, so its counts would be as many as the items.
 */
function countedFieldSets(declared: readonly QueryIndex[], generation: TableGeneration): string[][] {
  const system = new Set(SYSTEM_PATHS.values());
  const kept = declared.filter((index) => originOf(index) !== 'advised' && !index.text);
  const leading = new Map(
    queryIndexDefinitions(kept, generation)
      .filter((index) => !system.has(index.fields[1]!))
      .map((index) => [index.fields[1]!, index.fields.slice(0, 2)]),
  );
  return [...leading.values()];
}

/**
 * The query indexes the table does not have already: `[id]` is its `(stage, id)`, so declaring it
 * builds nothing a second time.
 */
export function notBuiltAlready(indexes: readonly IndexDefinition[]): IndexDefinition[] {
  const built = new Set(tableIndexes().map(indexIdentity));
  return indexes.filter((index) => !built.has(indexIdentity(index)));
}

interface Reconciled {
  readonly signature: string;
  readonly failedAt: number | null;
}

/**
 * Where a type's query indexes stand on its serving table, as the service's builder
 * knows it: none (nothing declared, nothing left to drop), waiting (no table serves yet: they
 * are built after its load), building (being created or dropped, or on the next pass within a
 * second), built, failed (the last build failed: tried again a minute after it, see the log).
 */
export type QueryIndexState = 'none' | 'waiting' | 'building' | 'built' | 'failed';

/**
 * Keeps each typed table's query indexes in line with the registry, without a rebuild:
 * run by ContentTableBuilder's pass for the serving tables, and for a table it builds once the
 * table is loaded. Remembers what it brought in line per table, so a pass asks the store only
 * when a declaration (or the serving table) changed, or after a failure once RETRY_AFTER_FAILURE_MS passed.
 */
export class QueryIndexReconciler {
  private readonly reconciled = new Map<string, Reconciled>();

  constructor(
    private readonly readStore: ReadStore,
    private readonly logger: Logger,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Where `entry`'s query indexes stand on its serving table. */
  state(entry: ContentTableDocument): QueryIndexState {
    const declared = [...(entry.queryIndexes ?? []), ...(entry.uniqueFields ?? [])];
    if (!entry.serving) return declared.length > 0 ? 'waiting' : 'none';
    const known = this.reconciled.get(entry.serving.collection);
    if (known?.signature !== wantedOn(entry, entry.serving).signature) return 'building';
    if (known.failedAt !== null) return 'failed';
    return declared.length > 0 ? 'built' : 'none';
  }

  /** The serving tables of `registry`; tables no longer serving are forgotten. */
  async reconcile(registry: readonly ContentTableDocument[]): Promise<void> {
    const serving = new Set(registry.flatMap((entry) => (entry.serving ? [entry.serving.collection] : [])));
    for (const table of this.reconciled.keys()) if (!serving.has(table)) this.reconciled.delete(table);
    for (const entry of registry) if (entry.serving) await this.apply(entry, entry.serving);
  }

  /** The entry's query indexes on `generation`'s table. A failure is logged, never thrown: the table answers alike without them. */
  async apply(entry: ContentTableDocument, generation: TableGeneration): Promise<void> {
    const { indexes, counted, signature } = wantedOn(entry, generation);
    const known = this.reconciled.get(generation.collection);
    if (known?.signature === signature && (known.failedAt === null || this.now() - known.failedAt < RETRY_AFTER_FAILURE_MS)) return;
    try {
      const { created, dropped } = await this.readStore.ensureIndexes(generation.collection, QUERY_INDEX_GROUP, notBuiltAlready(indexes));
      await this.readStore.ensureCounts(generation.collection, QUERY_INDEX_GROUP, counted);
      if (created.length > 0 || dropped.length > 0) this.logger.info({ contentType: entry.id, table: generation.collection, created, dropped }, 'query indexes brought in line');
      // Plans for the new indexes need statistics (of a folded prefix's expression) and a visibility map (index-only aggregates).
      if (created.length > 0) await this.readStore.analyzeCollection(generation.collection);
      this.reconciled.set(generation.collection, { signature, failedAt: null });
    } catch (error) {
      this.logger.error({ err: error, contentType: entry.id, table: generation.collection }, 'query indexes could not be built; tried again later');
      this.reconciled.set(generation.collection, { signature, failedAt: this.now() });
    }
  }
}

/**
 * The indexes and counts the entry's query indexes make on `generation`'s table, and what tells
 * them apart from others. Each unique field is indexed as a query index on it alone would be: the
 * unique check of a save is `field = value and id <> item` within a stage.
 */
function wantedOn(entry: ContentTableDocument, generation: TableGeneration) {
  const uniqueIndexes = (entry.uniqueFields ?? []).map((key): QueryIndex => ({ fields: [{ key, direction: 'asc' }] }));
  const all = queryIndexDefinitions([...(entry.queryIndexes ?? []), ...uniqueIndexes], generation);
  const indexes = all.filter((index, position) => all.findIndex((other) => indexIdentity(other) === indexIdentity(index)) === position);
  const counted = countedFieldSets(entry.queryIndexes ?? [], generation);
  return { indexes, counted, signature: JSON.stringify([indexes, counted]) };
}
