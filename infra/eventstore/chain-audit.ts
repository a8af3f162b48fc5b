import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/**
 * What a store keeps besides its events so that the chain can be audited: a signed checkpoint
 * over every stream's head from time to time, and the head it records per stream. A checkpoint
 * commits to all events before it (each head hash covers its whole stream), so deleting a whole
 * stream or cutting events off the end of streams is caught, not only edits inside a chain.
 *
 * Since issue 29 checkpoints only extend: each names its own id and its predecessor's digest,
 * and is signed only once the signer has checked that the log extends the predecessor (every
 * head it signed is on the chain of today's head), so a later checkpoint cannot launder an
 * earlier change. It also signs the global order of the events it adds (`order`).
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
  /** Its own id, so that the signature covers the numbering. Absent from older checkpoints. */
  readonly id?: number;
  /** `checkpointDigest` of the checkpoint before it; null for the first. Absent from older checkpoints. */
  readonly previous?: string | null;
  /** The events its snapshot sees that its predecessor's did not, in log order. Absent from older checkpoints. */
  readonly order?: LogOrder;
}

/** The global order of the events a checkpoint adds (see OrderDigest). */
export interface LogOrder {
  readonly added: number;
  /** Hex SHA-256 over one `commit/prepare\tstream\trevision` line per added event, in log order. */
  readonly digest: string;
  /** The last position (commit/prepare) its snapshot sees in the whole log; null while the log is empty. */
  readonly last: string | null;
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

/** What the database itself says about the guards around the log (read by `cms verify`, restored at start). */
export interface EventTableGuards {
  /** Whether the event tables exist: a store no process has written to has none, and nothing to guard. */
  readonly tables: boolean;
  /** Triggers of the immutability set that are missing, disabled or not as created (`table.trigger: why`). */
  readonly triggers: readonly string[];
  /** es_events accepts events without a hash: the mark of a log written before the chain, which a start would chain. */
  readonly preChain: boolean;
  /** The highest checkpoint id the id sequence has handed out or been set to; null when it never has. */
  readonly checkpointIdsIssued: number | null;
  /** Whether this role may read the id sequence at all: without SELECT on it, `checkpointIdsIssued` is null whatever was issued. */
  readonly checkpointIdsReadable: boolean;
}

export interface ChainAudit {
  /** Oldest first. */
  checkpoints(): Promise<Checkpoint[]>;
  /** Oldest first, a page at a time. */
  checkpointPages(): AsyncGenerator<Checkpoint[]>;
  /**
   * Signs the heads of every stream after checking that they extend the latest checkpoint's;
   * throws CheckpointRefused, signing nothing, when they do not.
   */
  writeCheckpoint(kind: CheckpointBody['kind'], key: Buffer | null): Promise<Checkpoint>;
  /** The head each stream records (es_streams), in pages. */
  streamHeads(): AsyncGenerator<StreamHead[]>;
  guards(): Promise<EventTableGuards>;
}

/** The log does not extend the latest checkpoint (or the checkpoints themselves were changed): signing it would launder whatever changed. */
export class CheckpointRefused extends Error {
  constructor(
    /** The latest checkpoint stored, null when none is left. */
    readonly latest: number | null,
    /** What differs, first first; at most MAX_LISTED_REFUSALS. */
    readonly problems: readonly string[],
  ) {
    super(
      `no checkpoint was signed: the event log does not extend ${latest === null ? 'the checkpoints signed before' : `checkpoint #${latest}`}: ${problems[0] ?? 'unknown'}` +
        (problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''),
    );
    this.name = 'CheckpointRefused';
  }
}

export const MAX_LISTED_REFUSALS = 20;

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

/** What the next checkpoint names as its predecessor: hex SHA-256 of the canonical body (which the signature covers). */
export function checkpointDigest(body: CheckpointBody): string {
  return createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');
}

/** Streams ordered by the bytes of their UTF-8 names, as PostgreSQL's "C" collation orders them. */
export function compareStreamNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * SHA-256 over lines, fed to the hash some 64 KB at a time: a checkpoint digests every stream's
 * head twice, and one `update` per line spent more in the calls than in the hashing (100,000
 * heads: about 170 ms a checkpoint, inside the transaction that holds the embedded engine).
 * The digest is that of the lines' concatenation, whatever the grouping.
 */
class LineHash {
  private readonly hash = createHash('sha256');
  private pending = '';

  add(line: string): void {
    this.pending += line;
    if (this.pending.length >= 65_536) this.flush();
  }

  digest(): string {
    this.flush();
    return this.hash.digest('hex');
  }

  private flush(): void {
    this.hash.update(this.pending, 'utf8');
    this.pending = '';
  }
}

/** Feeds heads given in `compareStreamNames` order; `digest()` answers the hex SHA-256. */
export class HeadsDigest {
  private readonly lines = new LineHash();
  streams = 0;
  events = 0;

  add(head: StreamHead): void {
    this.lines.add(`${JSON.stringify(head.stream)}\t${head.revision}\t${head.hash}\n`);
    this.streams++;
    this.events += head.revision + 1;
  }

  digest(): string {
    return this.lines.digest();
  }
}

/** Feeds the events a checkpoint adds in log order (commit, then prepare); `digest()` answers the hex SHA-256. */
export class OrderDigest {
  private readonly lines = new LineHash();
  added = 0;

  add(position: string, stream: string, revision: number): void {
    this.lines.add(`${position}\t${JSON.stringify(stream)}\t${revision}\n`);
    this.added++;
  }

  digest(): string {
    return this.lines.digest();
  }
}

/** Whether a transaction id is committed as seen by `snapshot` (`xmin:xmax:xip,...`), as pg_visible_in_snapshot decides. */
export function visibleInSnapshot(xid: bigint, snapshot: string): boolean {
  return parseSnapshot(snapshot).sees(xid);
}

/** A parsed `xmin:xmax:xip,...` snapshot. */
export interface Snapshot {
  readonly xmin: bigint;
  readonly xmax: bigint;
  sees(xid: bigint): boolean;
}

export function parseSnapshot(snapshot: string): Snapshot {
  const [xmin, xmax, running] = snapshot.split(':');
  const inProgress = new Set((running ?? '').split(',').filter(Boolean).map((id) => BigInt(id)));
  const parsed = { xmin: BigInt(xmin!), xmax: BigInt(xmax!) };
  return { ...parsed, sees: (xid) => xid < parsed.xmin || (xid < parsed.xmax && !inProgress.has(xid)) };
}
