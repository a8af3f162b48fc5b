import { FreshProbe } from '../../infra/readstore/fresh-probe';

/** A probe whose answers the test gives one at a time, in order. */
function controlledProbe() {
  const pending: ((value: number) => void)[] = [];
  let started = 0;
  const probe = new FreshProbe<number>(() => {
    started += 1;
    return new Promise<number>((resolve) => pending.push(resolve));
  });
  const settle = async () => {
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  };
  return { probe, started: () => started, answer: (value: number) => pending.shift()!(value), settle };
}

describe('FreshProbe', () => {
  it('answers a call made while a probe runs with the next probe, not the running one', async () => {
    const { probe, started, answer, settle } = controlledProbe();
    const first = probe.next();
    await settle();
    expect(started()).toBe(1);
    const second = probe.next();
    answer(1);
    expect(await first).toBe(1);
    await settle();
    expect(started()).toBe(2);
    answer(2);
    expect(await second).toBe(2);
  });

  it('serves every call that arrives during one probe with one shared probe after it', async () => {
    const { probe, started, answer, settle } = controlledProbe();
    const first = probe.next();
    await settle();
    const waiting = [probe.next(), probe.next(), probe.next()];
    answer(1);
    await first;
    await settle();
    answer(2);
    expect(await Promise.all(waiting)).toEqual([2, 2, 2]);
    expect(started()).toBe(2);
  });

  it('answers null when the probe fails, and probes again for the next call', async () => {
    let calls = 0;
    const probe = new FreshProbe<number>(async () => {
      calls += 1;
      if (calls === 1) throw new Error('unreachable');
      return calls;
    });
    expect(await probe.next()).toBeNull();
    expect(await probe.next()).toBe(2);
  });
});
