import { RepeatingPass } from '../processes/repeating-pass';
import type { Logger } from 'pino';
import { type EventStore, positionToString } from '../../infra/eventstore/port';
import type { Change, CollectionLayout, ColumnDefinition, Document, IndexDefinition, ReadStore } from '../../infra/readstore/port';
import type { LiveProjections } from '../rebuild';
import { CONTENT_TABLES } from '../read-models/content-tables';
import { CONTENT_ITEMS } from '../read-models/content-items';
import { QueryIndexReconciler, type QueryIndexState } from './query-indexes';
import { type ReplayTargets, TablesReplay } from './replay';
import { type ContentTableDocument, relaid, type TableGeneration, tableColumns, tableIndexes, VERSIONS_TABLE_PREFIX } from './schema';
import { versionColumns, versionIndexes } from './versions-schema';

/** Tables no longer serving, dropped once queries that read them before the switch are done. */
export const RETIRED_CONTENT_TABLES = 'content_tables_retired';
/** The replay's copy of the item states (content_item_states) its versions rows are made from and of the documents, dropped after each pass. */
export const REPLAY_SCRATCH = `${VERSIONS_TABLE_PREFIX}build_items`;
const RETIRE_GRACE_MS = 30_000;
/**
 * A type's content table keeps its documents apart from the typed columns: a filter, order, total
 * or aggregate without a serving index scans the columns (a third of a row with its document, at
 * 100,000 items) instead of every document, and a page reads only its own documents. Since layout
 * 8 those are content_items' (same ids, written in the same batch just before): no second copy,
 * two rows per save + publish fewer; the build's replay keeps its own in REPLAY_SCRATCH.
 * Its versions table keeps them inline (layout 7): every publish writes the new version and
 * rewrites the closed one, so apart each cost two rows, four per publish over a published version;
 * as-of lists are the rarer reads, and a scan of them reads the documents too.
 */
const CONTENT_TABLE_LAYOUT: CollectionLayout = { documentsApart: true, documentsIn: CONTENT_ITEMS };
const VERSIONS_TABLE_LAYOUT: CollectionLayout = { documentsApart: false };
const POLL_INTERVAL_MS = 1000;
/** A type whose table failed to build is tried again after this long, doubling per failure up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 10 * 60_000;
/** Serving tables' statistics are refreshed this often (PGlite has no autovacuum to do it). */
const ANALYZE_INTERVAL_MS = 10 * 60_000;

interface RetiredTable extends Document {
  readonly retiredAt: string;
}

export interface TableBuildStatus {
  /** `${workspaceId}:${contentType}` of each table built by the pass. */
  readonly contentTypes: string[];
  readonly tables: string[];
  readonly state: 'running' | 'succeeded' | 'failed';
  readonly phase: 'replaying' | 'indexing' | 'catching-up' | 'switching' | 'done';
  readonly eventsRead: number;
  readonly eventsApplied: number;
  readonly position: string;
  readonly head: string;
  readonly fraction: number;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly error: string | null;
}

/** A content type whose table failed to build on its own; the others are built without it meanwhile. */
export interface TableBuildFailure {
  /** `${workspaceId}:${contentType}`. */
  readonly contentType: string;
  readonly table: string | null;
  readonly attempts: number;
  readonly error: string;
  readonly retryAt: string;
}

export interface TableBuildObserver {
  progress(fraction: number): void;
  finished(outcome: 'succeeded' | 'failed' | 'abandoned', count: number): void;
}

/**
 * Builds the typed tables a content type's fields want (its content table and its versions
 * table), by replaying the type's events from the log into new tables while the old ones serve
 * (or content_items, as-of queries answering 503), then switches the registry to them. The
 * switch pauses the live projections (as a whole-projector rebuild does): the replay catches
 * up to the head with no live event in flight, the registry names the new tables, and the
 * live projector mirrors every later event into them, so no event is lost or applied out of
 * order. Runs in the process that owns the live projections.
 */
export class ContentTableBuilder {
  private readonly passes: RepeatingPass;
  private current: TableBuildStatus | null = null;
  private retiredReady = false;
  private analyzedAt = Date.now();
  private readonly queryIndexes: QueryIndexReconciler;
  /** By entry id; forgotten when the entry wants another table or its table is built. */
  private readonly failed = new Map<string, TableBuildFailure>();

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly live: LiveProjections,
    /**
     * True while a whole-projector rebuild runs (it pauses the same live projections) or while
     * content_tables awaits its backfill (a table switched in would not be mirrored).
     */
    private readonly rebuildRunning: () => boolean,
    private readonly logger: Logger,
    private readonly observer: TableBuildObserver = { progress: () => undefined, finished: () => undefined },
    intervalMs = POLL_INTERVAL_MS,
  ) {
    this.queryIndexes = new QueryIndexReconciler(readStore, logger);
    this.passes = new RepeatingPass(intervalMs, () => this.runOnce(), (error: unknown) => this.logger.error({ err: error }, 'content table build failed'));
  }

  /** The last (or running) build pass. */
  get status(): TableBuildStatus | null {
    return this.current;
  }

  /** Types whose table failed to build alone, waiting to be tried again. */
  get failures(): readonly TableBuildFailure[] {
    return [...this.failed.values()];
  }

  /** Where `entry`'s declared query indexes stand (this builder creates and drops them). */
  queryIndexState(entry: ContentTableDocument): QueryIndexState {
    return this.queryIndexes.state(entry);
  }

  start(): void {
    this.passes.start();
  }

  stop(): Promise<void> {
    return this.passes.stop();
  }

  /** One pass: brings the serving tables' declared query indexes in line, builds every table wanted and not serving, switches them in, drops retired tables. */
  async runOnce(): Promise<void> {
    if (this.rebuildRunning()) return;
    if (!this.retiredReady) {
      await this.readStore.ensureCollection(RETIRED_CONTENT_TABLES, []);
      this.retiredReady = true;
    }
    let registry = await this.readStore.list<ContentTableDocument>(CONTENT_TABLES, {});
    if (registry.some((entry) => relaid(entry) !== entry)) {
      await this.relayout();
      registry = await this.readStore.list<ContentTableDocument>(CONTENT_TABLES, {});
    }
    await this.queryIndexes.reconcile(registry);
    const pending = registry.filter((entry) => entry.wanted === null || entry.wanted.collection !== entry.serving?.collection);
    // A failure counts for the table that failed: a type that wants another table (its fields changed) is tried at once.
    for (const failure of this.failed.values()) {
      if (!pending.some((entry) => entry.id === failure.contentType && (entry.wanted?.collection ?? null) === failure.table)) this.failed.delete(failure.contentType);
    }
    const due = pending.filter((entry) => Date.parse(this.failed.get(entry.id)?.retryAt ?? '') <= Date.now() || !this.failed.has(entry.id));
    if (due.length > 0) await this.buildEachOnFailure(due);
    await this.dropRetired(registry);
    if (Date.now() - this.analyzedAt >= ANALYZE_INTERVAL_MS) {
      this.analyzedAt = Date.now();
      for (const entry of registry) {
        for (const table of [entry.serving?.collection, entry.serving?.versions]) if (table) await this.readStore.analyzeCollection(table);
      }
    }
  }

  /**
   * After an upgrade that changed the table layout, each entry wants its table under this
   * version's name, so the pass builds it while the earlier table serves. Written with the
   * live projections paused, as the switch is: a type saved meanwhile is not overwritten.
   */
  private async relayout(): Promise<void> {
    try {
      await this.live.pause();
      const registry = await this.readStore.list<ContentTableDocument>(CONTENT_TABLES, {});
      const changes: Change[] = registry.filter((entry) => relaid(entry) !== entry).map((entry) => ({ kind: 'upsert', collection: CONTENT_TABLES, document: relaid(entry) }));
      if (changes.length > 0) this.logger.info({ contentTypes: changes.map((change) => (change.kind === 'upsert' ? change.document.id : change.id)) }, 'typed content tables move to a new layout');
      await this.readStore.apply(changes);
    } finally {
      await this.live.resume();
    }
  }

  /**
   * Builds the tables together (one replay of the log for all); when that fails, builds each
   * alone, so a type whose table cannot be built delays no other workspace's. A failing type is
   * tried again later, less and less often (FIRST_RETRY_MS doubling to MAX_RETRY_MS).
   */
  private async buildEachOnFailure(pending: readonly ContentTableDocument[]): Promise<void> {
    try {
      await this.build(pending);
      for (const entry of pending) this.failed.delete(entry.id);
      return;
    } catch (error) {
      if (pending.length === 1) {
        this.recordFailure(pending[0]!, error);
        throw error;
      }
      this.logger.warn({ err: error, contentTypes: pending.map((entry) => entry.id) }, 'building typed content tables together failed; building each on its own');
    }
    for (const entry of pending) {
      try {
        await this.build([entry]);
        this.failed.delete(entry.id);
      } catch (error) {
        this.recordFailure(entry, error);
        this.logger.error({ err: error, contentType: entry.id }, 'the typed content table of a content type failed to build; its queries read the JSONB read model meanwhile');
      }
    }
  }

  private recordFailure(entry: ContentTableDocument, error: unknown): void {
    const attempts = (this.failed.get(entry.id)?.attempts ?? 0) + 1;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
    this.failed.set(entry.id, { contentType: entry.id, table: entry.wanted?.collection ?? null, attempts, error: String(error), retryAt: new Date(Date.now() + delay).toISOString() });
  }

  private async build(pending: readonly ContentTableDocument[]): Promise<void> {
    const toBuild = pending.filter((entry) => entry.wanted !== null).map((entry) => ({ id: entry.id, generation: entry.wanted! }));
    const targets = new Map<string, ReplayTargets>(toBuild.map(({ id, generation }) => [id, generation]));
    const tables = toBuild.flatMap(({ generation }) => builtTables(generation));
    // Loaded before they are indexed: one index build per index after the replay costs a fraction
    // of keeping ~20 indexes (a trigram one among them) up to date row by row through it.
    await this.readStore.dropCollection(REPLAY_SCRATCH);
    await this.readStore.ensureCollection(REPLAY_SCRATCH, []);
    for (const table of tables) {
      await this.readStore.dropCollection(table.name);
      await this.readStore.ensureCollection(table.name, [], table.columns, table.layout);
      await this.readStore.apply([{ kind: 'delete', collection: RETIRED_CONTENT_TABLES, id: table.name }]);
    }
    const startedAt = new Date().toISOString();
    const replay = new TablesReplay(this.events, this.readStore, targets, REPLAY_SCRATCH);
    let head = await this.events.headPosition();
    const report = (phase: TableBuildStatus['phase'], state: TableBuildStatus['state'] = 'running', error: string | null = null) => {
      const fraction = phase === 'done' ? 1 : head.prepare === 0n ? 1 : Math.min(1, Number(replay.position.prepare) / Number(head.prepare));
      this.current = {
        contentTypes: pending.map((entry) => entry.id),
        tables: tables.map((table) => table.name),
        state,
        phase,
        eventsRead: replay.eventsRead,
        eventsApplied: replay.eventsApplied,
        position: positionToString(replay.position),
        head: positionToString(head),
        fraction,
        startedAt,
        finishedAt: state === 'running' ? null : new Date().toISOString(),
        error,
      };
      this.observer.progress(fraction);
    };
    try {
      if (toBuild.length > 0) this.logger.info({ contentTypes: toBuild.map((entry) => entry.id) }, 'building typed content tables');
      if (toBuild.length > 0) await replay.until(head, () => report('replaying'));
      report('indexing');
      for (const table of tables) await this.readStore.ensureCollection(table.name, table.indexes, table.columns, table.layout);
      for (const entry of pending) if (entry.wanted) await this.queryIndexes.apply(entry, entry.wanted);
      // Plans for the new tables' first queries need statistics.
      for (const table of tables) await this.readStore.analyzeCollection(table.name);
      // What was appended meanwhile is replayed before the pause, which writers wait through: the pause replays only the last moments.
      head = await this.events.headPosition();
      if (toBuild.length > 0) await replay.until(head, () => report('catching-up'));
      let switched = 0;
      // A whole rebuild started meanwhile pauses and resumes the same projections: the switch is left to a
      // later pass, without pausing for nothing (every write would wait), and checked again once paused.
      const rebuildStarted = () => {
        if (this.rebuildRunning()) throw new Error('a rebuild started during the build; the tables are built again on a later pass');
      };
      rebuildStarted();
      try {
        // Inside the try: a pause counts from the call, so it is ended even when the stop fails.
        await this.live.pause();
        rebuildStarted();
        head = await this.events.headPosition();
        if (toBuild.length > 0) await replay.until(head, () => report('catching-up'));
        report('switching');
        switched = await this.switchIn(pending);
      } finally {
        await this.live.resume();
      }
      report('done', 'succeeded');
      this.observer.finished('succeeded', switched);
      if (switched < pending.length) this.observer.finished('abandoned', pending.length - switched);
    } catch (error) {
      report('done', 'failed', String(error));
      this.observer.finished('failed', pending.length);
      throw error;
    } finally {
      // It holds items' published documents: it goes at once (erased values must not stay).
      await this.readStore.dropCollection(REPLAY_SCRATCH);
    }
  }

  /**
   * With the live projections paused: each entry whose wanted table is still the one built
   * starts serving from it; a deleted type leaves the registry. Replaced tables are retired.
   * An entry whose fields changed again meanwhile keeps its old table (the next pass builds).
   */
  private async switchIn(pending: readonly ContentTableDocument[]): Promise<number> {
    const now = new Date().toISOString();
    const changes: Change[] = [];
    const retire = (generation: TableGeneration) => {
      for (const collection of [generation.collection, generation.versions]) {
        if (collection) changes.push({ kind: 'upsert', collection: RETIRED_CONTENT_TABLES, document: { id: collection, retiredAt: now } });
      }
    };
    let switched = 0;
    for (const built of pending) {
      const entry = await this.readStore.get<ContentTableDocument>(CONTENT_TABLES, built.id);
      if (!entry) continue;
      if (entry.wanted === null) {
        changes.push({ kind: 'delete', collection: CONTENT_TABLES, id: entry.id });
        if (entry.serving) retire(entry.serving);
        switched += 1;
      } else if (entry.wanted.collection === built.wanted?.collection) {
        changes.push({ kind: 'upsert', collection: CONTENT_TABLES, document: { ...entry, serving: entry.wanted } });
        if (entry.serving && entry.serving.collection !== entry.wanted.collection) retire(entry.serving);
        switched += 1;
      } else if (built.wanted) {
        retire(built.wanted);
      }
    }
    await this.readStore.apply(changes);
    return switched;
  }

  private async dropRetired(registry: readonly ContentTableDocument[]): Promise<void> {
    const inUse = new Set(registry.flatMap((entry) => [entry.wanted?.collection, entry.wanted?.versions, entry.serving?.collection, entry.serving?.versions]));
    const retired = await this.readStore.list<RetiredTable>(RETIRED_CONTENT_TABLES, {});
    for (const table of retired) {
      if (Date.now() - Date.parse(table.retiredAt) < RETIRE_GRACE_MS) continue;
      if (!inUse.has(table.id)) await this.readStore.dropCollection(table.id);
      await this.readStore.apply([{ kind: 'delete', collection: RETIRED_CONTENT_TABLES, id: table.id }]);
    }
  }
}

interface BuiltTable {
  readonly name: string;
  readonly columns: ColumnDefinition[];
  readonly indexes: IndexDefinition[];
  readonly layout: CollectionLayout;
}

/** The tables a generation's build fills: its content table and its versions table. */
function builtTables(generation: TableGeneration): BuiltTable[] {
  const content = { name: generation.collection, columns: tableColumns(generation), indexes: tableIndexes(), layout: CONTENT_TABLE_LAYOUT };
  return generation.versions
    ? [content, { name: generation.versions, columns: versionColumns(generation), indexes: versionIndexes(), layout: VERSIONS_TABLE_LAYOUT }]
    : [content];
}
