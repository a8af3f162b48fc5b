import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { systemClock } from '../../infra/clock';
import type { EventMetadata } from '../../infra/eventstore/port';

/**
 * The metadata of a record the operator CLI appends. The CLI runs on the host, outside any API
 * credential: it is attributed to the operating-system user and host that ran it.
 */
export function cliRecordMetadata(workspaceId: string): EventMetadata {
  const operator = `${userInfo().username}@${hostname()}`;
  return {
    workspaceId,
    actor: 'cli',
    actorKind: 'system',
    actorId: 'cli',
    actorName: operator.slice(0, 200),
    correlationId: randomUUID(),
    timestamp: systemClock.now().toISOString(),
  };
}
