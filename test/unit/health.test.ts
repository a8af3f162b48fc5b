import type { AddressInfo } from 'node:net';
import express from 'express';
import { type HealthProbe, healthRouter } from '../../src/http/routes/health';
import { call } from '../support/http';

/** The readiness answer for these probe outcomes, over a socket. */
async function readiness(outcomes: Record<string, boolean | 'degraded' | Error>, details: Record<string, unknown> = {}) {
  const probes: HealthProbe[] = Object.entries(outcomes).map(([name, outcome]) => ({
    name,
    check: async () => {
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    ...(name in details ? { detail: () => details[name] } : {}),
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

  it('shows what a check that tells more saw under details, and no details when none does', async () => {
    const replicas = [{ name: '10.0.0.2:5432', inRotation: false, lagSeconds: null, lagBytes: null }];
    const answer = await readiness({ readStore: true, readReplicas: 'degraded' }, { readReplicas: replicas });
    expect(answer.body).toEqual({ status: 'degraded', checks: { readStore: 'up', readReplicas: 'degraded' }, details: { readReplicas: replicas } });
    expect((await readiness({ readStore: true })).body).toEqual({ status: 'ok', checks: { readStore: 'up' } });
  });
});
