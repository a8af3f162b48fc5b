import type { EventStore } from '../../infra/eventstore/port';
import { cliRecordMetadata } from './cli-actor';

/** What the audit trail keeps of a CLI import: never a key, a value or the file's name. */
export interface ImportRecord {
  readonly workspaceId: string;
  /** How many events the file held (all of them were appended). */
  readonly events: number;
  /** Hex SHA-256 of the file's bytes as checked: the `fileSha256` of the export that wrote it. */
  readonly fileSha256: string;
  /** Whether the file carried a signature, checked with EXPORT_SIGNING_KEY (an unsigned one is imported only with --allow-unsigned when a key is set). */
  readonly signed: boolean;
  /** Whether the export's keys came with it (a key file, or a version 1 header), or were left out on purpose (--without-keys). */
  readonly keysImported: boolean;
}

export const importRecordStream = (workspaceId: string) => `workspaceimport-${workspaceId}`;

/**
 * Appends the import's audit record (WorkspaceImported) after the imported events, so the
 * imported log says itself where it came from; the read models built next show it in the feed.
 */
export async function recordImport(events: EventStore, record: ImportRecord): Promise<void> {
  await events.append(importRecordStream(record.workspaceId), [{ type: 'WorkspaceImported', data: { ...record }, metadata: cliRecordMetadata(record.workspaceId) }], 'any');
}
