import type { ReadStore } from '../infra/readstore/port';
import { PROJECTION_QUARANTINE, type QuarantinedEvent, type QuarantineResolution } from '../projections/quarantine';
import type { RebuildCoordinator, RebuildStatus } from '../projections/rebuild-coordinator';
import { type QuarantineEvent, QUARANTINE_STREAM } from '../src/domain/quarantine/events';
import type { CommandContext, CommandRunner } from './aggregate';

export class QuarantineEntryNotFoundError extends Error {}
export class QuarantineEntryResolvedError extends Error {}

/**
 * What an operator does about an event a read model could not apply: skip it (the read model
 * stays without it) or rebuild the read model, which applies it again from the log once its
 * cause is fixed (a rebuild that succeeds resolves the read model's open entries). Each
 * decision is appended to the log before it takes effect.
 */
export class QuarantineCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly readStore: ReadStore,
    private readonly rebuilds: RebuildCoordinator,
  ) {}

  async skip(id: string, reason: string, context: CommandContext): Promise<QuarantinedEvent> {
    const entry = await this.open(id);
    await this.record({ type: 'QuarantinedEventSkipped', data: { ...reference(entry), reason } }, context);
    return this.resolve(entry, { outcome: 'skipped', at: new Date().toISOString() });
  }

  /** Starts the rebuild (409 while another runs, RebuildRunningError) and records it. */
  async retry(id: string, context: CommandContext): Promise<RebuildStatus> {
    const entry = await this.open(id);
    const rebuild = this.rebuilds.start([entry.projection]);
    await this.record({ type: 'QuarantinedEventRetried', data: { ...reference(entry), rebuildId: rebuild.id } }, context);
    return rebuild;
  }

  private async open(id: string): Promise<QuarantinedEvent> {
    const entry = await this.readStore.get<QuarantinedEvent>(PROJECTION_QUARANTINE, id);
    if (!entry) throw new QuarantineEntryNotFoundError(`no quarantined event ${id}`);
    if (entry.resolution) throw new QuarantineEntryResolvedError(`quarantined event ${id} was ${entry.resolution.outcome} at ${entry.resolution.at}`);
    return entry;
  }

  private async resolve(entry: QuarantinedEvent, resolution: QuarantineResolution): Promise<QuarantinedEvent> {
    const resolved = { ...entry, resolution };
    await this.readStore.apply([{ kind: 'upsert', collection: PROJECTION_QUARANTINE, document: resolved }]);
    return resolved;
  }

  private record(event: QuarantineEvent, context: CommandContext): Promise<void> {
    return this.runner.record(QUARANTINE_STREAM, [event], { ...context, workspaceId: null });
  }
}

function reference(entry: QuarantinedEvent) {
  return { quarantineId: entry.id, projection: entry.projection, position: entry.position, eventId: entry.eventId, workspaceId: entry.workspaceId };
}
