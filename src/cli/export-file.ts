import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { eventHash } from '../../infra/eventstore/chain';
import { exportLine, type ExportedEvent, type ExportHeader, type ExportLine, type ExportSummary } from './export-format';
import { ExportSignature, signatureMatches } from './export-signature';

export interface NumberedLine {
  /** 1-based, as an editor shows it. */
  readonly number: number;
  readonly line: ExportLine;
  /** The line as it stands in the file, without its line end: what the signature covers. */
  readonly text: string;
  /** Bytes of the file read so far (read ahead of this line), for a progress bar. */
  readonly bytesRead: number;
}

class ExportFileError extends Error {
  constructor(lineNumber: number, problem: string) {
    super(`line ${lineNumber}: ${problem}`);
    this.name = 'ExportFileError';
  }
}

/** The lines of an export file, each parsed and checked on its own as it is read; a bad one throws naming its number. `onBytes` sees the file's bytes as read. */
export async function* readExportFile(path: string, onBytes?: (chunk: Buffer) => void): AsyncGenerator<NumberedLine> {
  const input = createReadStream(path);
  if (onBytes) input.on('data', (chunk) => onBytes(chunk as Buffer));
  let number = 0;
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      number++;
      yield { number, line: parseLine(text, number), text, bytesRead: input.bytesRead };
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
  /** Whether the file carried a signature (then checked with EXPORT_SIGNING_KEY) and each event its chain hash. */
  readonly signed: boolean;
  readonly chained: boolean;
  /** Hex SHA-256 of the file's bytes as checked. */
  readonly fileSha256: string;
}

/**
 * Reads the whole file once before anything is written, so that a bad file leaves the store
 * untouched: a header first, events of that workspace with each stream's revisions going
 * 0, 1, 2, ... and each event's hash linking onto the one before it, and a summary last that
 * counts them (a cut-off file has none) and, when a signing key is given, carries the signature
 * of everything before it (or none, when the operator allowed unsigned files). Only the last
 * revision and hash of each stream are kept in memory.
 */
export async function checkExportFile(
  path: string,
  signing: { readonly key: Buffer | null; readonly allowUnsigned: boolean },
  onProgress: (bytesRead: number, size: number) => void,
): Promise<CheckedExport> {
  const signingKey = signing.key;
  const { size } = await stat(path);
  let header: ExportHeader | null = null;
  let summary: { signed: boolean } | null = null;
  let events = 0;
  let hashed = 0;
  const signature = signingKey ? new ExportSignature(signingKey) : null;
  const heads = new Map<string, StreamHead>();
  const fileHash = createHash('sha256');
  for await (const { number, line, text, bytesRead } of readExportFile(path, (chunk) => fileHash.update(chunk))) {
    if (summary) throw new ExportFileError(number, 'follows the summary line, which must be the last');
    if (line.kind === 'header') {
      if (header) throw new ExportFileError(number, 'a second header line');
      header = line;
    } else if (!header) {
      throw new ExportFileError(number, 'the first line must be the header');
    } else if (line.kind === 'event') {
      checkEvent(line, number, header.workspaceId, heads);
      events++;
      if (line.hash) hashed++;
      if (hashed !== 0 && hashed !== events) throw new ExportFileError(number, 'some events carry a chain hash and others do not: hashes were removed');
    } else {
      if (line.events !== events) throw new ExportFileError(number, `the summary counts ${line.events} events, the file holds ${events}`);
      checkSignature(line, number, signature, signing.allowUnsigned);
      summary = { signed: line.signature !== undefined };
    }
    if (line.kind !== 'summary') signature?.addLine(text);
    if (number % 1000 === 0) onProgress(bytesRead, size);
  }
  if (!header) throw new Error(`${path} is empty`);
  if (!summary) throw new Error(`${path} ends without its summary line: the export is incomplete`);
  onProgress(size, size);
  return { header, events, signed: summary.signed, chained: events > 0 && hashed === events, fileSha256: fileHash.digest('hex') };
}

interface StreamHead {
  readonly revision: number;
  readonly hash: Buffer | null;
}

function checkEvent(event: ExportedEvent, number: number, workspaceId: string, heads: Map<string, StreamHead>): void {
  if (event.metadata.workspaceId !== workspaceId) {
    throw new ExportFileError(number, `event of workspace ${String(event.metadata.workspaceId)} in the export of workspace ${workspaceId}`);
  }
  const last = heads.get(event.stream);
  const expected = last === undefined ? 0 : last.revision + 1;
  if (event.revision !== expected) {
    throw new ExportFileError(number, `stream ${event.stream} jumps to revision ${event.revision}; revision ${expected} was expected`);
  }
  if (event.hash && eventHash(event, event.revision, last?.hash ?? null).toString('hex') !== event.hash) {
    throw new ExportFileError(
      number,
      `stream ${event.stream} revision ${event.revision}: its hash does not match its content and the hash before it: the event was changed after it was exported`,
    );
  }
  heads.set(event.stream, { revision: event.revision, hash: event.hash ? Buffer.from(event.hash, 'hex') : null });
}

function checkSignature(summary: ExportSummary, number: number, signature: ExportSignature | null, allowUnsigned: boolean): void {
  if (!signature) {
    if (summary.signature !== undefined) {
      throw new ExportFileError(number, 'the export is signed, and no EXPORT_SIGNING_KEY is set to check it: set the exporting installation\'s key');
    }
    return;
  }
  if (summary.signature === undefined) {
    if (allowUnsigned) return;
    throw new ExportFileError(
      number,
      'the export carries no signature, and EXPORT_SIGNING_KEY is set: an unsigned export is refused (anyone can edit one and recompute its chain hashes); pass --allow-unsigned to import it anyway',
    );
  }
  const { kind, events } = summary;
  if (!signatureMatches(signature.finish({ kind, events }), summary.signature)) {
    throw new ExportFileError(number, 'the signature does not match: the file was changed after export, or signed with another EXPORT_SIGNING_KEY');
  }
}
