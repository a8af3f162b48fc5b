import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

const RANGE_NAMES: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique local address',
  unspecified: 'an unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
};

/** Why `address` may not be a target, or null when it is public unicast. IPv4-mapped IPv6 is judged as its IPv4 address. */
function refusal(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return null;
  return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
}

/** Ends every refusal: where the refused target came from (a webhook, a callback, an action) the operator reads what allows it. */
const DEVELOPMENT_HINT = ' (ALLOW_PRIVATE_TARGETS=true allows loopback and private targets in development)';

/** A target the guard refused; the request never left the machine. */
export class RefusedTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedTargetError';
  }
}

/** The refusal of an IP-literal host, which sockets connect to without calling `lookup`. */
export function refuseAddress(address: string): RefusedTargetError | null {
  const reason = refusal(address);
  return reason === null ? null : new RefusedTargetError(`refused: ${address} is ${reason}${DEVELOPMENT_HINT}`);
}

/**
 * A `lookup` for sockets: resolves every address of the host and fails when any is not public
 * unicast. The socket connects to an address checked here, so a DNS answer that changes between
 * a check and the connect (rebinding) cannot slip through.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '');
    for (const { address } of addresses) {
      const reason = refusal(address);
      if (reason !== null) return callback(new RefusedTargetError(`refused: ${hostname} resolves to ${address}, ${reason}${DEVELOPMENT_HINT}`), '');
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
