import { SecondaryLag } from '../../infra/readstore/mongodb-secondary-lag';

const primary = (writtenAt: number) => ({ isWritablePrimary: true, secondary: false, lastWrite: { lastWriteDate: new Date(writtenAt), majorityWriteDate: new Date(writtenAt) } });
const secondary = (writtenAt: number) => ({ isWritablePrimary: false, secondary: true, lastWrite: { lastWriteDate: new Date(writtenAt), majorityWriteDate: new Date(writtenAt) } });

describe('SecondaryLag', () => {
  it('counts a secondary\'s lag from when the primary was first seen at a write it has not reached, 0 once it has', () => {
    const lag = new SecondaryLag(5000);
    lag.heard('p:27017', primary(1000), 1000);
    lag.heard('s:27017', secondary(1000), 1000);
    expect(lag.status(1500)).toEqual([{ name: 's:27017', inRotation: true, lagSeconds: 0, lagBytes: null }]);
    lag.heard('p:27017', primary(2000), 2000);
    lag.heard('p:27017', primary(3000), 3000);
    lag.heard('s:27017', secondary(1000), 3000);
    expect(lag.status(3500)[0]!.lagSeconds).toBe(1.5);
    lag.heard('s:27017', secondary(2000), 4000);
    expect(lag.status(4000)[0]!.lagSeconds).toBe(1);
    lag.heard('s:27017', secondary(3000), 4100);
    expect(lag.status(4100)[0]!.lagSeconds).toBe(0);
  });

  it('counts from the primary\'s first heartbeat even when no secondary had answered yet', () => {
    const lag = new SecondaryLag(5000);
    lag.heard('p:27017', primary(2000), 1000);
    lag.heard('s:27017', secondary(1000), 1500);
    expect(lag.status(4000)[0]!.lagSeconds).toBe(3);
  });

  it('reads an idle set as caught up however old its last write (the majority write date when told, else the last write date)', () => {
    const lag = new SecondaryLag(5000);
    lag.heard('p:27017', { ismaster: true, lastWrite: { lastWriteDate: new Date(1000) } }, 60_000);
    lag.heard('s:27017', { secondary: true, lastWrite: { lastWriteDate: new Date(1000) } }, 60_000);
    expect(lag.status(120_000)).toEqual([{ name: 's:27017', inRotation: true, lagSeconds: 0, lagBytes: null }]);
  });

  it('takes every secondary out of rotation while one reachable secondary lags past the bound, since the driver picks among them', () => {
    const lag = new SecondaryLag(5000);
    lag.heard('p:27017', primary(1000), 1000);
    lag.heard('a:27017', secondary(1000), 1000);
    lag.heard('b:27017', secondary(1000), 1000);
    lag.heard('p:27017', primary(2000), 2000);
    lag.heard('a:27017', secondary(2000), 2100);
    expect(lag.inRotation(7000)).toBe(true);
    expect(lag.inRotation(7001)).toBe(false);
    expect(lag.status(7001)).toEqual([
      { name: 'a:27017', inRotation: false, lagSeconds: 0, lagBytes: null },
      { name: 'b:27017', inRotation: false, lagSeconds: 5.001, lagBytes: null },
    ]);
    lag.heard('b:27017', secondary(2000), 7100);
    expect(lag.inRotation(7100)).toBe(true);
  });

  it('leaves an unreachable secondary out of the rule (the driver does not pick it) and shows its full lag when it answers again', () => {
    const lag = new SecondaryLag(5000);
    lag.heard('p:27017', primary(1000), 1000);
    lag.heard('a:27017', secondary(1000), 1000);
    lag.heard('b:27017', secondary(1000), 1000);
    lag.lost('b:27017');
    lag.heard('p:27017', primary(2000), 2000);
    lag.heard('a:27017', secondary(2000), 2000);
    lag.heard('p:27017', primary(30_000), 30_000);
    lag.heard('a:27017', secondary(30_000), 30_000);
    expect(lag.inRotation(30_000)).toBe(true);
    expect(lag.status(30_000)[1]).toEqual({ name: 'b:27017', inRotation: false, lagSeconds: null, lagBytes: null });
    lag.heard('b:27017', secondary(1000), 30_500);
    expect(lag.status(30_500)[1]!.lagSeconds).toBe(28.5);
    expect(lag.inRotation(30_500)).toBe(false);
    lag.removed('b:27017');
    expect(lag.inRotation(30_500)).toBe(true);
  });

  it('sends nothing to the secondaries before a primary is seen, and drops a member that stops being a readable secondary', () => {
    const lag = new SecondaryLag(5000);
    lag.heard('s:27017', secondary(1000), 1000);
    expect(lag.inRotation(1000)).toBe(false);
    lag.heard('p:27017', primary(1000), 1000);
    expect(lag.inRotation(1000)).toBe(true);
    lag.heard('s:27017', { secondary: false, isWritablePrimary: false }, 2000);
    expect(lag.status(2000)).toEqual([{ name: 's:27017', inRotation: false, lagSeconds: null, lagBytes: null }]);
    lag.heard('s:27017', primary(3000), 3000);
    expect(lag.status(3000)).toEqual([]);
  });
});
