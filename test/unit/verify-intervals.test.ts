import { OrderDigest } from '../../infra/eventstore/chain-audit';
import type { RecordedEvent } from '../../infra/eventstore/port';
import { IntervalOrder, Snapshots } from '../../src/cli/verify-intervals';

const event = (commit: number, prepare: number, stream: string, revision: number): RecordedEvent =>
  ({ id: `${commit}-${prepare}`, stream, revision, position: { commit: BigInt(commit), prepare: BigInt(prepare) }, type: 'T', data: {}, metadata: {} }) as RecordedEvent;

describe('verify: the checkpoint intervals of the log', () => {
  it('places a transaction in the first checkpoint whose snapshot sees it committed, running ones included', () => {
    const snapshots = new Snapshots();
    for (const snapshot of ['10:12:10', '10:15:10,13', '16:16:']) expect(snapshots.push(snapshot)).toBe(true);
    expect([9, 10, 11, 12, 13, 14, 15, 16].map((xid) => snapshots.locate(BigInt(xid)))).toEqual([0, 2, 0, 1, 2, 1, 2, -1]);
    // Snapshots only grow: an older one after a newer one is refused, and stands for an empty interval.
    expect(snapshots.push('12:14:')).toBe(false);
    expect(snapshots.length).toBe(4);
    expect(snapshots.push('20:20:')).toBe(true);
    expect([15, 17].map((xid) => snapshots.locate(BigInt(xid)))).toEqual([2, 4]);
  });

  it('digests each interval in log order and counts the log as each checkpoint saw it', () => {
    const snapshots = new Snapshots();
    snapshots.push('5:5:');
    snapshots.push('8:8:');
    const intervals = new IntervalOrder(snapshots);
    const log = [event(3, 1, 'a', 0), event(4, 2, 'b', 0), event(4, 3, 'a', 1), event(6, 4, 'a', 2), event(9, 5, 'c', 0)];
    const closed = [];
    for (const recorded of log) {
      intervals.add(recorded);
      closed.push(...intervals.take());
    }
    closed.push(...intervals.finish());
    const first = new OrderDigest();
    for (const recorded of log.slice(0, 3)) first.add(`${recorded.position.commit}/${recorded.position.prepare}`, recorded.stream, recorded.revision);
    const second = new OrderDigest();
    second.add('6/4', 'a', 2);
    expect(closed).toEqual([
      { index: 0, added: 3, digest: first.digest(), events: 3, streams: 2, last: '4/3' },
      { index: 1, added: 1, digest: second.digest(), events: 4, streams: 2, last: '6/4' },
    ]);
    expect(intervals.after).toBe(1);
  });
});
