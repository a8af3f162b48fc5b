import type { AddressInfo } from 'node:net';
import express from 'express';
import { type HealthProbe, healthRouter } from '../../src/http/routes/health';
import { call } from '../support/http';

/** The readiness answer for these probe outcomes, over a socket. */
async function readiness(outcomes: Record<string, boolean | 'degraded' | Error>) {
  const probes: HealthProbe[] = Object.entries(outcomes).map(([name, outcome]) => ({
    name,
    check: async () => {
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  }));
  const server = express().use(healthRouter(probes)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await call(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'GET', '/health/ready');
  } finally {
    server.close();
  }
}

describe('readiness', () => {
  it('is ok when every check is up, degraded (still 200) when one needs an operator, unavailable (503) when one is down', async () => {
    expect(await readiness({ eventStore: true, eventLog: true })).toMatchObject({ status: 200, body: { status: 'ok', checks: { eventStore: 'up', eventLog: 'up' } } });
    expect(await readiness({ eventStore: true, eventLog: 'degraded' })).toMatchObject({ status: 200, body: { status: 'degraded', checks: { eventStore: 'up', eventLog: 'degraded' } } });
    expect(await readiness({ eventStore: new Error('refused'), eventLog: 'degraded' })).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { eventStore: 'down', eventLog: 'degraded' } },
    });
  });
});
