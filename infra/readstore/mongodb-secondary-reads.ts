import { type ClientSession, type ClusterTime, type Collection, type Db, MongoClient, type ReadConcernLike, type Timestamp } from 'mongodb';
import { FreshProbe } from './fresh-probe';
import { memberUrl } from './mongodb-member-url';
import { SecondaryLag } from './mongodb-secondary-lag';
import { readError } from './mongodb-read-timeout';
import { ReadTimeoutError } from './port';
import { REPLICA_PROBE_MS, type ReplicaStatus } from './replicas';

/** Where the queries of the MongoDB read store may go (MONGODB_READ_PREFERENCE). */
export type MongoReadPreference = 'primary' | 'secondaryPreferred' | 'nearest';

/** The options one read operation runs with: none on the primary; on a secondary, its own session and a majority read. */
export interface ReadRoute {
  readonly session?: ClientSession;
  readonly readPreference?: 'secondaryPreferred' | 'nearest';
  readonly readConcern?: ReadConcernLike;
  readonly maxTimeMS?: number;
}

/** Runs a query with the options of where it goes; `route()` gives the options of each operation it sends. */
export interface ReadRouting {
  run<T>(read: (route: () => ReadRoute) => Promise<T>): Promise<T>;
}

/** Every query on the primary, with the client's defaults: MONGODB_READ_PREFERENCE=primary. */
export const PRIMARY_READS: ReadRouting = { run: (read) => read(() => ({})) };

/** The primary's majority-committed point when probed, and the signed cluster time that came with it. */
interface MajorityPoint {
  readonly operationTime: Timestamp;
  readonly clusterTime: ClusterTime;
}

/**
 * Sends queries to secondaries without losing read-your-writes across instances. Every write the
 * service acknowledges waited for its read-model batch, written with `w: "majority"` (the client's
 * write concern when secondary reads are on). Before a query, a majority read on the primary
 * started after the query began (`FreshProbe`: one serves every query waiting for it) gives an
 * operation time at or after the majority commit point, so after every write acknowledged by then,
 * whichever instance acknowledged it. The query runs in a causally consistent session advanced to
 * that time, with read concern majority: the secondary the driver picks answers only once its
 * majority snapshot has reached it. So a secondary that lags costs time, never a stale answer; the
 * lag bound (SecondaryLag) sends queries to the primary while one lags, rather than let them wait.
 * A query that fails on a secondary runs again on the primary, a read timeout excepted. Without a
 * read timeout (READ_STATEMENT_TIMEOUT_MS=0), a query on a secondary is still given the lag bound
 * plus a heartbeat, so one that waits on a secondary that stopped applying runs on the primary instead.
 */
export class SecondaryReads implements ReadRouting {
  private readonly lag: SecondaryLag;
  private readonly majorityPoint: FreshProbe<MajorityPoint>;
  /** A client connected directly to each secondary asked something only that member can answer, opened when first asked. */
  private readonly members = new Map<string, MongoClient>();

  constructor(
    private readonly client: MongoClient,
    /** The client's URL, from which a secondary's own URL is made. */
    private readonly url: string,
    private readonly database: Db,
    /** Any collection on the primary: the probe reads a document that does not exist, by _id. */
    private readonly probed: Collection<{ _id: string }>,
    private readonly preference: 'secondaryPreferred' | 'nearest',
    private readonly maxLagMs: number,
    /** The store's maxTimeMS for queries; 0 for none. */
    private readonly readTimeoutMs: number,
  ) {
    this.lag = new SecondaryLag(maxLagMs);
    this.majorityPoint = new FreshProbe(() => this.probe());
    client.on('serverHeartbeatSucceeded', (event) => this.lag.heard(event.connectionId, event.reply, Date.now()));
    client.on('serverHeartbeatFailed', (event) => this.lag.lost(event.connectionId));
    client.on('serverClosed', (event) => this.lag.removed(event.address));
  }

  status(): ReplicaStatus[] {
    return this.lag.status(Date.now());
  }

  /**
   * Runs `read` on the primary and on each secondary heard of, asking each member itself: null
   * when the URL cannot name one member (mongodb+srv); a member that fails answers null.
   */
  async onEveryMember<T>(read: (database: Db) => Promise<T>): Promise<(T | null)[] | null> {
    const secondaries = this.lag.status(Date.now()).map((secondary) => secondary.name);
    const urls = secondaries.map((address) => memberUrl(this.url, address));
    if (urls.some((url) => url === null)) return null;
    return Promise.all([
      read(this.database),
      ...secondaries.map((address, index) => read(this.member(address, urls[index]!).db(this.database.databaseName)).catch(() => null)),
    ]);
  }

  async close(): Promise<void> {
    await Promise.all([...this.members.values()].map((member) => member.close()));
    this.members.clear();
  }

  private member(address: string, url: string): MongoClient {
    let member = this.members.get(address);
    if (!member) {
      member = new MongoClient(url);
      this.members.set(address, member);
    }
    return member;
  }

  async run<T>(read: (route: () => ReadRoute) => Promise<T>): Promise<T> {
    if (!this.lag.inRotation(Date.now())) return PRIMARY_READS.run(read);
    const point = await this.majorityPoint.next();
    if (!point) return PRIMARY_READS.run(read);
    const sessions: ClientSession[] = [];
    const route = (): ReadRoute => {
      // A session each: the operations of one query (a page and its total) run at once.
      const session = this.client.startSession({ causalConsistency: true });
      sessions.push(session);
      session.advanceClusterTime(point.clusterTime);
      session.advanceOperationTime(point.operationTime);
      const waitLimit = this.readTimeoutMs === 0 ? { maxTimeMS: this.maxLagMs + REPLICA_PROBE_MS } : {};
      return { session, readPreference: this.preference, readConcern: { level: 'majority' }, ...waitLimit };
    };
    try {
      return await read(route);
    } catch (error) {
      if (this.readTimeoutMs > 0 && readError(error) instanceof ReadTimeoutError) throw error;
      return PRIMARY_READS.run(read);
    } finally {
      await Promise.all(sessions.map((session) => session.endSession()));
    }
  }

  private async probe(): Promise<MajorityPoint> {
    const session = this.client.startSession({ causalConsistency: true });
    try {
      await this.probed.findOne({ _id: '' }, { session, readPreference: 'primary', readConcern: { level: 'majority' } });
      // A majority read answers the operation time of the majority-committed snapshot it read.
      if (!session.operationTime || !session.clusterTime) throw new Error('the server answered no operation time: not a replica set');
      return { operationTime: session.operationTime, clusterTime: session.clusterTime };
    } finally {
      await session.endSession();
    }
  }
}
