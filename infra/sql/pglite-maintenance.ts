import { setTimeout as sleep } from 'node:timers/promises';
import type { PGlite } from '@electric-sql/pglite';

/** What the embedded engine's worker is told about its upkeep (EMBEDDED_CHECKPOINT_WAL_MB). */
export interface MaintenanceSettings {
  /** WAL written since the last checkpoint after which the worker makes one. */
  readonly checkpointWalBytes: number;
}

/** How often the worker looks at the WAL written since its last checkpoint, when statements ran meanwhile. */
const CHECKPOINT_CHECK_MS = 1000;
/** How often it looks for tables due for vacuum or analyze. */
const VACUUM_CHECK_MS = 10_000;

/**
 * PostgreSQL's autovacuum thresholds (autovacuum_vacuum_threshold and _scale_factor, the insert
 * ones of PostgreSQL 13, autovacuum_analyze_threshold and _scale_factor): a table is vacuumed once
 * its dead rows, or its rows inserted since its last vacuum, pass them, and analyzed once its
 * changed rows do. Those furthest past their threshold go first. As autovacuum does, the
 * thresholds scale with the table's size as its last vacuum or analyze recorded it
 * (pg_class.reltuples, kept in the catalog), not with the live-row count of the statistics
 * collector: the engine starts every time with those counts at zero, which made every table
 * that changed at all due at once after each start, a table of 100,000 items for a vacuum and an
 * analyze after 50 updates.
 */
export const DUE_TABLES = `
  select format('%I.%I', schemaname, relname) as name, dead > 1 or inserted > 1 as vacuum, changed > 1 as analyze
  from (
    select schemaname, relname,
      n_dead_tup / (50 + 0.2 * rows) as dead,
      n_ins_since_vacuum / (1000 + 0.2 * rows) as inserted,
      n_mod_since_analyze / (50 + 0.1 * rows) as changed
    from pg_stat_all_tables as counts, lateral (select greatest(reltuples, 0) as rows from pg_class where oid = counts.relid) as size
    where schemaname not in ('pg_toast', 'information_schema') and schemaname not like 'pg\\_temp%'
  ) as tables
  where dead > 1 or inserted > 1 or changed > 1
  order by greatest(dead, inserted, changed) desc`;

/** Time as the upkeep reads and spends it (tests give their own). */
export interface UpkeepClock {
  now(): number;
  pause(ms: number): Promise<void>;
}

/** The longest the upkeep leaves the engine to the service between two of its statements. */
const MAX_UPKEEP_PAUSE_MS = 10_000;

/** A table past a threshold: its quoted name, and whether a vacuum and an analyze are due. */
export interface DueTable {
  readonly name: string;
  readonly vacuum: boolean;
  readonly analyze: boolean;
}

/**
 * What a due table gets, one statement per turn of the engine: a vacuum or an analyze of a table
 * of 100,000 items holds the engine for up to seconds (bench/RESULTS.md, 2026-11-30 10:16 UTC),
 * and one `vacuum (analyze)` made every waiting statement wait for both.
 */
export function upkeepStatements(table: DueTable): string[] {
  return [...(table.vacuum ? [`vacuum ${table.name}`] : []), ...(table.analyze ? [`analyze ${table.name}`] : [])];
}

/**
 * The upkeep PostgreSQL's background processes do, done by the embedded engine's worker between
 * statements: PGlite runs PostgreSQL as one single-user backend, with no checkpointer and no
 * autovacuum. Without checkpoints no WAL file is ever recycled (loading 100,000 items left 7.2 GB
 * of WAL, and a restart after a crash would replay all of it); without vacuum and analyze dead
 * rows are never reclaimed, no page is ever marked all-visible for index-only scans, and the
 * planner keeps the statistics a table had when it was empty (an aggregate over thousands of rows
 * planned for 2). Each task takes the engine's turn like any statement; it runs only after
 * statements did, so an idle engine stays idle.
 */
export class EmbeddedMaintenance {
  private lastCheckpointLsn: number | null = null;
  private statementsSinceCheckpointCheck = false;
  private statementsSinceVacuumCheck = false;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly db: PGlite,
    private readonly alone: <T>(work: () => Promise<T>) => Promise<T>,
    private readonly settings: MaintenanceSettings,
    private readonly clock: UpkeepClock = { now: () => performance.now(), pause: (ms) => sleep(ms, undefined, { ref: false }) },
  ) {}

  start(): void {
    const every = (ms: number, task: () => Promise<void>) => {
      let running = false;
      const timer = setInterval(() => {
        if (running || this.db.closed) return;
        running = true;
        // A failed task (the engine closing under it) is tried again at the next tick.
        void task()
          .catch(() => undefined)
          .finally(() => {
            running = false;
          });
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(CHECKPOINT_CHECK_MS, () => this.checkpointWhenDue());
    every(VACUUM_CHECK_MS, () => this.vacuumWhenDue());
  }

  stop(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }

  /** Called for every statement the worker runs. */
  ranStatement(): void {
    this.statementsSinceCheckpointCheck = true;
    this.statementsSinceVacuumCheck = true;
  }

  /** Checkpoints once checkpointWalBytes of WAL were written since the last checkpoint; the checkpoint recycles the WAL files before it. */
  async checkpointWhenDue(): Promise<void> {
    if (!this.statementsSinceCheckpointCheck) return;
    this.statementsSinceCheckpointCheck = false;
    await this.alone(async () => {
      this.lastCheckpointLsn ??= await this.number(`select redo_lsn - '0/0'::pg_lsn as n from pg_control_checkpoint()`);
      const now = await this.number(`select pg_current_wal_insert_lsn() - '0/0'::pg_lsn as n`);
      if (now - this.lastCheckpointLsn < this.settings.checkpointWalBytes) return;
      await this.db.query('checkpoint');
      this.lastCheckpointLsn = now;
    });
  }

  /**
   * Vacuums and analyzes each table past autovacuum's thresholds, each statement a turn of its own
   * (upkeepStatements), and after each leaves the engine to the service for as long as the
   * statement held it: at most half of the engine's time goes to the upkeep. Back to back, the
   * upkeep of a store of 100,000 items after a load held it 5.4 s in 0.1-1.2 s statements, and a
   * projection batch, a few statements each waiting for the next of them, ran past the 5 s a write
   * waits for its read models (0.3-0.5% of updates answered 503).
   */
  async vacuumWhenDue(): Promise<void> {
    if (!this.statementsSinceVacuumCheck) return;
    this.statementsSinceVacuumCheck = false;
    const due = await this.alone(async () => {
      // The backend's counts reach pg_stat_* when it next reports them, at most once a second unless forced.
      await this.db.query('select pg_stat_force_next_flush()');
      return (await this.db.query<DueTable>(DUE_TABLES)).rows;
    });
    for (const table of due) {
      // A table dropped since it was listed is left alone.
      for (const statement of upkeepStatements(table)) {
        const started = this.clock.now();
        await this.alone(() => this.db.query(statement)).catch(() => undefined);
        await this.clock.pause(Math.min(this.clock.now() - started, MAX_UPKEEP_PAUSE_MS));
      }
    }
  }

  private async number(sql: string): Promise<number> {
    const [row] = (await this.db.query<{ n: string | number }>(sql)).rows;
    return Number(row!.n);
  }
}
