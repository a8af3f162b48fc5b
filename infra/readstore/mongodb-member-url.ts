/** `mongodb://` then user info (up to the last `@` before the hosts), the host list, and the rest (`/db?options`). */
const STANDARD_URL = /^mongodb:\/\/(?:([^/?]*)@)?([^/?@]*)(\/[^?]*)?(?:\?(.*))?$/;

/**
 * The URL of one member of the replica set `url` names, connected to directly (to ask that member
 * itself, as `$indexStats` must be), with the same credentials and options. Null for a
 * `mongodb+srv://` URL, whose options partly come from DNS and which cannot connect directly.
 */
export function memberUrl(url: string, address: string): string | null {
  const match = STANDARD_URL.exec(url);
  if (!match) return null;
  const [, userInfo, , path, query] = match;
  const options = new URLSearchParams(query ?? '');
  for (const key of [...options.keys()]) if (key.toLowerCase() === 'directconnection') options.delete(key);
  options.set('directConnection', 'true');
  return `mongodb://${userInfo === undefined ? '' : `${userInfo}@`}${address}${path ?? '/'}?${options.toString()}`;
}
