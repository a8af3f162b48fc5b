import type { IndexDefinition } from './port';

/**
 * What tells index definitions apart, hashed into index names so that declaring an index again
 * finds it by name. An index without `descending` (or `covering`) is written as before that option
 * existed, so indexes built by earlier versions keep their names.
 */
export function indexIdentity(index: IndexDefinition): string {
  const descending = index.descending ?? [];
  const identity: unknown[] = [index.fields, index.unique === true];
  if (index.text !== undefined || descending.length > 0 || index.covering) identity.push(index.text ?? null);
  if (descending.length > 0 || index.covering) identity.push(descending);
  if (index.covering) identity.push('covering');
  return JSON.stringify(identity);
}
