import { z } from 'zod';
import { readModelProjectors } from '../../projections/read-models';
import { rebuildReadModels } from '../../projections/rebuild';
import type { Config } from '../config';
import { parseArguments } from './arguments';
import type { ExportHeader } from './export-format';
import { checkExportFile, readExportFile } from './export-file';
import { checkDataKeyOpens, restoreDataKey } from './data-key';
import { OrderedAppender } from './ordered-appender';
import type { CliOutput } from './output';
import { eventsPerSecond, POSITION_STEPS, positionSteps, progressBar, throughput } from './progress';
import { type Stores, withStores } from './stores';
import { undoOnFailure } from './undo-on-failure';

const importArguments = z.object({
  file: z.string({ error: 'needs the export file to import' }).min(1, 'needs the export file to import'),
  unexpected: z.array(z.string()).max(0, 'takes one file'),
});

/**
 * `import <file>`: an export into a store whose log is empty, then the read models built from
 * it. An empty log, not merely one without that workspace: process managers start at the head
 * of the log they first see, so imported events can never look new to them and replay side
 * effects (webhook deliveries, scheduled callbacks) already done in the source.
 */
export async function importWorkspace(config: Config, input: Partial<z.input<typeof importArguments>>, output: CliOutput): Promise<void> {
  const { file } = parseArguments('import', importArguments, input);
  // Both checks come before the target store is opened, which would create it.
  const { header, events } = await checkFile(file, output);
  if (header.wrappedDataKey !== null) await checkDataKeyOpens(config, header.workspaceId, header.wrappedDataKey);
  const { appended, projected } = await undoOnFailure(config.dataDir, () =>
    withStores(config, async (stores) => {
      if ((await stores.events.readAll({ maxCount: 1 })).length > 0) {
        throw new Error('import: the event store is not empty; import needs a store without any events (do not start the service on it before importing)');
      }
      if (header.wrappedDataKey !== null) await restoreDataKey(stores.dataKeys, header.workspaceId, header.wrappedDataKey);
      return { appended: await appendEvents(stores, file, events, output), projected: await buildReadModels(stores, output) };
    }),
  );
  output.log(`imported workspace ${header.workspaceId}: ${throughput(events, appended)}; read models built from ${throughput(projected.events, projected.elapsedMs)}`);
}

async function checkFile(file: string, output: CliOutput): Promise<{ header: ExportHeader; events: number }> {
  const bar = progressBar(output, 'check', '{value}/{total} bytes');
  bar.start(1, 0);
  try {
    return await checkExportFile(file, (bytesRead, size) => {
      bar.setTotal(size);
      bar.update(bytesRead);
    });
  } finally {
    bar.stop();
  }
}

/** Appends the file's events in order, in batches of streams (see OrderedAppender); answers the milliseconds it took. */
async function appendEvents(stores: Stores, file: string, total: number, output: CliOutput): Promise<number> {
  const bar = progressBar(output, 'import', '{value}/{total} events | {rate} events/s');
  const startedAt = Date.now();
  bar.start(total, 0, { rate: 0 });
  const appender = new OrderedAppender(stores.events);
  const update = () => bar.update(appender.appended, { rate: eventsPerSecond(appender.appended, Date.now() - startedAt) });
  let read = 0;
  try {
    for await (const { number, line } of readExportFile(file)) {
      if (line.kind !== 'event') continue;
      await appender.add(line, number);
      if (++read % 1000 === 0) update();
    }
    await appender.flush();
    update();
  } finally {
    bar.stop();
  }
  return Date.now() - startedAt;
}

async function buildReadModels(stores: Stores, output: CliOutput): Promise<{ events: number; elapsedMs: number }> {
  const bar = progressBar(output, 'project', '{events} events | {rate} events/s');
  const startedAt = Date.now();
  let events = 0;
  bar.start(POSITION_STEPS, 0, { events: 0, rate: 0 });
  try {
    await rebuildReadModels(stores.events, stores.readStore, readModelProjectors, null, (progress) => {
      events = progress.eventsProcessed;
      const steps = progress.phase === 'done' ? POSITION_STEPS : positionSteps(progress.position, progress.head);
      bar.update(steps, { events, rate: eventsPerSecond(events, Date.now() - startedAt) });
    });
  } finally {
    bar.stop();
  }
  return { events, elapsedMs: Date.now() - startedAt };
}
