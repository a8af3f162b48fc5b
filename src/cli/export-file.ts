import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { exportLine, type ExportedEvent, type ExportHeader, type ExportLine } from './export-format';

export interface NumberedLine {
  /** 1-based, as an editor shows it. */
  readonly number: number;
  readonly line: ExportLine;
  /** Bytes of the file read so far (read ahead of this line), for a progress bar. */
  readonly bytesRead: number;
}

class ExportFileError extends Error {
  constructor(lineNumber: number, problem: string) {
    super(`line ${lineNumber}: ${problem}`);
    this.name = 'ExportFileError';
  }
}

/** The lines of an export file, each parsed and checked on its own as it is read; a bad one throws naming its number. */
export async function* readExportFile(path: string): AsyncGenerator<NumberedLine> {
  const input = createReadStream(path);
  let number = 0;
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      number++;
      yield { number, line: parseLine(text, number), bytesRead: input.bytesRead };
    }
  } finally {
    input.destroy();
  }
}

function parseLine(text: string, number: number): ExportLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ExportFileError(number, 'is not JSON');
  }
  const parsed = exportLine.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ExportFileError(number, issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message);
}

export interface CheckedExport {
  readonly header: ExportHeader;
  readonly events: number;
}

/**
 * Reads the whole file once before anything is written, so that a bad file leaves the store
 * untouched: a header first, events of that workspace with each stream's revisions going
 * 0, 1, 2, ..., and a summary last that counts them (a cut-off file has none). Only the last
 * revision of each stream is kept in memory.
 */
export async function checkExportFile(path: string, onProgress: (bytesRead: number, size: number) => void): Promise<CheckedExport> {
  const { size } = await stat(path);
  let header: ExportHeader | null = null;
  let summarised = false;
  let events = 0;
  const lastRevisions = new Map<string, number>();
  for await (const { number, line, bytesRead } of readExportFile(path)) {
    if (summarised) throw new ExportFileError(number, 'follows the summary line, which must be the last');
    if (line.kind === 'header') {
      if (header) throw new ExportFileError(number, 'a second header line');
      header = line;
    } else if (!header) {
      throw new ExportFileError(number, 'the first line must be the header');
    } else if (line.kind === 'event') {
      checkEvent(line, number, header.workspaceId, lastRevisions);
      events++;
    } else {
      if (line.events !== events) throw new ExportFileError(number, `the summary counts ${line.events} events, the file holds ${events}`);
      summarised = true;
    }
    if (number % 1000 === 0) onProgress(bytesRead, size);
  }
  if (!header) throw new Error(`${path} is empty`);
  if (!summarised) throw new Error(`${path} ends without its summary line: the export is incomplete`);
  onProgress(size, size);
  return { header, events };
}

function checkEvent(event: ExportedEvent, number: number, workspaceId: string, lastRevisions: Map<string, number>): void {
  if (event.metadata.workspaceId !== workspaceId) {
    throw new ExportFileError(number, `event of workspace ${String(event.metadata.workspaceId)} in the export of workspace ${workspaceId}`);
  }
  const last = lastRevisions.get(event.stream);
  const expected = last === undefined ? 0 : last + 1;
  if (event.revision !== expected) {
    throw new ExportFileError(number, `stream ${event.stream} jumps to revision ${event.revision}; revision ${expected} was expected`);
  }
  lastRevisions.set(event.stream, event.revision);
}
