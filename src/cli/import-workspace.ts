import { z } from 'zod';
import { readModelProjectors } from '../../projections/read-models';
import { rebuildReadModels } from '../../projections/rebuild';
import type { Config } from '../config';
import { parseArguments } from './arguments';
import type { ExportHeader } from './export-format';
import { type CheckedExport, checkExportFile, readExportFile } from './export-file';
import { checkDataKeyOpens, restoreDataKey, restoreItemKeys } from './data-key';
import { readKeyFile } from './key-file';
import { OrderedAppender } from './ordered-appender';
import type { CliOutput } from './output';
import { eventsPerSecond, POSITION_STEPS, positionSteps, progressBar, throughput } from './progress';
import { holdingDataDir } from './holding-data-dir';
import { recordImport } from './import-record';
import { type Stores, withOpenStores } from './stores';
import { undoOnFailure } from './undo-on-failure';

const importArguments = z.object({
  file: z.string({ error: 'needs the export file to import' }).min(1, 'needs the export file to import'),
  keys: z.string().min(1, '--keys needs a file name').optional(),
  withoutKeys: z.boolean().default(false),
  allowUnsigned: z.boolean().default(false),
  unexpected: z.array(z.string()).max(0, 'takes one file'),
});

/**
 * `import <file>`: an export into a store whose log is empty, then the read models built from
 * it. An empty log, not merely one without that workspace: process managers start at the head
 * of the log they first see, so imported events can never look new to them and replay side
 * effects (webhook deliveries, scheduled callbacks) already done in the source.
 */
export async function importWorkspace(config: Config, input: Partial<z.input<typeof importArguments>>, output: CliOutput): Promise<void> {
  const { file, keys: keysPath, withoutKeys, allowUnsigned } = parseArguments('import', importArguments, input);
  // The checks come before the target store is opened, which would create it.
  const { header, events, signed, chained, fileSha256 } = await checkFile(file, config.exportSigningKey ?? null, allowUnsigned, output);
  if (config.exportSigningKey && !signed) {
    output.log(
      'import: WARNING: the export is unsigned and EXPORT_SIGNING_KEY is set; imported anyway because of --allow-unsigned. ' +
        'Its chain hashes show only accidental damage: anyone can edit an unsigned export and recompute them',
    );
  }
  const keys = await keysFor(header, keysPath, withoutKeys);
  if (keys.dataKey !== null) await checkDataKeyOpens(config, header.workspaceId, keys.dataKey, keys.itemKeys);
  // Held before undoOnFailure looks at DATA_DIR: what appears there meanwhile is this import's alone.
  const { appended, projected } = await holdingDataDir(config, 'import', () =>
    undoOnFailure(config.dataDir, () =>
      withOpenStores(config, async (stores) => {
        if ((await stores.events.readAll({ maxCount: 1 })).length > 0) {
          throw new Error('import: the event store is not empty; import needs a store without any events (do not start the service on it before importing)');
        }
        if (keys.dataKey !== null) await restoreDataKey(stores.dataKeys, header.workspaceId, keys.dataKey);
        await restoreItemKeys(stores.itemKeys, header.workspaceId, keys.itemKeys);
        const appended = await appendEvents(stores, file, events, output);
        await recordImport(stores.events, { workspaceId: header.workspaceId, events, fileSha256, signed, keysImported: keysPath !== undefined || header.wrappedDataKey !== undefined });
        // Signed at once: the imported log has no unprotected tail for `verify` to report.
        if (stores.chain) await stores.chain.audit.writeCheckpoint('periodic', stores.chain.key);
        return { appended, projected: await buildReadModels(stores, output) };
      }),
    ),
  );
  output.log(`imported workspace ${header.workspaceId}: ${throughput(events, appended)}; read models built from ${throughput(projected.events, projected.elapsedMs)}`);
  output.log(
    `checked before writing: ${signed ? 'the signature (EXPORT_SIGNING_KEY)' : 'no signature (the export is unsigned)'}, ` +
      `${chained ? "each event's chain hash" : events === 0 ? 'no events' : 'no chain hashes (an export written before the chain)'}`,
  );
}

interface ImportedKeys {
  readonly dataKey: string | null;
  readonly itemKeys: readonly { itemId: string; wrapped: string }[];
}

/** The keys to restore: from the key file, or (version 1 exports) from the header. */
async function keysFor(header: ExportHeader, keysPath: string | undefined, withoutKeys: boolean): Promise<ImportedKeys> {
  if (keysPath !== undefined && withoutKeys) throw new Error('import: --keys and --without-keys exclude each other');
  if (keysPath === undefined) {
    if (header.wrappedDataKey !== undefined) return { dataKey: header.wrappedDataKey, itemKeys: [] };
    if (withoutKeys) return { dataKey: null, itemKeys: [] };
    throw new Error(
      'import: this export keeps its keys in a separate file: pass --keys <file> (written by export --keys-out), or --without-keys to import it without them (encrypted and personal-data values then stay unreadable)',
    );
  }
  const keys = await readKeyFile(keysPath);
  if (keys.workspaceId !== header.workspaceId) throw new Error(`import: the key file is workspace ${keys.workspaceId}'s, the export workspace ${header.workspaceId}'s`);
  return { dataKey: keys.wrappedDataKey, itemKeys: keys.itemKeys };
}

async function checkFile(file: string, signingKey: Buffer | null, allowUnsigned: boolean, output: CliOutput): Promise<CheckedExport> {
  const bar = progressBar(output, 'check', '{value}/{total} bytes');
  bar.start(1, 0);
  try {
    return await checkExportFile(file, { key: signingKey, allowUnsigned }, (bytesRead, size) => {
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
  const bar = progressBar(output, 'project', '{events} events | {rate} events/s | {phase}');
  const startedAt = Date.now();
  let events = 0;
  bar.start(POSITION_STEPS, 0, { events: 0, rate: 0, phase: 'replaying' });
  try {
    await rebuildReadModels(stores.readableEvents, stores.readStore, readModelProjectors, null, (progress) => {
      events = progress.eventsProcessed;
      const steps = progress.phase === 'done' ? POSITION_STEPS : positionSteps(progress.position, progress.head);
      bar.update(steps, { events, rate: eventsPerSecond(events, Date.now() - startedAt), phase: progress.phase });
    });
  } finally {
    bar.stop();
  }
  return { events, elapsedMs: Date.now() - startedAt };
}
