import { TOTP } from 'otpauth';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { buildContainer, TOKENS } from '../../src/container';
import { client } from '../support/http';
import { eventually } from '../support/waiting';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { deleteCheckpointEverywhere } from '../../projections/group-checkpoint';

/** The stream's events as stored (type, data, metadata), as one string to search. */
async function rawLog(service: TestService, stream: string): Promise<string> {
  const events = await service.service.container.resolve(TOKENS.eventStore).readStream(stream);
  return JSON.stringify(events.map(({ type, data, metadata }) => ({ type, data, metadata })));
}

export function describeAdminApi(engine: Engine): void {
  describe(`admin API (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    const admin = { bearer: ADMIN_TOKEN };

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
    });
    afterAll(() => service.close());

    const createWorkspace = async (name = 'Site') => (await api('POST', '/admin/workspaces', { ...admin, body: { name } })).body.id as string;

    it('refuses calls without the admin token, with a wrong one, and with a workspace key (401)', async () => {
      for (const options of [{}, { bearer: 'not-the-admin-token-at-all' }, { bearer: service.writeKey }, { key: ADMIN_TOKEN }]) {
        const answer = await api('GET', '/admin/workspaces', options);
        expect(answer.status).toBe(401);
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
      }
    });

    it('creates a workspace with every WorkspaceInfo field and lists it', async () => {
      const created = await api('POST', '/admin/workspaces', {
        ...admin,
        body: { name: 'Blog', ownerUserId: 'user-1', planType: 'Pro', planRecords: 5000, expirationDate: '2030-01-31T00:00:00Z' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Blog',
        ownerUserId: 'user-1',
        planType: 'Pro',
        planRecords: 5000,
        activationDate: expect.any(String),
        expirationDate: '2030-01-31T00:00:00.000Z',
      });
      const listed = await api('GET', '/admin/workspaces', admin);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual(expect.arrayContaining([created.body]));
      expect(listed.body.map((workspace: { id: string }) => workspace.id)).toContain(service.workspaceId);
    });

    it('answers 400 naming the field for a missing name, a wrong type and a body that is not JSON', async () => {
      const missing = await api('POST', '/admin/workspaces', { ...admin, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'name' })]);
      const wrongType = await api('POST', '/admin/workspaces', { ...admin, body: { name: 'x', planRecords: 'many' } });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.errors[0].field).toBe('planRecords');
      const notJson = await api('POST', '/admin/workspaces', { ...admin, rawBody: '{"name": ' });
      expect(notJson.status).toBe(400);
      expect(notJson.body).toMatchObject({ status: 400, title: 'Bad Request', errors: [{ field: 'body' }] });
    });

    it('issues keys whose policies decide access, and revokes them at once', async () => {
      const workspaceId = await createWorkspace();
      const issued = await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { name: 'both', policies: ['ReadAccess', 'WriteAccess'] } });
      expect(issued.status).toBe(201);
      expect(issued.body).toEqual({ id: expect.any(String), key: expect.stringMatching(/^cms_/), policies: ['ReadAccess', 'WriteAccess'] });
      const key = issued.body.key as string;
      expect((await api('GET', '/content-types', { key })).status).toBe(200);

      const revoked = await api('DELETE', `/admin/workspaces/${workspaceId}/api-keys/${issued.body.id}`, admin);
      expect(revoked.status).toBe(200);
      expect((await api('GET', '/content-types', { key })).status).toBe(401);
    });

    it('validates key requests: policies required and non-empty, known workspace, known key', async () => {
      const workspaceId = await createWorkspace();
      const none = await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { name: 'x' } });
      expect(none.status).toBe(400);
      expect(none.body.errors[0].field).toBe('policies');
      expect((await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { policies: [] } })).status).toBe(400);
      expect((await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { policies: ['Everything'] } })).status).toBe(400);
      expect((await api('POST', '/admin/workspaces/0b9e0a52-0000-4000-8000-000000000000/api-keys', { ...admin, body: { policies: ['ReadAccess'] } })).status).toBe(404);
      expect((await api('DELETE', `/admin/workspaces/${workspaceId}/api-keys/0b9e0a52-0000-4000-8000-000000000000`, admin)).status).toBe(404);
    });

    it('a key of one workspace cannot be revoked through another workspace', async () => {
      const first = await createWorkspace();
      const second = await createWorkspace();
      const issued = await api('POST', `/admin/workspaces/${first}/api-keys`, { ...admin, body: { policies: ['ReadAccess'] } });
      expect((await api('DELETE', `/admin/workspaces/${second}/api-keys/${issued.body.id}`, admin)).status).toBe(404);
      expect((await api('GET', '/content-types', { key: issued.body.key })).status).toBe(200);
    });

    it("lists a workspace's keys, revoked ones included, never their secrets nor hashes", async () => {
      const workspaceId = await createWorkspace('Keys');
      const reader = await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { name: 'site', policies: ['ReadAccess'] } });
      const writer = await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { policies: ['ReadAccess', 'WriteAccess'] } });
      await api('POST', `/admin/workspaces/${await createWorkspace('Elsewhere')}/api-keys`, { ...admin, body: { policies: ['ReadAccess'] } });
      expect((await api('DELETE', `/admin/workspaces/${workspaceId}/api-keys/${reader.body.id}`, admin)).status).toBe(200);

      const listed = await api('GET', `/admin/workspaces/${workspaceId}/api-keys`, admin);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([
        { id: reader.body.id, name: 'site', policies: ['ReadAccess'], createdAt: expect.any(String), revokedAt: expect.any(String) },
        { id: writer.body.id, name: null, policies: ['ReadAccess', 'WriteAccess'], createdAt: expect.any(String), revokedAt: null },
      ]);
      expect(Date.parse(listed.body[0].revokedAt)).toBeGreaterThanOrEqual(Date.parse(listed.body[0].createdAt));
      const secrets = [reader.body.key, writer.body.key].map((key: string) => key.split('_').slice(2).join('_'));
      for (const secret of secrets) expect(JSON.stringify(listed.body)).not.toContain(secret);
      expect(JSON.stringify(listed.body)).not.toMatch(/[0-9a-f]{64}/);

      expect((await api('GET', '/content-types', { key: reader.body.key })).status).toBe(401);
      expect((await api('GET', '/content-types', { key: writer.body.key })).status).toBe(200);
      expect((await api('GET', '/admin/workspaces/0b9e0a52-0000-4000-8000-000000000000/api-keys', admin)).status).toBe(404);
      expect((await api('GET', `/admin/workspaces/${workspaceId}/api-keys`, { key: writer.body.key })).status).toBe(401);
    });

    it('lists keys revoked before the listing existed: a store upgraded from a version without it backfills the list at start', async () => {
      const workspaceId = await createWorkspace('Upgraded');
      const revoked = await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { name: 'old', policies: ['ReadAccess'] } });
      await api('DELETE', `/admin/workspaces/${workspaceId}/api-keys/${revoked.body.id}`, admin);
      const live = await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { name: 'current', policies: ['WriteAccess'] } });

      // The store as the previous version left it: no api_key_list collection nor checkpoint.
      await service.service.close();
      const container = await buildContainer(loadConfig(service.environment), pino({ level: 'silent' }));
      try {
        const readStore = container.resolve(TOKENS.readStore);
        await readStore.dropCollection('api_key_list');
        await deleteCheckpointEverywhere(readStore, 'api_key_list');
      } finally {
        for (const close of container.resolve(TOKENS.closers)) await close();
      }
      service = await service.restart();
      api = client(service.url);

      // Backfilled while the service answers: the rebuild it started for the new read model finishes.
      const rebuild = await eventually(async () => {
        const status = (await api('GET', '/admin/projections', admin)).body.rebuild;
        return status?.state === 'succeeded' && status;
      });
      expect(rebuild.projections).toEqual(['api_key_list']);
      const listed = await api('GET', `/admin/workspaces/${workspaceId}/api-keys`, admin);
      expect(listed.body).toEqual([
        expect.objectContaining({ id: revoked.body.id, name: 'old', revokedAt: expect.any(String) }),
        expect.objectContaining({ id: live.body.id, name: 'current', revokedAt: null }),
      ]);
      expect((await api('GET', '/content-types', { key: revoked.body.key })).status).toBe(401);
      // A valid key without ReadAccess: known, so 403 rather than 401.
      expect((await api('GET', '/content-types', { key: live.body.key })).status).toBe(403);
    });

    it('creates a TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s) stored only encrypted', async () => {
      const workspaceId = await createWorkspace('Totp');
      const answer = await api('POST', `/admin/workspaces/${workspaceId}/totp`, admin);
      expect(answer.status).toBe(201);
      expect(answer.body.secret).toMatch(/^[A-Z2-7]+=*$/);
      const parsed = new URL(answer.body.otpauthUrl);
      expect(parsed.protocol).toBe('otpauth:');
      expect(parsed.searchParams.get('secret')).toBe(answer.body.secret);
      expect(parsed.searchParams.get('algorithm')).toBe('SHA1');
      expect(parsed.searchParams.get('digits')).toBe('6');
      expect(parsed.searchParams.get('period')).toBe('30');
      expect(new TOTP({ secret: answer.body.secret }).generate()).toMatch(/^\d{6}$/);

      const log = await rawLog(service, `workspace-${workspaceId}`);
      expect(log).toContain('TotpSecretSet');
      expect(log).not.toContain(answer.body.secret);
      expect((await api('POST', '/admin/workspaces/0b9e0a52-0000-4000-8000-000000000000/totp', admin)).status).toBe(404);
    });

    it('sets the scheduler signing secret, encrypted in the log', async () => {
      const workspaceId = await createWorkspace();
      const secret = 'a-signing-secret-of-some-length';
      expect((await api('PUT', `/admin/workspaces/${workspaceId}/scheduler-signing-secret`, { ...admin, body: { secret } })).status).toBe(200);
      const log = await rawLog(service, `workspace-${workspaceId}`);
      expect(log).toContain('SchedulerSigningSecretSet');
      expect(log).not.toContain(secret);
      const missing = await api('PUT', `/admin/workspaces/${workspaceId}/scheduler-signing-secret`, { ...admin, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].field).toBe('secret');
      expect((await api('PUT', '/admin/workspaces/0b9e0a52-0000-4000-8000-000000000000/scheduler-signing-secret', { ...admin, body: { secret } })).status).toBe(404);
    });

    it('registers apps and installs them; keys never enter the log in clear', async () => {
      const registered = await api('POST', '/admin/apps', { ...admin, body: { name: 'Translator', parameters: { mode: 'fast' }, fieldMapping: { title: 'name' } } });
      expect(registered.status).toBe(201);
      expect(registered.body).toEqual({ id: expect.any(String), key: expect.stringMatching(/^app_/) });
      expect((await api('POST', '/admin/apps', { ...admin, body: { parameters: {} } })).status).toBe(400);
      expect((await api('POST', '/admin/apps', { ...admin, body: { name: 'x', parameters: { n: 1 } } })).status).toBe(400);

      const installation = `/admin/apps/${registered.body.id}/installations/${service.workspaceId}`;
      expect((await api('PUT', installation, { ...admin, body: { userId: 'user-7', parameters: { a: 'b' } } })).status).toBe(200);
      const noUser = await api('PUT', installation, { ...admin, body: {} });
      expect(noUser.status).toBe(400);
      expect(noUser.body.errors[0].field).toBe('userId');
      expect((await api('PUT', `/admin/apps/${registered.body.id}/installations/0b9e0a52-0000-4000-8000-000000000000`, { ...admin, body: { userId: 'u' } })).status).toBe(404);
      expect((await api('PUT', `/admin/apps/0b9e0a52-0000-4000-8000-000000000000/installations/${service.workspaceId}`, { ...admin, body: { userId: 'u' } })).status).toBe(404);

      const log = await rawLog(service, `app-${registered.body.id}`);
      const secretPart = (registered.body.key as string).split('_').slice(2).join('_');
      expect(log).toContain('AppRegistered');
      expect(log).not.toContain(secretPart);
    });

    it('an app key is a valid credential without workspace policies (403)', async () => {
      const registered = await api('POST', '/admin/apps', { ...admin, body: { name: 'Viewer' } });
      const answer = await api('GET', '/content-types', { key: registered.body.key });
      expect(answer.status).toBe(403);
    });
  });
}
