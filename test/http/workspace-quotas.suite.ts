import { call } from '../support/http';
import { type Engine, startTestService, type TestService } from '../support/service';
import { createBystander } from '../support/tenant-latency';

const TYPE_QUOTA = 3;
const WEBHOOK_QUOTA = 2;

const typeBody = (key: string, name = key) => ({ name, key, fields: [{ key: 'title', type: 'Text' }] });
const webhookBody = (extra: Record<string, unknown> = {}) => ({ endpoint: 'http://127.0.0.1:9/hook', description: 'quota test', ...extra });

export function describeWorkspaceQuotas(engine: Engine): void {
  describe(`workspace quotas on content types and webhooks (${engine})`, () => {
    let service: TestService;
    const environment = { CONTENT_TYPES_PER_WORKSPACE: String(TYPE_QUOTA), WEBHOOKS_PER_WORKSPACE: String(WEBHOOK_QUOTA), WEBHOOK_ALLOW_HTTP: 'true', ALLOW_PRIVATE_TARGETS: 'true' };
    const as = (key: string) => ({
      saveType: (key2: string, name?: string) => call(service.url, 'PUT', '/content-types', { key, body: typeBody(key2, name) }),
      deleteType: (key2: string) => call(service.url, 'DELETE', `/content-types/${key2}`, { key }),
      saveWebhook: (extra?: Record<string, unknown>) => call(service.url, 'PUT', '/webhooks', { key, body: webhookBody(extra) }),
      deleteWebhook: (id: string) => call(service.url, 'DELETE', `/webhooks/${id}`, { key }),
    });

    beforeAll(async () => {
      service = await startTestService(engine, environment);
    });
    afterAll(async () => {
      await service?.close();
    });

    it('refuses a content type past CONTENT_TYPES_PER_WORKSPACE with a 409 naming the limit and the setting, never a type saved again', async () => {
      const owner = as(service.writeKey);
      for (const key of ['QuotaA', 'QuotaB', 'QuotaC']) expect((await owner.saveType(key)).status).toBe(200);

      const refused = await owner.saveType('QuotaD');
      expect(refused.status).toBe(409);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body.detail).toContain(`already has ${TYPE_QUOTA} content types, the most CONTENT_TYPES_PER_WORKSPACE allows (${TYPE_QUOTA})`);
      expect((await call(service.url, 'GET', '/content-types/QuotaD', { key: service.readKey })).status).toBe(404);

      const savedAgain = await owner.saveType('QuotaB', 'Renamed at the quota');
      expect(savedAgain.status).toBe(200);
      expect(savedAgain.body.name).toBe('Renamed at the quota');

      expect((await owner.deleteType('QuotaC')).status).toBe(200);
      expect((await owner.saveType('QuotaD')).status).toBe(200);
    });

    it('refuses a webhook past WEBHOOKS_PER_WORKSPACE with a 409 naming the limit and the setting, never an update', async () => {
      const owner = as(service.writeKey);
      const first = await owner.saveWebhook();
      expect(first.status).toBe(200);
      expect((await owner.saveWebhook()).status).toBe(200);

      const refused = await owner.saveWebhook();
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain(`already has ${WEBHOOK_QUOTA} webhooks, the most WEBHOOKS_PER_WORKSPACE allows (${WEBHOOK_QUOTA})`);
      expect((await call(service.url, 'GET', '/webhooks', { key: service.readKey })).body).toHaveLength(WEBHOOK_QUOTA);

      const updated = await owner.saveWebhook({ id: first.body.id, description: 'updated at the quota' });
      expect(updated.status).toBe(200);
      expect(updated.body.description).toBe('updated at the quota');

      expect((await owner.deleteWebhook(first.body.id as string)).status).toBe(200);
      expect((await owner.saveWebhook()).status).toBe(200);
    });

    it('counts each workspace alone: one at its quotas does not hold back another', async () => {
      const owner = as(service.writeKey);
      expect((await owner.saveType('QuotaE')).status).toBe(409);
      expect((await owner.saveWebhook()).status).toBe(409);

      const bystander = as((await createBystander(service.url)).writeKey);
      for (const key of ['QuotaA', 'QuotaB', 'QuotaC']) expect((await bystander.saveType(key)).status).toBe(200);
      for (let created = 0; created < WEBHOOK_QUOTA; created++) expect((await bystander.saveWebhook()).status).toBe(200);
      expect((await bystander.saveType('QuotaE')).status).toBe(409);
    });

    it('on a store that already holds more than a lowered quota: what exists keeps being saved, nothing new is created', async () => {
      service = await service.restart({ ...environment, CONTENT_TYPES_PER_WORKSPACE: '2', WEBHOOKS_PER_WORKSPACE: '1' });
      const owner = as(service.writeKey);
      expect((await owner.saveType('QuotaA', 'Saved over the quota')).status).toBe(200);
      const refused = await owner.saveType('QuotaF');
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain('already has 3 content types, the most CONTENT_TYPES_PER_WORKSPACE allows (2)');
      const [kept] = (await call(service.url, 'GET', '/webhooks', { key: service.readKey })).body as { id: string }[];
      expect((await owner.saveWebhook({ id: kept!.id, description: 'saved over the quota' })).status).toBe(200);
      expect((await owner.saveWebhook()).status).toBe(409);

      service = await service.restart({ ...environment, CONTENT_TYPES_PER_WORKSPACE: '0', WEBHOOKS_PER_WORKSPACE: '0' });
      expect((await as(service.writeKey).saveType('QuotaF')).status).toBe(200);
      expect((await as(service.writeKey).saveWebhook()).status).toBe(200);
    });
  });
}
