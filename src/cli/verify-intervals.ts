import { OrderDigest, parseSnapshot } from '../../infra/eventstore/chain-audit';
import { comparePositions, type Position, positionToString, type RecordedEvent } from '../../infra/eventstore/port';

/**
 * The checkpoints' snapshots, oldest first, compactly (a year of checkpoints every 10 s is three
 * million): each event belongs to the first checkpoint whose snapshot sees it, its interval.
 * Snapshots only grow (a checkpoint's snapshot is taken after its predecessor committed), so
 * xmin and xmax never decrease and the interval is found by a binary search on xmax.
 */
export class Snapshots {
  private xmins = new BigUint64Array(1024);
  private xmaxes = new BigUint64Array(1024);
  private readonly running = new Map<number, ReadonlySet<bigint>>();
  length = 0;

  /**
   * Answers false when `snapshot` is older than the one before it: that one is then kept in its
   * place (an empty interval), so that every later checkpoint keeps its own.
   */
  push(snapshot: string): boolean {
    const parsed = parseSnapshot(snapshot);
    const older = this.length > 0 && (parsed.xmax < this.xmaxes[this.length - 1]! || parsed.xmin < this.xmins[this.length - 1]!);
    if (this.length === this.xmins.length) {
      this.xmins = grown(this.xmins);
      this.xmaxes = grown(this.xmaxes);
    }
    const from = older ? this.length - 1 : -1;
    this.xmins[this.length] = older ? this.xmins[from]! : parsed.xmin;
    this.xmaxes[this.length] = older ? this.xmaxes[from]! : parsed.xmax;
    const running = older ? this.running.get(from) : new Set((snapshot.split(':')[2] ?? '').split(',').filter(Boolean).map((id) => BigInt(id)));
    if (running && running.size > 0) this.running.set(this.length, running);
    this.length++;
    return !older;
  }

  xmax(index: number): bigint {
    return this.xmaxes[index]!;
  }

  /** The index of the first snapshot that sees `xid` committed; -1 when none does (it came after the latest). */
  locate(xid: bigint): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.xmaxes[middle]! > xid) high = middle;
      else low = middle + 1;
    }
    for (let index = low; index < this.length; index++) {
      if (xid < this.xmins[index]! || !this.running.get(index)?.has(xid)) return index;
    }
    return -1;
  }
}

function grown(array: BigUint64Array<ArrayBuffer>): BigUint64Array<ArrayBuffer> {
  const larger = new BigUint64Array(array.length * 2);
  larger.set(array);
  return larger;
}

/** What the log holds of one interval, and of the whole log as its checkpoint saw it. */
export interface IntervalFound {
  readonly index: number;
  readonly added: number;
  readonly digest: string;
  /** As of this checkpoint: events, streams (events at revision 0) and the last position. */
  readonly events: number;
  readonly streams: number;
  readonly last: string | null;
}

interface Open {
  readonly order: OrderDigest;
  streams: number;
}

/**
 * Feeds every event of the one pass of verify, in log order, into its interval's order digest.
 * An interval is closed once the pass has reached its snapshot's xmax (no later event can belong
 * to it: the pass runs in transaction id order), and its totals then go out in interval order.
 */
export class IntervalOrder {
  private readonly open = new Map<number, Open>();
  private nextToClose = 0;
  private readonly closed: IntervalFound[] = [];
  private events = 0;
  private streams = 0;
  private last: Position | null = null;
  private readonly lastOfOpen = new Map<number, Position>();
  /** Events no checkpoint covers. */
  after = 0;

  constructor(private readonly snapshots: Snapshots) {}

  add(event: RecordedEvent): void {
    this.closeBefore(event.position.commit);
    const index = this.snapshots.locate(event.position.commit);
    if (index < 0) {
      this.after++;
      return;
    }
    const open = this.opened(index);
    open.order.add(positionToString(event.position), event.stream, event.revision);
    if (event.revision === 0) open.streams++;
    const last = this.lastOfOpen.get(index);
    if (!last || comparePositions(event.position, last) > 0) this.lastOfOpen.set(index, event.position);
  }

  /** The intervals closed since the last call, in order. */
  take(): IntervalFound[] {
    return this.closed.splice(0);
  }

  /** Closes every interval: the pass is over. */
  finish(): IntervalFound[] {
    while (this.nextToClose < this.snapshots.length) this.close(this.nextToClose++);
    return this.take();
  }

  private closeBefore(xid: bigint): void {
    while (this.nextToClose < this.snapshots.length && this.snapshots.xmax(this.nextToClose) <= xid) this.close(this.nextToClose++);
  }

  private opened(index: number): Open {
    let open = this.open.get(index);
    if (!open) this.open.set(index, (open = { order: new OrderDigest(), streams: 0 }));
    return open;
  }

  private close(index: number): void {
    const open = this.opened(index);
    this.open.delete(index);
    const last = this.lastOfOpen.get(index);
    this.lastOfOpen.delete(index);
    if (last && (!this.last || comparePositions(last, this.last) > 0)) this.last = last;
    this.events += open.order.added;
    this.streams += open.streams;
    this.closed.push({
      index,
      added: open.order.added,
      digest: open.order.digest(),
      events: this.events,
      streams: this.streams,
      last: this.last ? positionToString(this.last) : null,
    });
  }
}
