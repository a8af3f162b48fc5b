import pino from 'pino';
import { TOTP } from 'otpauth';
import { loadConfig } from '../../src/config';
import { type RunningService, startService } from '../../src/server';
import { call } from '../support/http';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';
import { describeSecretAttacks } from './attacks-secrets.suite';

describeSecretAttacks('postgres');

/** Two instances on one PostgreSQL store: a one-time password sent to both at once opens one decrypt. */
describe('a one-time password across instances (postgres)', () => {
  let first: TestService;
  let second: RunningService;

  beforeAll(async () => {
    first = await startTestService('postgres');
    second = await startService(loadConfig({ PORT: '0', ...first.environment }), pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('is accepted by one instance only, however the same code is spread over both', async () => {
    const write = { key: first.writeKey };
    const secret = (await call(first.url, 'POST', `/admin/workspaces/${first.workspaceId}/totp`, { bearer: ADMIN_TOKEN })).body.secret;
    await call(first.url, 'PUT', '/content-types', { ...write, body: { name: 'Vault', key: 'Vault', fields: [{ key: 'serial', type: 'Encrypted' }] } });
    const item = await call(first.url, 'PUT', '/v2/contents/Vault', { ...write, body: { fields: {} } });
    await call(first.url, 'PUT', '/contents/Vault/encrypt', { ...write, body: { id: item.body.id, encryptFields: { serial: 'SN-1' } } });
    const code = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    // Each instance projects the log in order: once it has the encrypted value, it has the TOTP secret set before it.
    for (const url of [first.url, second.url]) {
      const probe = await call(url, 'POST', '/contents/Vault/encrypt/check', { key: first.readKey, body: { id: item.body.id, encryptFields: { serial: 'SN-1' } } });
      expect(probe.body).toEqual({ match: true });
    }

    const answers = await Promise.all(
      [first.url, second.url, first.url, second.url].map((url) =>
        call(url, 'POST', '/contents/Vault/encrypt/decrypt', { key: first.readKey, body: { id: item.body.id, encryptFieldKeys: ['serial'], totpCode: code } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403, 403, 403]);
    expect(answers.find((answer) => answer.status === 200)!.body).toEqual({ fields: { serial: 'SN-1' } });
  }, 30_000);
});
