import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';

const admin = { bearer: ADMIN_TOKEN };
const UNKNOWN_ID = '0b9e0a52-0000-4000-8000-000000000000';

interface WorkspaceInfo {
  readonly id: string;
  readonly name: string;
  readonly ownerUserId: string | null;
  readonly planType: string | null;
  readonly planRecords: number | null;
  readonly activationDate: string;
  readonly expirationDate: string | null;
}

interface Settings {
  readonly parameters?: Record<string, string>;
  readonly fieldMapping?: Record<string, string>;
}

const byId = (workspaces: readonly WorkspaceInfo[]) => [...workspaces].sort((a, b) => a.id.localeCompare(b.id));

/** Every Apps endpoint, as method and path. */
const appsEndpoints = (workspaceId: string): [string, string][] => [
  ['GET', '/apps'],
  ['POST', '/apps'],
  ['GET', '/apps/workspaces'],
  ['GET', '/apps/workspaces/all'],
  ['GET', `/apps/user-1/workspaces/${workspaceId}`],
];

export function describeApps(engine: Engine): void {
  describe(`apps (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
    });
    afterAll(() => service.close());

    const registerApp = async (name: string, settings: Settings = {}) => {
      const registered = await api('POST', '/admin/apps', { ...admin, body: { name, ...settings } });
      expect(registered.status).toBe(201);
      return registered.body as { id: string; key: string };
    };

    const install = async (appId: string, workspaceId: string, userId: string, settings: Settings = {}) => {
      const answer = await api('PUT', `/admin/apps/${appId}/installations/${workspaceId}`, { ...admin, body: { userId, ...settings } });
      expect(answer.status).toBe(200);
    };

    const createWorkspace = async (body: Record<string, unknown>): Promise<WorkspaceInfo> => {
      const created = await api('POST', '/admin/workspaces', { ...admin, body });
      expect(created.status).toBe(201);
      return created.body as WorkspaceInfo;
    };

    const settingsOf = (key: string, userId: string, workspaceId: string) => api('GET', `/apps/${encodeURIComponent(userId)}/workspaces/${workspaceId}`, { key });

    it('answers 401 on every Apps endpoint without a key or with an unknown, malformed or forged one', async () => {
      const app = await registerApp('Locked');
      const forged = `${app.key.slice(0, -4)}xxxx`;
      const calls = appsEndpoints(service.workspaceId);
      for (const [method, path] of calls) {
        for (const options of [{}, { key: 'not-a-key' }, { key: forged }, { bearer: `app_${'0'.repeat(32)}_${'a'.repeat(43)}` }]) {
          const answer = await api(method, path, { ...options, body: method === 'POST' ? {} : undefined });
          expect({ method, path, status: answer.status }).toEqual({ method, path, status: 401 });
          expect(answer.headers.get('content-type')).toContain('application/problem+json');
        }
      }
    });

    it('answers 403 to workspace keys, read or write, on every Apps endpoint', async () => {
      const calls = appsEndpoints(service.workspaceId);
      for (const [method, path] of calls) {
        for (const key of [service.readKey, service.writeKey]) {
          const answer = await api(method, path, { key, body: method === 'POST' ? { mode: 'hijacked' } : undefined });
          expect({ method, path, status: answer.status }).toEqual({ method, path, status: 403 });
        }
      }
    });

    it('GET /apps answers the calling app its own parameters and field mapping, with X-Api-Key or Bearer', async () => {
      const first = await registerApp('First', { parameters: { mode: 'fast' }, fieldMapping: { title: 'name' } });
      const second = await registerApp('Second', { parameters: { mode: 'slow', region: 'eu' } });

      const answer = await api('GET', '/apps', { key: first.key });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ parameters: { mode: 'fast' }, fieldMapping: { title: 'name' } });
      expect((await api('GET', '/apps', { bearer: first.key })).body).toEqual(answer.body);
      expect((await api('GET', '/apps', { key: second.key })).body).toEqual({ parameters: { mode: 'slow', region: 'eu' }, fieldMapping: {} });
    });

    it('POST /apps merges into the calling app parameters only', async () => {
      const app = await registerApp('Merging', { parameters: { mode: 'fast', region: 'eu' }, fieldMapping: { title: 'name' } });
      const other = await registerApp('Bystander', { parameters: { mode: 'fast' } });

      const merged = await api('POST', '/apps', { key: app.key, body: { region: 'us', theme: 'dark' } });
      expect(merged.status).toBe(200);
      expect(merged.body).toEqual({ success: true });
      expect((await api('POST', '/apps', { bearer: app.key, body: { theme: 'light' } })).status).toBe(200);

      expect((await api('GET', '/apps', { key: app.key })).body).toEqual({
        parameters: { mode: 'fast', region: 'us', theme: 'light' },
        fieldMapping: { title: 'name' },
      });
      expect((await api('GET', '/apps', { key: other.key })).body).toEqual({ parameters: { mode: 'fast' }, fieldMapping: {} });
      expect((await api('POST', '/apps', { key: app.key, body: {} })).status).toBe(200);
    });

    it('POST /apps answers 400 for a value that is not a string (naming the key), a body that is not an object or not JSON', async () => {
      const app = await registerApp('Strict', { parameters: { mode: 'fast' } });

      const number = await api('POST', '/apps', { key: app.key, body: { retries: 3, mode: 'slow' } });
      expect(number.status).toBe(400);
      expect(number.body.errors).toEqual([expect.objectContaining({ field: 'retries' })]);
      const nested = await api('POST', '/apps', { key: app.key, body: { options: { a: 'b' } } });
      expect(nested.body.errors).toEqual([expect.objectContaining({ field: 'options' })]);
      for (const body of [['mode', 'slow'], 'mode', null]) {
        const answer = await api('POST', '/apps', { key: app.key, body });
        expect(answer.status).toBe(400);
        expect(answer.body.errors[0].field).toBe('body');
      }
      expect((await api('POST', '/apps', { key: app.key, rawBody: '{"mode": ' })).status).toBe(400);

      expect((await api('GET', '/apps', { key: app.key })).body.parameters).toEqual({ mode: 'fast' });
    });

    it('keeps one installation per user in the same workspace, each merged over the app settings', async () => {
      const app = await registerApp('Per user', { parameters: { mode: 'fast', region: 'eu' }, fieldMapping: { title: 'name', body: 'text' } });
      const workspace = await createWorkspace({ name: 'Shared' });
      await install(app.id, workspace.id, 'user-1', { parameters: { region: 'asia' }, fieldMapping: { title: 'heading' } });
      await install(app.id, workspace.id, 'user-2', { parameters: { theme: 'dark' } });

      const first = await settingsOf(app.key, 'user-1', workspace.id);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ parameters: { mode: 'fast', region: 'asia' }, fieldMapping: { title: 'heading', body: 'text' } });
      expect((await settingsOf(app.key, 'user-2', workspace.id)).body).toEqual({
        parameters: { mode: 'fast', region: 'eu', theme: 'dark' },
        fieldMapping: { title: 'name', body: 'text' },
      });

      await api('POST', '/apps', { key: app.key, body: { mode: 'slow', region: 'us' } });
      expect((await settingsOf(app.key, 'user-1', workspace.id)).body.parameters).toEqual({ mode: 'slow', region: 'asia' });
    });

    it('re-installing for the same user replaces that user installation and leaves the others', async () => {
      const app = await registerApp('Reinstall', { parameters: { mode: 'fast' } });
      const workspace = await createWorkspace({ name: 'Reinstall' });
      await install(app.id, workspace.id, 'user-1', { parameters: { region: 'asia', theme: 'dark' }, fieldMapping: { title: 'heading' } });
      await install(app.id, workspace.id, 'user-2', { parameters: { region: 'eu' } });
      await install(app.id, workspace.id, 'user-1', { parameters: { region: 'us' } });

      expect((await settingsOf(app.key, 'user-1', workspace.id)).body).toEqual({ parameters: { mode: 'fast', region: 'us' }, fieldMapping: {} });
      expect((await settingsOf(app.key, 'user-2', workspace.id)).body).toEqual({ parameters: { mode: 'fast', region: 'eu' }, fieldMapping: {} });
      expect((await api('GET', '/apps/workspaces/all', { key: app.key })).body).toHaveLength(1);
    });

    it('answers 404 for a user, workspace or app without that installation', async () => {
      const app = await registerApp('Sparse');
      const other = await registerApp('Other');
      const installed = await createWorkspace({ name: 'Installed' });
      const elsewhere = await createWorkspace({ name: 'Elsewhere' });
      await install(app.id, installed.id, 'user-1');
      expect((await settingsOf(app.key, 'user-1', installed.id)).status).toBe(200);

      for (const [key, userId, workspaceId] of [
        [app.key, 'user-2', installed.id],
        [app.key, 'user-1', elsewhere.id],
        [app.key, 'user-1', UNKNOWN_ID],
        [other.key, 'user-1', installed.id],
      ] as const) {
        const answer = await settingsOf(key, userId, workspaceId);
        expect(answer.status).toBe(404);
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
      }
    });

    it('serves user ids that look like the fixed paths or hold separators', async () => {
      const app = await registerApp('Odd users');
      const workspace = await createWorkspace({ name: 'Odd users' });
      await install(app.id, workspace.id, 'workspaces', { parameters: { who: 'workspaces' } });
      await install(app.id, workspace.id, 'team:alpha', { parameters: { who: 'team:alpha' } });

      expect((await settingsOf(app.key, 'workspaces', workspace.id)).body.parameters).toEqual({ who: 'workspaces' });
      expect((await settingsOf(app.key, 'team:alpha', workspace.id)).body.parameters).toEqual({ who: 'team:alpha' });
      expect((await settingsOf(app.key, 'team', workspace.id)).status).toBe(404);
    });

    it('lists the workspaces where the app is installed as WorkspaceInfo, each once, narrowed by userId', async () => {
      const app = await registerApp('Lister');
      const other = await registerApp('Other lister');
      const blog = await createWorkspace({ name: 'Blog', ownerUserId: 'owner-1', planType: 'Pro', planRecords: 5000, expirationDate: '2031-01-31T00:00:00Z' });
      const shop = await createWorkspace({ name: 'Shop', ownerUserId: 'owner-2', planType: 'Free', planRecords: 100 });
      const wiki = await createWorkspace({ name: 'Wiki' });
      expect(blog).toEqual({
        id: expect.any(String),
        name: 'Blog',
        ownerUserId: 'owner-1',
        planType: 'Pro',
        planRecords: 5000,
        activationDate: expect.any(String),
        expirationDate: '2031-01-31T00:00:00.000Z',
      });
      await install(app.id, blog.id, 'user-1');
      await install(app.id, blog.id, 'user-2');
      await install(app.id, shop.id, 'user-2');
      await install(other.id, wiki.id, 'user-1');

      const listed = await api('GET', '/apps/workspaces', { key: app.key });
      expect(listed.status).toBe(200);
      expect(byId(listed.body)).toEqual(byId([blog, shop]));
      const all = await api('GET', '/apps/workspaces/all', { key: app.key });
      expect(all.status).toBe(200);
      expect(byId(all.body)).toEqual(byId([blog, shop]));

      expect((await api('GET', '/apps/workspaces?userId=user-1', { key: app.key })).body).toEqual([blog]);
      expect(byId((await api('GET', '/apps/workspaces?userId=user-2', { key: app.key })).body)).toEqual(byId([blog, shop]));
      expect((await api('GET', '/apps/workspaces?userId=nobody', { key: app.key })).body).toEqual([]);

      expect((await api('GET', '/apps/workspaces', { key: other.key })).body).toEqual([wiki]);
      expect((await api('GET', '/apps/workspaces/all', { key: other.key })).body).toEqual([wiki]);
      const lonely = await registerApp('Not installed');
      expect((await api('GET', '/apps/workspaces/all', { key: lonely.key })).body).toEqual([]);
    });

    it('answers 400 naming userId for an empty or repeated userId filter', async () => {
      const app = await registerApp('Filter');
      for (const query of ['userId=', 'userId=a&userId=b']) {
        const answer = await api('GET', `/apps/workspaces?${query}`, { key: app.key });
        expect(answer.status).toBe(400);
        expect(answer.body.errors[0].field).toBe('userId');
      }
    });

    it('rebuilds the installations from the log with every user kept', async () => {
      const app = await registerApp('Rebuilt', { parameters: { mode: 'fast' } });
      const workspace = await createWorkspace({ name: 'Rebuilt' });
      await install(app.id, workspace.id, 'user-1', { parameters: { region: 'asia' } });
      await install(app.id, workspace.id, 'user-2', { parameters: { region: 'eu' } });
      await install(app.id, workspace.id, 'user-1', { parameters: { region: 'us' } });
      await api('POST', '/apps', { key: app.key, body: { theme: 'dark' } });
      const before = [await settingsOf(app.key, 'user-1', workspace.id), await settingsOf(app.key, 'user-2', workspace.id)].map((answer) => answer.body);

      expect((await api('POST', '/admin/projections/rebuild', { ...admin, body: { projections: ['apps'] } })).status).toBe(202);
      for (;;) {
        const status = await api('GET', '/admin/projections/rebuild', admin);
        if (status.body.state !== 'running') {
          expect(status.body.state).toBe('succeeded');
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      const after = [await settingsOf(app.key, 'user-1', workspace.id), await settingsOf(app.key, 'user-2', workspace.id)].map((answer) => answer.body);
      expect(after).toEqual(before);
      expect(before[0]).toEqual({ parameters: { mode: 'fast', theme: 'dark', region: 'us' }, fieldMapping: {} });
      expect((await api('GET', '/apps/workspaces/all', { key: app.key })).body).toEqual([workspace]);
    });
  });
}
