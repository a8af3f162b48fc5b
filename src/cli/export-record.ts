import type { EventStore } from '../../infra/eventstore/port';
import { cliRecordMetadata } from './cli-actor';

/** What the audit trail keeps of a CLI export: never a key, a value or the file's name. */
export interface ExportRecord {
  readonly workspaceId: string;
  /** How many events the file holds, and the log position it ends at. */
  readonly events: number;
  readonly through: string;
  /** Hex SHA-256 of the file's bytes, as written (or as printed to stdout). */
  readonly fileSha256: string;
  readonly signed: boolean;
  readonly keysExported: boolean;
}

export const exportRecordStream = (workspaceId: string) => `workspaceexport-${workspaceId}`;

/**
 * Appends the export's audit record (WorkspaceExported) once the file is complete. It comes
 * after the head the export ended at, so it is never in the file it describes; the next export
 * carries it.
 */
export async function recordExport(events: EventStore, record: ExportRecord): Promise<void> {
  await events.append(exportRecordStream(record.workspaceId), [{ type: 'WorkspaceExported', data: { ...record }, metadata: cliRecordMetadata(record.workspaceId) }], 'any');
}
