import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { type Position, positionFromString, comparePositions } from './port';

/**
 * Each event carries a MAC of its content digest (chain.ts) under a key derived from the master
 * key, which the database never holds: the hash chain proves an event's place, the MAC proves
 * the service wrote it. A row inserted with the service's own grants can carry a correct link
 * (the chain holds no secret) but not a MAC that verifies.
 */
export function eventMacKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'cms event-log event MACs', 32));
}

export function eventMac(key: Buffer, contentDigest: Buffer): Buffer {
  return createHmac('sha256', key).update(contentDigest).digest();
}

/** Whether `mac` (hex) is the MAC of `contentDigest`, compared in constant time. */
export function eventMacValid(key: Buffer, contentDigest: Buffer, mac: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(eventMac(key, contentDigest), Buffer.from(mac, 'hex'));
}

/**
 * Written once, when a store's events begin to carry MACs, and signed with the checkpoint key:
 * events after `after` must carry one, and exactly `eventsBefore` events lie at or before it.
 * Without the marker an owner could delete MACs and claim the events predate them; without
 * the count, insert an event without one into the older part of the log.
 */
export interface MacMarkerBody {
  readonly kind: 'event-macs';
  readonly at: string;
  /** The last log position (commit/prepare) when MACs began; null when the log was empty. */
  readonly after: string | null;
  readonly eventsBefore: number;
}

export interface MacMarker {
  readonly body: MacMarkerBody;
  /** Hex HMAC-SHA-256 of the canonical body under the checkpoint key; null when none was configured. */
  readonly signature: string | null;
}

export function signMacMarker(body: MacMarkerBody, checkpointKey: Buffer): string {
  return createHmac('sha256', checkpointKey).update(canonicalJson(body), 'utf8').digest('hex');
}

export function macMarkerSignatureValid(marker: MacMarker, checkpointKey: Buffer): boolean {
  if (marker.signature === null || !/^[0-9a-f]{64}$/.test(marker.signature)) return false;
  return timingSafeEqual(Buffer.from(signMacMarker(marker.body, checkpointKey), 'hex'), Buffer.from(marker.signature, 'hex'));
}

/** Whether an event at `position` must carry a MAC: every one after the marker's position, and every one when there is no marker to trust. */
export function macRequired(marker: MacMarker | null, position: Position): boolean {
  if (marker === null) return true;
  return marker.body.after === null || comparePositions(position, positionFromString(marker.body.after)) > 0;
}

/** The marker when its signature verifies; null otherwise, so that every event must then carry a MAC. */
export function trustedMarker(marker: MacMarker | null, checkpointKey: Buffer): MacMarker | null {
  return marker && macMarkerSignatureValid(marker, checkpointKey) ? marker : null;
}
