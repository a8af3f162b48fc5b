import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/**
 * What a store keeps besides its events so that the chain can be audited: a signed checkpoint
 * over every stream's head from time to time, and the head it records per stream. A checkpoint
 * commits to all events before it (each head hash covers its whole stream), so deleting a whole
 * stream or cutting events off the end of streams is caught, not only edits inside a chain.
 */
export interface CheckpointBody {
  /** `upgrade`: written when an existing log was chained at start; `periodic` otherwise. */
  readonly kind: 'upgrade' | 'periodic';
  readonly at: string;
  /** The database snapshot (`xmin:xmax:xip,...`) whose committed events it covers. */
  readonly snapshot: string;
  readonly streams: number;
  readonly events: number;
  /** Hex SHA-256 over `streamHeadsDigest` lines. */
  readonly digest: string;
}

export interface Checkpoint {
  readonly id: number;
  readonly body: CheckpointBody;
  /** Hex HMAC-SHA-256 of the canonical body; null when no key was configured. */
  readonly signature: string | null;
}

export interface StreamHead {
  readonly stream: string;
  readonly revision: number;
  readonly hash: string;
}

export interface ChainAudit {
  /** Oldest first. */
  checkpoints(): Promise<Checkpoint[]>;
  writeCheckpoint(kind: CheckpointBody['kind'], key: Buffer | null): Promise<Checkpoint>;
  /** The head each stream records (es_streams), in pages. */
  streamHeads(): AsyncGenerator<StreamHead[]>;
}

/** The checkpoint key is derived from the master key, which the database never holds. */
export function checkpointKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'cms event-log checkpoints', 32));
}

export function signCheckpoint(body: CheckpointBody, key: Buffer): string {
  return createHmac('sha256', key).update(canonicalJson(body), 'utf8').digest('hex');
}

export function checkpointSignatureValid(checkpoint: Checkpoint, key: Buffer): boolean {
  if (checkpoint.signature === null || !/^[0-9a-f]{64}$/.test(checkpoint.signature)) return false;
  return timingSafeEqual(Buffer.from(signCheckpoint(checkpoint.body, key), 'hex'), Buffer.from(checkpoint.signature, 'hex'));
}

/** Streams ordered by the bytes of their UTF-8 names, as PostgreSQL's "C" collation orders them. */
export function compareStreamNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Feeds heads given in `compareStreamNames` order; `digest()` answers the hex SHA-256. */
export class HeadsDigest {
  private readonly hash = createHash('sha256');
  streams = 0;
  events = 0;

  add(head: StreamHead): void {
    this.hash.update(`${JSON.stringify(head.stream)}\t${head.revision}\t${head.hash}\n`, 'utf8');
    this.streams++;
    this.events += head.revision + 1;
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** Whether a transaction id is committed as seen by `snapshot` (`xmin:xmax:xip,...`), as pg_visible_in_snapshot decides. */
export function visibleInSnapshot(xid: bigint, snapshot: string): boolean {
  const [xmin, xmax, running] = snapshot.split(':');
  if (xid < BigInt(xmin!)) return true;
  if (xid >= BigInt(xmax!)) return false;
  return !(running ?? '').split(',').filter(Boolean).some((id) => BigInt(id) === xid);
}
