import { type ChainAudit, type Checkpoint, checkpointDigest, checkpointSignatureValid } from '../../infra/eventstore/chain-audit';
import type { IntervalFound } from './verify-intervals';
import { Snapshots } from './verify-intervals';

/** What the walk over every stored checkpoint found, for the rest of verify. */
export interface CheckpointWalk {
  readonly count: number;
  readonly latest: Checkpoint | null;
  readonly upgrade: Checkpoint | null;
  /** The first checkpoint that names its predecessor (since issue 29): the chain is unbroken from there. */
  readonly firstLinked: Checkpoint | null;
  readonly snapshots: Snapshots;
  /** Report lines that are not problems (gaps between checkpoints of older versions). */
  readonly notes: readonly string[];
}

const subject = (checkpoint: Checkpoint) => `checkpoint #${checkpoint.id} of ${checkpoint.body.at}`;

/**
 * Every stored checkpoint, oldest first: its signature, its id and its link to the one before it
 * (a checkpoint of this version names its predecessor's digest and its own id, so a checkpoint
 * deleted or replaced in the middle shows), and that snapshots only grow. `inspect` sees each one
 * (verify --against). Keeps the snapshots for the one pass over the events.
 */
export async function walkCheckpoints(audit: ChainAudit, key: Buffer, addProblem: (problem: string) => void, inspect: (checkpoint: Checkpoint) => void): Promise<CheckpointWalk> {
  const snapshots = new Snapshots();
  const notes: string[] = [];
  let count = 0;
  let previous: Checkpoint | null = null;
  let upgrade: Checkpoint | null = null;
  let firstLinked: Checkpoint | null = null;
  for await (const page of audit.checkpointPages()) {
    for (const checkpoint of page) {
      count++;
      inspect(checkpoint);
      if (checkpoint.signature === null) addProblem(`${subject(checkpoint)} is not signed`);
      else if (!checkpointSignatureValid(checkpoint, key)) {
        addProblem(`${subject(checkpoint)}: its signature does not match (it was altered or forged, or ENCRYPTION_KEY is not this store's)`);
      }
      if (checkpoint.body.kind === 'upgrade') upgrade ??= checkpoint;
      const linked = checkpoint.body.previous !== undefined;
      if (linked) firstLinked ??= checkpoint;
      if (linked && checkpoint.body.id !== checkpoint.id) addProblem(`${subject(checkpoint)} signed the id #${checkpoint.body.id}: it was moved`);
      const missing = previous ? checkpoint.id - previous.id - 1 : checkpoint.id - 1;
      if (linked && previous === null && checkpoint.body.previous !== null) {
        addProblem(`${subject(checkpoint)} names a predecessor, and none is stored: checkpoint${missing > 1 ? `s #1 to #${checkpoint.id - 1} were` : ` #${checkpoint.id - 1} was`} deleted`);
      } else if (linked && previous !== null && missing > 0) {
        addProblem(`checkpoint${missing > 1 ? `s #${previous.id + 1} to #${checkpoint.id - 1} are` : ` #${previous.id + 1} is`} missing between #${previous.id} and #${checkpoint.id}: deleted`);
      } else if (linked && previous !== null && checkpoint.body.previous !== checkpointDigest(previous.body)) {
        addProblem(`${subject(checkpoint)} does not name #${previous.id} as its predecessor: the checkpoint before it was replaced`);
      } else if (!linked && missing > 0) {
        notes.push(
          `checkpoints: no #${previous ? previous.id + 1 : 1}${missing > 1 ? ` to #${checkpoint.id - 1}` : ''} before #${checkpoint.id}, both written before checkpoints named their predecessors: deleted, or ids a crash skipped then`,
        );
      }
      if (!snapshots.push(checkpoint.body.snapshot)) addProblem(`${subject(checkpoint)}: its snapshot is older than its predecessor's`);
      previous = checkpoint;
    }
  }
  return { count, latest: previous, upgrade, firstLinked, snapshots, notes };
}

/**
 * Compares each interval as the log holds it with what its checkpoint signed, a second walk
 * over the checkpoints kept in step with the pass over the events: the events a checkpoint of
 * this version added and their global order (`order`), and for every checkpoint the events and
 * streams its snapshot saw. The heads of every checkpoint but the latest are proven by the
 * signer's check that each checkpoint extends the one before it (and the latest's, by verify).
 */
export class IntervalComparison {
  private readonly pages: AsyncGenerator<Checkpoint[]>;
  private page: Checkpoint[] = [];
  private previous: Checkpoint | null = null;
  readonly problems: string[] = [];
  problemCount = 0;

  constructor(
    audit: ChainAudit,
    /** The latest checkpoint's id: its heads and counts are checked whole, elsewhere. */
    private readonly latest: number | null,
    private readonly maxListed: number,
  ) {
    this.pages = audit.checkpointPages();
  }

  async compare(found: readonly IntervalFound[]): Promise<void> {
    for (const interval of found) {
      const checkpoint = await this.next();
      if (!checkpoint) return;
      this.check(checkpoint, interval);
      this.previous = checkpoint;
    }
  }

  private async next(): Promise<Checkpoint | null> {
    if (this.page.length === 0) {
      const next = await this.pages.next();
      if (next.done) return null;
      this.page = next.value;
    }
    return this.page.shift() ?? null;
  }

  private add(problem: string): void {
    this.problemCount++;
    if (this.problems.length < this.maxListed) this.problems.push(problem);
  }

  private check(checkpoint: Checkpoint, found: IntervalFound): void {
    const signed = checkpoint.body;
    const since = this.previous ? `since #${this.previous.id}` : 'since the start of the log';
    // After a missing checkpoint (reported by the walk) the interval holds the missing one's events too.
    const intact = this.previous ? this.previous.id === checkpoint.id - 1 : checkpoint.id === 1;
    const order = intact ? signed.order : undefined;
    if (order && order.added !== found.added) {
      this.add(
        `${subject(checkpoint)} signed ${order.added} events added ${since}; the log holds ${found.added} as of it: ` +
          (found.added < order.added ? 'events were removed, or moved later in the global order' : 'events were added, or moved into it from later in the global order'),
      );
    } else if (order && order.digest !== found.digest) {
      this.add(`${subject(checkpoint)}: the global order of the ${order.added} events it added ${since} is not the one it signed: events were moved (their log positions changed) or replaced`);
    } else if (order && order.last !== found.last) {
      this.add(`${subject(checkpoint)} signed ${order.last ?? 'no event'} as the last position of the log; the log holds ${found.last ?? 'none'} as of it`);
    } else if ((signed.events !== found.events || signed.streams !== found.streams) && checkpoint.id !== this.latest && this.problemCount === 0) {
      // The latest checkpoint's counts are reported with its heads (checkLatestHeads); after a first
      // difference every later checkpoint's totals differ too, which says nothing more.
      this.add(
        `${subject(checkpoint)} signed ${signed.streams} streams holding ${signed.events} events; the log holds ${found.streams} streams and ${found.events} events as of it: ` +
          (found.events < signed.events ? 'events or whole streams were removed' : 'events were added before it'),
      );
    }
  }
}
