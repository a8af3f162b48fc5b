import type { ReadStore } from '../infra/readstore/port';
import { API_KEY_LIST, type ListedApiKeyDocument } from '../projections/read-models/api-key-list';
import { APPS, type AppDocument } from '../projections/read-models/apps';
import type { Attribution } from '../src/domain/audit/actor';

/**
 * Names for actors whose events predate attribution: a key's or app's name as it is now,
 * from the key listing (revoked keys stay in it) and the apps. One query per kind.
 */
export class ActorNames {
  constructor(private readonly store: ReadStore) {}

  async fillIn<T extends Attribution>(entries: readonly T[]): Promise<T[]> {
    const unnamed = (kind: Attribution['actorKind']) => [
      ...new Set(entries.filter((entry) => entry.actorKind === kind && entry.actorName === null).map((entry) => entry.actorId)),
    ];
    const [keys, apps] = await Promise.all([
      this.store.getMany<ListedApiKeyDocument>(API_KEY_LIST, unnamed('apiKey')),
      this.store.getMany<AppDocument>(APPS, unnamed('app')),
    ]);
    const names = new Map<string, string | null>([
      ...keys.map((key) => [`apiKey:${key.id}`, key.name] as const),
      ...apps.map((app) => [`app:${app.id}`, app.name] as const),
    ]);
    return entries.map((entry) => (entry.actorName === null && names.get(`${entry.actorKind}:${entry.actorId}`) ? { ...entry, actorName: names.get(`${entry.actorKind}:${entry.actorId}`)! } : entry));
  }
}
