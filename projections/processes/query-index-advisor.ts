import { RepeatingPass } from './repeating-pass';
import type { Logger } from 'pino';
import type { Clock } from '../../infra/clock';
import type { ReadStore } from '../../infra/readstore/port';
import { type AdvisorThresholds, assess, type ColumnTypes } from '../../queries/index-advice';
import { describeShape } from '../../queries/query-shape';
import type { QueryShapeRecorder, ShapeStats } from '../../queries/query-shape-recorder';
import { indexSignature, originOf, type QueryIndex } from '../../src/domain/content-type/query-indexes';
import { QUERY_INDEX_GROUP, queryIndexDefinitions } from '../content-tables/query-indexes';
import { type ContentTableDocument, contentTableId } from '../content-tables/schema';
import { CONTENT_TABLES } from '../read-models/content-tables';

export interface AdvisorSettings extends AdvisorThresholds {
  /** How often it looks at the recorded shapes and at its indexes' use. */
  readonly intervalMs: number;
  /** An advised index no query has read for this long is dropped. */
  readonly dropUnusedAfterMs: number;
  /** How long one window of the recorder's recent figures lasts (for its reasons). */
  readonly windowMs: number;
}

/** What the advisor does through the content type's command path (actor `system`). */
export interface AdvisorCommands {
  adviseQueryIndex(workspaceId: string, key: string, advice: { index: QueryIndex; budget: number; at: Date; reason: string }, context: { workspaceId: string; actor: string }): Promise<void>;
  retireAdvisedIndex(workspaceId: string, key: string, index: QueryIndex, reason: string, context: { workspaceId: string; actor: string }): Promise<void>;
}

interface Usage {
  readonly scans: number | null;
  readonly changedAt: number;
}

/**
 * Declares the query index each frequent, slow query shape needs (./../../queries/index-advice.ts),
 * all of a type's candidates in one pass, within the type's budget of advised indexes, and drops an advised index
 * once the engine has counted no read of it for `dropUnusedAfterMs`. Both are commands on the
 * content type (ContentTypeQueryIndexesDeclared with actor `system` and a reason), so the audit
 * feed and the type's log say what it did and why; the builder's pass then builds or drops the
 * index without a rebuild. Operators' indexes (declared, pinned) are never dropped: the decider
 * refuses. Runs on the leader, from the shapes this process served.
 */
export class QueryIndexAdvisor {
  private readonly passes: RepeatingPass;
  /** Per table and index, the engine's read count and when it last moved (or the advisor first saw it). */
  private readonly usage = new Map<string, Usage>();

  constructor(
    private readonly recorder: QueryShapeRecorder,
    private readonly readStore: ReadStore,
    private readonly commands: AdvisorCommands,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: AdvisorSettings,
  ) {
    this.passes = new RepeatingPass(settings.intervalMs, () => this.runOnce(), (error: unknown) => this.logger.error({ err: error }, 'query index advisor pass failed'));
  }

  start(): void {
    this.passes.start();
  }

  stop(): Promise<void> {
    return this.passes.stop();
  }

  /** One pass: advises for each type with a candidate shape, then drops advised indexes left unused. */
  async runOnce(): Promise<void> {
    for (const { workspaceId, contentType } of this.recorder.recordedTypes()) {
      try {
        await this.adviseFor(workspaceId, contentType);
      } catch (error) {
        this.logger.warn({ err: error, workspaceId, contentType }, 'a query index could not be advised');
      }
    }
    await this.retireUnused();
  }

  private async adviseFor(workspaceId: string, contentType: string): Promise<void> {
    const entry = await this.readStore.get<ContentTableDocument>(CONTENT_TABLES, contentTableId(workspaceId, contentType));
    if (!entry?.wanted) return;
    const indexes = [...(entry.queryIndexes ?? [])];
    const type = { columns: columnTypes(entry), indexes, forbidden: entry.forbiddenIndexes ?? [] };
    // The costliest first: within the budget, the indexes that save the most time. Each one
    // advised counts at once, so a later shape it serves (or the budget it fills) is seen.
    const shapes = this.recorder.shapes(workspaceId, contentType).sort((a, b) => b.recentTotalMs - a.recentTotalMs);
    for (const stats of shapes) {
      const { advice, status } = assess(stats, type, this.settings);
      if (status !== 'candidate' || !advice) continue;
      const reason = this.reasonFor(stats);
      await this.commands.adviseQueryIndex(workspaceId, contentType, { index: advice, budget: this.settings.budget, at: this.clock.now(), reason }, { workspaceId, actor: 'system' });
      indexes.push({ ...advice, origin: 'advised' });
      this.logger.info({ workspaceId, contentType, index: advice, reason }, 'query index advised');
    }
  }

  private reasonFor(stats: ShapeStats): string {
    const mean = stats.recentTotalMs / stats.recentCount;
    const minutes = Math.max(1, Math.round((2 * this.settings.windowMs) / 60_000));
    // The figures first: the audit feed shows 200 characters of it.
    return `${stats.recentCount} queries in at most ${minutes} min, ${mean.toFixed(1)} ms each on average: ${describeShape(stats.shape)}`;
  }

  private async retireUnused(): Promise<void> {
    const now = this.clock.now().getTime();
    const registry = await this.readStore.list<ContentTableDocument>(CONTENT_TABLES, {});
    const watched = new Set<string>();
    for (const entry of registry) {
      const advised = (entry.queryIndexes ?? []).filter((index) => originOf(index) === 'advised');
      if (!entry.serving || advised.length === 0) continue;
      const table = entry.serving.collection;
      const built = advised.map((index) => ({ index, definition: queryIndexDefinitions([index], entry.serving!)[0] }));
      const scans = await this.readStore.indexScans(table, QUERY_INDEX_GROUP, built.flatMap(({ definition }) => (definition ? [definition] : [])));
      let position = 0;
      for (const { index, definition } of built) {
        const key = `${table}\u0000${indexSignature(index)}`;
        watched.add(key);
        const count = definition ? scans[position++]! : null;
        const known = this.usage.get(key);
        // Not built yet, first seen (after a restart too: its time before is not known), or read since: its time starts again.
        if (count === null || !known || known.scans !== count) {
          this.usage.set(key, { scans: count, changedAt: now });
          continue;
        }
        const unusedMs = now - known.changedAt;
        if (unusedMs < this.settings.dropUnusedAfterMs) continue;
        const reason = `no query read it for ${formatDuration(unusedMs)} (the advisor drops an advised index after ${formatDuration(this.settings.dropUnusedAfterMs)} unused)`;
        try {
          await this.commands.retireAdvisedIndex(entry.workspaceId, entry.contentType, index, reason, { workspaceId: entry.workspaceId, actor: 'system' });
          this.usage.delete(key);
          this.logger.info({ workspaceId: entry.workspaceId, contentType: entry.contentType, index, reason }, 'unused advised query index dropped');
        } catch (error) {
          this.logger.warn({ err: error, workspaceId: entry.workspaceId, contentType: entry.contentType }, 'an unused advised query index could not be dropped');
        }
      }
    }
    for (const key of this.usage.keys()) if (!watched.has(key)) this.usage.delete(key);
  }
}

/** The typed columns of the type's wanted table, by field key: what an index may name. */
export function columnTypes(entry: ContentTableDocument): ColumnTypes {
  return new Map((entry.wanted?.fields ?? []).map((field) => [field.key, field.type]));
}

function formatDuration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.round(ms / 3_600_000)} h`;
  return `${Math.round(ms / 86_400_000)} days`;
}
