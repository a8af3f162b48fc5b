import { TOTP } from 'otpauth';
import { Client } from 'pg';
import { client } from '../support/http';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';
import { uploadAsset } from './audit.suite';

/**
 * A read whose audit record cannot be appended is refused, not served unrecorded. The event
 * store refuses the records for real: a trigger on its table raises for their event types
 * (PostgreSQL only: the embedded database is open in the service's process alone).
 */
describe('reads whose audit record cannot be appended (postgres)', () => {
  let service: TestService;
  let api: ReturnType<typeof client>;
  let database: Client;

  beforeAll(async () => {
    service = await startTestService('postgres');
    api = client(service.url);
    database = new Client({ connectionString: service.environment.DATABASE_URL });
    await database.connect();
    await database.query(`create function refuse_read_records() returns trigger language plpgsql as $$
      begin raise exception 'audit records refused for this test'; end $$`);
  });
  afterAll(async () => {
    await database.end();
    await service.close();
  });

  const refuseRecords = () =>
    database.query(`create trigger refuse_read_records before insert on es_events for each row
      when (new.type in ('SecretAccessAttempted', 'SharedAssetDownloaded', 'WebhookSecretsRead')) execute function refuse_read_records()`);
  const acceptRecords = () => database.query('drop trigger refuse_read_records on es_events');

  it('refuses decrypt, check, shared-access downloads and webhook secrets with 503 while their records fail (READ_AUDIT=required), serves them once they can be recorded, and serves them regardless with READ_AUDIT=best-effort', async () => {
    const write = { key: service.writeKey };
    const noteType = { name: 'Vault', key: 'Vault', fields: [{ key: 'title', type: 'Text' }, { key: 'pin', type: 'Encrypted' }] };
    expect((await api('PUT', '/content-types', { ...write, body: noteType })).status).toBe(200);
    const id = (await api('PUT', '/v2/contents/Vault', { ...write, body: { fields: { title: 'x' } } })).body.id as string;
    expect((await api('PUT', '/contents/Vault/encrypt', { ...write, body: { id, encryptFields: { pin: 'PIN-1234' } } })).status).toBe(200);
    const totp = await api('POST', `/admin/workspaces/${service.workspaceId}/totp`, { bearer: ADMIN_TOKEN });
    const generator = new TOTP({ secret: totp.body.secret, algorithm: 'SHA1', digits: 6, period: 30 });
    const asset = await uploadAsset(api, service.writeKey, Buffer.from('private file'), service.readKey);
    const sharedKey = (await api('POST', `/assets/${asset}/shared-access-keys`, { ...write, body: {} })).body.sharedAccessKey as string;
    const download = () => fetch(`${service.url}/shared-access/${service.workspaceId}/asset/${asset}?sharedAccessKey=${encodeURIComponent(sharedKey)}`);
    const hook = (await api('PUT', '/webhooks', { ...write, body: { endpoint: 'https://hooks.example.org/in', secret: 'hook-secret-7781' } })).body.id as string;

    await refuseRecords();
    const check = await api('POST', '/contents/Vault/encrypt/check', { key: service.readKey, body: { id, encryptFields: { pin: 'PIN-1234' } } });
    expect(check.status).toBe(503);
    expect(check.headers.get('retry-after')).not.toBeNull();
    expect(check.body.detail).toMatch(/could not be recorded/);
    const decrypt = await api('POST', '/contents/Vault/encrypt/decrypt', { key: service.readKey, body: { id, encryptFieldKeys: ['pin'], totpCode: generator.generate() } });
    expect(decrypt.status).toBe(503);
    expect(JSON.stringify(decrypt.body)).not.toContain('PIN-1234');
    const refusedDownload = await download();
    expect(refusedDownload.status).toBe(503);
    expect(await refusedDownload.text()).not.toContain('private file');
    for (const path of [`/webhooks/${hook}`, '/webhooks']) {
      const refusedHook = await api('GET', path, { key: service.readKey });
      expect({ path, status: refusedHook.status }).toEqual({ path, status: 503 });
      expect(JSON.stringify(refusedHook.body)).not.toContain('hook-secret-7781');
    }

    await acceptRecords();
    expect((await api('POST', '/contents/Vault/encrypt/check', { key: service.readKey, body: { id, encryptFields: { pin: 'PIN-1234' } } })).body).toEqual({ match: true });
    expect(await (await download()).text()).toBe('private file');
    expect((await api('GET', `/webhooks/${hook}`, { key: service.readKey })).body.secret).toBe('hook-secret-7781');

    // READ_AUDIT=best-effort: reads do not wait for their record, and a lost record does not refuse them;
    // a wrong guess is still recorded first, since the attempt limits count it.
    service = await service.restart({ READ_AUDIT: 'best-effort' });
    api = client(service.url);
    // The refused decrypt above used its code up: a fresh secret gives a fresh one.
    const fresh = await api('POST', `/admin/workspaces/${service.workspaceId}/totp`, { bearer: ADMIN_TOKEN });
    const freshCode = new TOTP({ secret: fresh.body.secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    await refuseRecords();
    try {
      expect((await api('POST', '/contents/Vault/encrypt/check', { key: service.readKey, body: { id, encryptFields: { pin: 'PIN-1234' } } })).body).toEqual({ match: true });
      const decrypted = await api('POST', '/contents/Vault/encrypt/decrypt', { key: service.readKey, body: { id, encryptFieldKeys: ['pin'], totpCode: freshCode } });
      expect([decrypted.status, decrypted.body]).toEqual([200, { fields: { pin: 'PIN-1234' } }]);
      const served = await fetch(`${service.url}/shared-access/${service.workspaceId}/asset/${asset}?sharedAccessKey=${encodeURIComponent(sharedKey)}`);
      expect(await served.text()).toBe('private file');
      expect((await api('POST', '/contents/Vault/encrypt/check', { key: service.readKey, body: { id, encryptFields: { pin: 'wrong' } } })).status).toBe(503);
    } finally {
      await acceptRecords();
    }
  });
});
