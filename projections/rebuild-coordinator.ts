import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { EventStore } from '../infra/eventstore/port';
import { positionToString, START } from '../infra/eventstore/port';
import { resolveRebuilt } from './quarantine';
import type { ReadStore } from '../infra/readstore/port';
import type { ProjectionDaemon } from './daemon';
import { withTheirSources } from './projector';
import { type RebuildOptions, rebuildReadModels, type RebuildProgress } from './rebuild';

export interface RebuildStatus {
  readonly id: string;
  readonly projections: string[];
  readonly state: 'running' | 'succeeded' | 'failed';
  readonly phase: RebuildProgress['phase'];
  readonly eventsProcessed: number;
  readonly position: string;
  readonly head: string;
  /** 0 to 1, by log position. */
  readonly fraction: number;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly error: string | null;
}

export class UnknownProjectionError extends Error {}
export class RebuildRunningError extends Error {}

/** Runs one rebuild at a time inside the process that owns the live projections. */
/** A rebuild swaps collections under the live projections: only the instance running them may do it. */
export class NotProjectingHereError extends Error {}

export class RebuildCoordinator {
  private current: RebuildStatus | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly daemon: ProjectionDaemon,
    private readonly logger: Logger,
    /** What the engine asks of every rebuild it runs (RebuildOptions.writers). */
    private readonly engineOptions: Pick<RebuildOptions, 'writers'> = {},
  ) {}

  get status(): RebuildStatus | null {
    return this.current;
  }

  /**
   * Starts the live projections, then backfills the read models that have none yet in a
   * populated store (added by an upgrade) while the others serve and take writes.
   */
  async startProjections(): Promise<void> {
    await this.daemon.start();
    const waiting = this.daemon.awaitingBackfill.map((projector) => projector.name);
    if (waiting.length === 0) return;
    this.logger.info({ projections: waiting }, 'backfilling read models that are new to this store');
    this.start(waiting);
  }

  /** Starts rebuilding the named projections (all when empty) and returns at once. */
  start(names: readonly string[], options: RebuildOptions = {}): RebuildStatus {
    if (this.current?.state === 'running') throw new RebuildRunningError('a rebuild is already running');
    if (!this.daemon.projectsHere) throw new NotProjectingHereError('the read models are projected by another instance (the lease holder): send the rebuild to the instance whose GET /admin/projections answers running: true');
    const unknown = names.filter((name) => !this.daemon.projectors.some((projector) => projector.name === name));
    if (unknown.length > 0) throw new UnknownProjectionError(`unknown projection: ${unknown.join(', ')}`);
    const projectors = withTheirSources(this.daemon.projectors, names);
    const id = randomUUID();
    if (options.skipChainCheck) this.logger.warn({ projections: projectors.map((projector) => projector.name) }, 'rebuilding without checking the hash chain of the log');
    this.current = {
      id,
      projections: projectors.map((projector) => projector.name),
      state: 'running',
      phase: 'replaying',
      eventsProcessed: 0,
      position: '0/0',
      head: '0/0',
      fraction: 0,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      error: null,
    };
    const update = (patch: Partial<RebuildStatus>) => {
      if (this.current?.id === id) this.current = { ...this.current, ...patch };
    };
    let reached = START;
    const progress = (step: RebuildProgress) => {
      reached = step.position;
      update({
        phase: step.phase,
        eventsProcessed: step.eventsProcessed,
        position: positionToString(step.position),
        head: positionToString(step.head),
        fraction: step.phase === 'done' ? 1 : fraction(step),
      });
    };
    rebuildReadModels(this.events, this.readStore, projectors, this.daemon, progress, { ...this.engineOptions, ...options })
      // The rebuilt read models applied every event up to the swap: what was quarantined for them there is applied.
      .then(() => resolveRebuilt(this.readStore, projectors.map((projector) => projector.name), reached, new Date()))
      .then(
        () => update({ state: 'succeeded', finishedAt: new Date().toISOString() }),
        (error: unknown) => {
          this.logger.error({ err: error }, 'rebuild failed');
          update({ state: 'failed', finishedAt: new Date().toISOString(), error: String(error) });
        },
      );
    return this.current;
  }
}

function fraction({ position, head }: RebuildProgress): number {
  if (head.prepare === 0n) return 1;
  return Math.min(1, Number(position.prepare) / Number(head.prepare));
}
