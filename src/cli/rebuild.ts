import { withTheirSources } from '../../projections/projector';
import { readModelProjectors } from '../../projections/read-models';
import { type RebuildOptions, rebuildReadModels } from '../../projections/rebuild';
import type { RebuildStatus } from '../../projections/rebuild-coordinator';
import type { Config } from '../config';
import type { AdminClient } from './admin-client';
import type { CliOutput } from './output';
import { eventsPerSecond, POSITION_STEPS, positionSteps, progressBar, throughput } from './progress';
import { withStores } from './stores';

const BAR_DETAIL = '{events} events | {rate} events/s | {phase}';

/** Asks the running service to rebuild, and follows its progress. */
export async function rebuildThroughService(admin: AdminClient, names: string[], options: RebuildOptions, output: CliOutput): Promise<void> {
  await admin.call('POST', '/projections/rebuild', { projections: names, skipChainCheck: options.skipChainCheck === true });
  const bar = progressBar(output, 'rebuild', BAR_DETAIL);
  bar.start(POSITION_STEPS, 0, { events: 0, rate: 0, phase: 'replaying' });
  for (;;) {
    const status = await admin.call<RebuildStatus>('GET', '/projections/rebuild');
    const elapsedMs = (status.finishedAt ? Date.parse(status.finishedAt) : Date.now()) - Date.parse(status.startedAt);
    bar.update(Math.round(status.fraction * POSITION_STEPS), { events: status.eventsProcessed, rate: eventsPerSecond(status.eventsProcessed, elapsedMs), phase: status.phase });
    if (status.state !== 'running') {
      bar.stop();
      if (status.state === 'failed') throw new Error(`rebuild failed: ${status.error}`);
      output.log(`rebuilt ${status.projections.join(', ')} from ${throughput(status.eventsProcessed, elapsedMs)}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Rebuilds with the stores opened by this process (the service is stopped). */
export async function rebuildOffline(config: Config, names: string[], options: RebuildOptions, output: CliOutput): Promise<void> {
  const unknown = names.filter((name) => !readModelProjectors.some((projector) => projector.name === name));
  if (unknown.length > 0) throw new Error(`unknown projection: ${unknown.join(', ')}`);
  const projectors = withTheirSources(readModelProjectors, names);
  let processed = 0;
  let elapsedMs = 0;
  await withStores(config, 'projections rebuild', async (stores) => {
    const bar = progressBar(output, 'rebuild', BAR_DETAIL);
    const startedAt = Date.now();
    bar.start(POSITION_STEPS, 0, { events: 0, rate: 0, phase: 'replaying' });
    try {
      await rebuildReadModels(stores.readableEvents, stores.readStore, projectors, null, (progress) => {
        processed = progress.eventsProcessed;
        elapsedMs = Date.now() - startedAt;
        const steps = progress.phase === 'done' ? POSITION_STEPS : positionSteps(progress.position, progress.head);
        bar.update(steps, { events: processed, rate: eventsPerSecond(processed, elapsedMs), phase: progress.phase });
      }, options);
    } finally {
      bar.stop();
    }
  });
  const checked = options.skipChainCheck ? 'the hash chain NOT checked (--skip-chain-check)' : "each event's chain hash checked";
  output.log(`rebuilt ${projectors.map((projector) => projector.name).join(', ')} from ${throughput(processed, elapsedMs)} (offline; ${checked})`);
}
