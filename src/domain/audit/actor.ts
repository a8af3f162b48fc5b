import type { ActorKind, EventMetadata } from '../../../infra/eventstore/port';

/** Who caused an event, as the audit trail shows it. */
export interface Attribution {
  /** `other` for actors older events name without a kind (e.g. `action-callback`). */
  readonly actorKind: ActorKind | 'other';
  readonly actorId: string;
  /** The name at the time; null when the credential had none or the event predates attribution. */
  readonly actorName: string | null;
}

/**
 * The attribution an event records, or for events written before it was recorded, what its
 * `actor` tells (`key:<id>`, `app:<id>`, `admin`, `system`) without a name. Admin events
 * of that time were all made with the one admin token, which is named `admin`.
 */
export function attributionOf(metadata: EventMetadata): Attribution {
  if (metadata.actorKind && metadata.actorId !== undefined) {
    return { actorKind: metadata.actorKind, actorId: metadata.actorId, actorName: metadata.actorName ?? null };
  }
  const [prefix, ...rest] = metadata.actor.split(':');
  const id = rest.join(':');
  if (prefix === 'key' && id) return { actorKind: 'apiKey', actorId: id, actorName: null };
  if (prefix === 'app' && id) return { actorKind: 'app', actorId: id, actorName: null };
  if (prefix === 'sak' && id) return { actorKind: 'sharedAccessKey', actorId: id, actorName: null };
  if (metadata.actor === 'admin') return { actorKind: 'admin', actorId: 'admin', actorName: 'admin' };
  if (metadata.actor === 'system') return { actorKind: 'system', actorId: 'system', actorName: null };
  return { actorKind: 'other', actorId: metadata.actor, actorName: null };
}
