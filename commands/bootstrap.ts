import { randomUUID } from 'node:crypto';
import type { Clock } from '../infra/clock';
import { randomToken, sha256Hex } from '../infra/crypto/credentials';
import { type EventStore, WrongExpectedRevisionError } from '../infra/eventstore/port';
import { SERVICE_STREAM, type ServiceEvent } from '../src/domain/service/events';
import type { WorkspaceCommands } from './workspaces';

export interface BootstrapReport {
  /** Present only when the token was generated (ADMIN_TOKEN unset). */
  readonly adminToken: string | null;
  readonly workspaceId: string;
  readonly readKey: string;
  readonly writeKey: string;
}

const SYSTEM = { workspaceId: null, actor: 'system', actorKind: 'system', actorId: 'system', actorName: null } as const;

/**
 * First start of an empty store: claims the bootstrap stream with "no stream" (so one
 * instance wins when several start together), then creates the default workspace and a
 * read key and a write key. Returns null when the store was bootstrapped before.
 */
export async function bootstrapService(
  events: EventStore,
  workspaces: WorkspaceCommands,
  clock: Clock,
  configuredAdminToken: string | undefined,
): Promise<BootstrapReport | null> {
  if ((await events.readStream(SERVICE_STREAM, { maxCount: 1 })).length > 0) return null;
  const adminToken = configuredAdminToken ?? randomToken();
  const workspaceId = randomUUID();
  const claimed: ServiceEvent = {
    type: 'ServiceBootstrapped',
    data: { adminTokenHash: configuredAdminToken ? null : sha256Hex(adminToken), defaultWorkspaceId: workspaceId },
  };
  try {
    await events.append(
      SERVICE_STREAM,
      [{ ...claimed, metadata: { ...SYSTEM, correlationId: randomUUID(), timestamp: clock.now().toISOString() } }],
      'no_stream',
    );
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return null;
    throw error;
  }
  await workspaces.create({ name: 'Default' }, SYSTEM, workspaceId);
  const readKey = await workspaces.issueApiKey(workspaceId, 'default read key', ['ReadAccess'], SYSTEM);
  const writeKey = await workspaces.issueApiKey(workspaceId, 'default write key', ['WriteAccess'], SYSTEM);
  return { adminToken: configuredAdminToken ? null : adminToken, workspaceId, readKey: readKey.key, writeKey: writeKey.key };
}
