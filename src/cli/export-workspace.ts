import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { systemClock } from '../../infra/clock';
import { workspaceStream } from '../domain/workspace/events';
import type { Config } from '../config';
import { parseArguments } from './arguments';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedEvent, type ExportHeader, type ExportSummary } from './export-format';
import { positionToString, type Position } from '../../infra/eventstore/port';
import { KEY_FILE_FORMAT, type KeyFile, writeKeyFile } from './key-file';
import { recordExport } from './export-record';
import { ExportSignature } from './export-signature';
import { logPages } from './log-pages';
import type { CliOutput } from './output';
import { eventsPerSecond, POSITION_STEPS, positionSteps, progressBar } from './progress';
import { type Stores, withStores } from './stores';

const exportArguments = z.object({
  workspaceId: z.guid({ error: 'needs the id of the workspace to export (a UUID)' }),
  out: z.string().min(1, '--out needs a file name').optional(),
  keysOut: z.string().min(1, '--keys-out needs a file name').optional(),
  unexpected: z.array(z.string()).max(0, 'takes one workspace id'),
});

/**
 * `export <workspaceId> [--out file] [--keys-out file]`: the workspace's event log as NDJSON, to
 * the file or to stdout; its wrapped keys only to the key file, kept apart (docs/operations.md).
 * A complete export is recorded in the log (export-record.ts), after the events it holds.
 */
export async function exportWorkspace(config: Config, input: Partial<z.input<typeof exportArguments>>, output: CliOutput): Promise<void> {
  const { workspaceId, out, keysOut } = parseArguments('export', exportArguments, input);
  if (keysOut !== undefined && keysOut === out) throw new Error('export: --keys-out must name another file than --out: the keys are kept apart from the events');
  const bar = progressBar(output, 'export', '{events} events | {rate} events/s');
  const startedAt = Date.now();
  bar.start(POSITION_STEPS, 0, { events: 0, rate: 0 });
  let exported = 0;
  try {
    await withStores(config, 'export', async (stores) => {
      if ((await stores.events.readStream(workspaceStream(workspaceId), { maxCount: 1 })).length === 0) {
        throw new Error(`export: workspace ${workspaceId} does not exist in this store`);
      }
      // Events appended while the export runs (a service on a shared database) are left out: the export ends at this head.
      const head = await stores.events.headPosition();
      const lines = exportLines(stores, workspaceId, head, config.exportSigningKey ?? null, (events, steps) => {
        exported = events;
        bar.update(steps, { events, rate: eventsPerSecond(events, Date.now() - startedAt) });
      });
      const fileHash = createHash('sha256');
      if (out) await pipeline(Readable.from(lines), withLineEnds, hashedBy(fileHash), createWriteStream(out));
      else {
        for await (const line of lines) {
          output.log(line);
          fileHash.update(`${line}\n`);
        }
      }
      if (keysOut) await writeKeyFile(keysOut, await keysOf(stores, workspaceId));
      await recordExport(stores.events, {
        workspaceId,
        events: exported,
        through: positionToString(head),
        fileSha256: fileHash.digest('hex'),
        signed: config.exportSigningKey !== undefined,
        keysExported: keysOut !== undefined,
      });
    });
  } finally {
    bar.stop();
  }
  // Stdout carries the export itself: nothing else may go there.
  if (out) output.log(`exported ${exported} events of workspace ${workspaceId} to ${out}, ${config.exportSigningKey ? 'signed with EXPORT_SIGNING_KEY' : 'unsigned (no EXPORT_SIGNING_KEY)'}`);
  if (out && keysOut) output.log(`wrote the workspace's keys, wrapped by ENCRYPTION_KEY, to ${keysOut}: store it apart from the export`);
  else if (out) output.log('exported no keys (no --keys-out): encrypted and personal-data values of an import of this file stay unreadable');
}

/** Read after the events: a key shredded meanwhile is left out, a key created meanwhile opens nothing of this export. */
async function keysOf(stores: Stores, workspaceId: string): Promise<KeyFile> {
  return {
    format: KEY_FILE_FORMAT,
    version: 1,
    workspaceId,
    exportedAt: systemClock.now().toISOString(),
    wrappedDataKey: await stores.dataKeys.get(workspaceId),
    itemKeys: await stores.itemKeys.list(workspaceId),
  };
}

/** The export's NDJSON lines, read from the log one page at a time. */
async function* exportLines(
  stores: Stores,
  workspaceId: string,
  head: Position,
  signingKey: Buffer | null,
  onProgress: (events: number, steps: number) => void,
): AsyncGenerator<string> {
  const signature = signingKey ? new ExportSignature(signingKey) : null;
  const line = (value: object) => {
    const text = JSON.stringify(value);
    signature?.addLine(text);
    return text;
  };
  const header: ExportHeader = {
    kind: 'header',
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    workspaceId,
    exportedAt: systemClock.now().toISOString(),
  };
  yield line(header);
  let events = 0;
  for await (const page of logPages(stores.events, head)) {
    for (const event of page) {
      if (event.metadata.workspaceId !== workspaceId) continue;
      const record: ExportedEvent = {
        kind: 'event',
        stream: event.stream,
        revision: event.revision,
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        ...(event.hash ? { hash: event.hash } : {}),
      };
      yield line(record);
      events++;
    }
    onProgress(events, positionSteps(page[page.length - 1]!.position, head));
  }
  const summary: ExportSummary = { kind: 'summary', events };
  yield JSON.stringify(signature ? { ...summary, signature: signature.finish(summary) } : summary);
  onProgress(events, POSITION_STEPS);
}

async function* withLineEnds(lines: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const text of lines) yield `${text}\n`;
}

/** Passes the text through, feeding it to `hash`: the digest of exactly what was written. */
function hashedBy(hash: Hash) {
  return async function* (chunks: AsyncIterable<string>): AsyncGenerator<string> {
    for await (const chunk of chunks) {
      hash.update(chunk);
      yield chunk;
    }
  };
}
