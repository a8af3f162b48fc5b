import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';

interface Locale {
  code: string;
  name: string;
  fallbackCode: string | null;
  default: boolean;
}

export function describeLocales(engine: Engine): void {
  describe(`locales (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
    });
    afterAll(() => service.close());

    /** A fresh workspace per test, so each starts with no locales. */
    async function freshWorkspace() {
      const workspace = await api('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Locales' } });
      const key = (await api('POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { policies: ['ReadAccess', 'WriteAccess'] } })).body.key as string;
      return {
        put: (body: unknown) => api('PUT', '/locales', { key, body }),
        remove: (code: string) => api('DELETE', `/locales/${code}`, { key }),
        list: async () => (await api<Locale[]>('GET', '/locales', { key })).body,
      };
    }

    it('makes the first locale the default and keeps exactly one default', async () => {
      const site = await freshWorkspace();
      const first = await site.put({ code: 'en', name: 'English' });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ code: 'en', name: 'English', fallbackCode: null, default: true });
      const second = await site.put({ code: 'it', name: 'Italiano' });
      expect(second.body.default).toBe(false);

      const switched = await site.put({ code: 'it', default: true });
      expect(switched.body).toEqual({ code: 'it', name: 'Italiano', fallbackCode: null, default: true });
      const locales = await site.list();
      expect(locales.filter((locale) => locale.default).map((locale) => locale.code)).toEqual(['it']);
      expect(locales).toHaveLength(2);
    });

    it('matches an existing locale by code, case-insensitively, and updates it', async () => {
      const site = await freshWorkspace();
      await site.put({ code: 'en-US', name: 'English' });
      await site.put({ code: 'de', name: 'Deutsch' });
      const updated = await site.put({ code: 'EN-us', name: 'English (US)', fallbackCode: 'de' });
      expect(updated.body).toEqual({ code: 'en-US', name: 'English (US)', fallbackCode: 'de', default: true });
      expect(await site.list()).toHaveLength(2);
    });

    it('answers 400 for a missing or malformed code, an unknown fallback, a self fallback and a cycle', async () => {
      const site = await freshWorkspace();
      await site.put({ code: 'en' });
      await site.put({ code: 'fr', fallbackCode: 'en' });
      await site.put({ code: 'es', fallbackCode: 'fr' });

      const missing = await site.put({ name: 'No code' });
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].field).toBe('code');
      expect((await site.put({ code: 'not a code!' })).status).toBe(400);
      const unknown = await site.put({ code: 'pt', fallbackCode: 'xx' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].field).toBe('fallbackCode');
      expect((await site.put({ code: 'fr', fallbackCode: 'fr' })).status).toBe(400);
      const cycle = await site.put({ code: 'en', fallbackCode: 'es' });
      expect(cycle.status).toBe(400);
      expect(cycle.body.detail).toContain('cycle');
      expect((await site.list()).find((locale) => locale.code === 'pt')).toBeUndefined();
    });

    it('clears a fallback with null and refuses to unset the default flag on the default locale', async () => {
      const site = await freshWorkspace();
      await site.put({ code: 'en' });
      await site.put({ code: 'fr', fallbackCode: 'en' });
      expect((await site.put({ code: 'fr', fallbackCode: null })).body.fallbackCode).toBeNull();
      const unset = await site.put({ code: 'en', default: false });
      expect(unset.status).toBe(400);
      expect(unset.body.errors[0].field).toBe('default');
    });

    it('deletes a locale; 400 for the default or a fallback target; 404 for an unknown code', async () => {
      const site = await freshWorkspace();
      await site.put({ code: 'en' });
      await site.put({ code: 'fr', fallbackCode: 'en' });
      await site.put({ code: 'nl' });

      expect((await site.remove('en')).status).toBe(400);
      await site.put({ code: 'nl', default: true });
      const target = await site.remove('en');
      expect(target.status).toBe(400);
      expect(target.body.detail).toContain('fr');
      expect((await site.remove('fr')).status).toBe(200);
      expect((await site.remove('en')).status).toBe(200);
      expect((await site.remove('en')).status).toBe(404);
      expect((await site.list()).map((locale) => locale.code)).toEqual(['nl']);
    });

    it('enforces the policies (401, 403)', async () => {
      expect((await api('GET', '/locales')).status).toBe(401);
      expect((await api('GET', '/locales', { key: service.writeKey })).status).toBe(403);
      expect((await api('PUT', '/locales', { key: service.readKey, body: { code: 'en' } })).status).toBe(403);
      expect((await api('DELETE', '/locales/en', { key: service.readKey })).status).toBe(403);
      expect((await api('GET', '/locales', { key: service.readKey })).status).toBe(200);
    });
  });
}
