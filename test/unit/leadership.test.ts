import pino from 'pino';
import { InProcessLeaseStore } from '../../infra/lease/in-process';
import { Leadership } from '../../projections/processes/leadership';
import { eventually } from '../support/waiting';

/** Work that records when it runs. */
function recordedWork() {
  const log: string[] = [];
  return { log, work: { start: async () => void log.push('start'), stop: async () => void log.push('stop') } };
}

describe('Leadership', () => {
  const logger = pino({ level: 'silent' });
  const CHECK_MS = 20;

  it('runs the work on the holder only, and on the standby once the holder stops', async () => {
    const scope = `leadership-${Math.random()}`;
    const first = recordedWork();
    const second = recordedWork();
    const holder = new Leadership(new InProcessLeaseStore(scope), 'work', first.work, logger, CHECK_MS);
    const standby = new Leadership(new InProcessLeaseStore(scope), 'work', second.work, logger, CHECK_MS);
    await holder.start();
    await standby.start();
    expect([holder.isLeading, standby.isLeading]).toEqual([true, false]);

    await holder.stop();
    expect(first.log).toEqual(['start', 'stop']);
    await eventually(() => standby.isLeading);
    expect(second.log).toEqual(['start']);
    await standby.stop();
  });

  it('stops the work when the lease is lost, and starts it again when the lease is taken back', async () => {
    const leases = new InProcessLeaseStore(`leadership-${Math.random()}`);
    const { log, work } = recordedWork();
    const leadership = new Leadership(leases, 'work', work, logger, CHECK_MS);
    await leadership.start();

    // As when the holder's connection breaks: the store no longer confirms the lease.
    await leases.release('work');
    await eventually(() => log.length === 3);
    expect(log).toEqual(['start', 'stop', 'start']);
    expect(leadership.isLeading).toBe(true);
    await leadership.stop();
  });
});
