/** How a workspace or app key travels: the service accepts both on every endpoint. */
export type KeyPlacement = 'x-api-key' | 'bearer';

export function bearerHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export function keyHeaders(key: string, placement: KeyPlacement = 'x-api-key'): Record<string, string> {
  return placement === 'bearer' ? bearerHeaders(key) : { 'x-api-key': key };
}
