import { EventEmitter } from 'node:events';
import { Timestamp, type Collection, type Db, type MongoClient } from 'mongodb';
import { type ReadRoute, SecondaryReads } from '../../infra/readstore/mongodb-secondary-reads';

// No MongoDB server can run here: a stand-in for the driver's client, its sessions and heartbeats.
class FakeSession {
  operationTime?: Timestamp;
  clusterTime?: { clusterTime: Timestamp };
  advancedTo: Timestamp | null = null;
  ended = false;
  advanceOperationTime(time: Timestamp) {
    this.advancedTo = time;
  }
  advanceClusterTime(time: { clusterTime: Timestamp }) {
    this.clusterTime = time;
  }
  async endSession() {
    this.ended = true;
  }
}

const majority = (increment: number) => new Timestamp({ t: 1_700_000_000, i: increment });

function fakeReplicaSet(probeAnswer: () => Timestamp | Error, readTimeoutMs = 5000) {
  const client = new EventEmitter() as EventEmitter & { sessions: FakeSession[]; startSession: () => FakeSession };
  client.sessions = [];
  client.startSession = () => {
    const session = new FakeSession();
    client.sessions.push(session);
    return session;
  };
  let probes = 0;
  const probed = {
    findOne: async (_filter: unknown, options: { session: FakeSession; readPreference: string; readConcern: { level: string } }) => {
      probes += 1;
      expect(options.readPreference).toBe('primary');
      expect(options.readConcern).toEqual({ level: 'majority' });
      const answer = probeAnswer();
      if (answer instanceof Error) throw answer;
      options.session.operationTime = answer;
      options.session.clusterTime = { clusterTime: answer };
      return null;
    },
  };
  const reads = new SecondaryReads(client as unknown as MongoClient, 'mongodb://p,s/cms?replicaSet=rs0', {} as Db, probed as unknown as Collection<{ _id: string }>, 'secondaryPreferred', 5000, readTimeoutMs);
  const heard = (address: string, reply: object) => client.emit('serverHeartbeatSucceeded', { connectionId: address, reply });
  const now = new Date();
  return {
    reads,
    heard,
    sessions: () => client.sessions,
    probes: () => probes,
    healthy: () => {
      heard('p:27017', { isWritablePrimary: true, lastWrite: { majorityWriteDate: now } });
      heard('s:27017', { secondary: true, lastWrite: { majorityWriteDate: now } });
    },
  };
}

describe('SecondaryReads', () => {
  it('reads on the primary, with no session, until a primary has been heard', async () => {
    const set = fakeReplicaSet(() => majority(1));
    const routes: ReadRoute[] = [];
    await set.reads.run(async (route) => routes.push(route()));
    expect(routes).toEqual([{}]);
    expect(set.probes()).toBe(0);
  });

  it('reads on a secondary in a causal session advanced to the majority point of a probe of the primary, and ends the sessions', async () => {
    const set = fakeReplicaSet(() => majority(7));
    set.healthy();
    const routes: ReadRoute[] = [];
    await set.reads.run(async (route) => routes.push(route(), route()));
    expect(routes.map(({ readPreference, readConcern }) => ({ readPreference, readConcern }))).toEqual([
      { readPreference: 'secondaryPreferred', readConcern: { level: 'majority' } },
      { readPreference: 'secondaryPreferred', readConcern: { level: 'majority' } },
    ]);
    const readSessions = set.sessions().slice(1);
    expect(readSessions.map((session) => session.advancedTo)).toEqual([majority(7), majority(7)]);
    expect(routes.map((route) => route.session)).toEqual(readSessions);
    expect(set.sessions().every((session) => session.ended)).toBe(true);
  });

  it('runs a query that failed on a secondary again on the primary, but not one that ran out of time', async () => {
    const set = fakeReplicaSet(() => majority(1));
    set.healthy();
    const routes: ReadRoute[] = [];
    const answer = await set.reads.run(async (route) => {
      const options = route();
      routes.push(options);
      if (options.session) throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
      return 'from the primary';
    });
    expect(answer).toBe('from the primary');
    expect(routes[1]).toEqual({});
    const timedOut = set.reads.run(async (route) => {
      route();
      throw Object.assign(new Error('operation exceeded time limit'), { code: 50, codeName: 'MaxTimeMSExpired' });
    });
    await expect(timedOut).rejects.toThrow('operation exceeded time limit');
  });

  it('without a read timeout, gives a query on a secondary the lag bound plus a heartbeat, then runs it on the primary', async () => {
    const set = fakeReplicaSet(() => majority(1), 0);
    set.healthy();
    const routes: ReadRoute[] = [];
    const answer = await set.reads.run(async (route) => {
      const options = route();
      routes.push(options);
      if (options.session) throw Object.assign(new Error('operation exceeded time limit'), { code: 50, codeName: 'MaxTimeMSExpired' });
      return 'from the primary';
    });
    expect(answer).toBe('from the primary');
    expect(routes.map((route) => route.maxTimeMS)).toEqual([6000, undefined]);
  });

  it('reads on the primary when the probe fails', async () => {
    const set = fakeReplicaSet(() => new Error('not primary'));
    set.healthy();
    const routes: ReadRoute[] = [];
    await set.reads.run(async (route) => routes.push(route()));
    expect(routes).toEqual([{}]);
  });

  it('reads on the primary while a reachable secondary lags past the bound, on the secondaries again once it catches up', async () => {
    const set = fakeReplicaSet(() => majority(1));
    const clock = jest.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(100_000);
      set.heard('p:27017', { isWritablePrimary: true, lastWrite: { majorityWriteDate: new Date(99_000) } });
      set.heard('s:27017', { secondary: true, lastWrite: { majorityWriteDate: new Date(90_000) } });
      const routeAt = async (now: number) => {
        clock.mockReturnValue(now);
        let chosen: ReadRoute = {};
        await set.reads.run(async (route) => (chosen = route()));
        return chosen.readPreference ?? 'primary';
      };
      expect(await routeAt(105_000)).toBe('secondaryPreferred');
      expect(await routeAt(105_001)).toBe('primary');
      clock.mockReturnValue(105_500);
      set.heard('s:27017', { secondary: true, lastWrite: { majorityWriteDate: new Date(99_000) } });
      expect(await routeAt(105_500)).toBe('secondaryPreferred');
    } finally {
      clock.mockRestore();
    }
  });
});
