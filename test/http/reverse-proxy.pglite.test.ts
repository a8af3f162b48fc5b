import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const LIMIT = 5;

/** Anonymous calls (rate-limited per client address) as a reverse proxy forwards them for `client`. */
const forwarded = (service: TestService, client: string) => call(service.url, 'GET', '/content-types', { headers: { 'x-forwarded-for': client } });

/** A burst from one client, then one call from another: is the second client limited with the first? */
async function secondClientAfterBurst(service: TestService): Promise<number> {
  const burst = await Promise.all(Array.from({ length: LIMIT * 4 }, () => forwarded(service, '203.0.113.10')));
  expect(burst.some((answer) => answer.status === 429)).toBe(true);
  return (await forwarded(service, '198.51.100.20')).status;
}

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('pglite', { RATE_LIMIT_PER_SECOND: String(LIMIT) });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('ignores X-Forwarded-For by default, so a client cannot dodge the limit by writing one', async () => {
    expect(await secondClientAfterBurst(service)).toBe(429);
  });

  it('limits each client address on its own when the proxy in front is trusted', async () => {
    service = await service.restart({ TRUST_PROXY: 'loopback' });
    expect(await secondClientAfterBurst(service)).toBe(401);
  });
});
