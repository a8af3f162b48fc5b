import { createApp } from '../../src/http/app';
import { TOKENS } from '../../src/container';
import { registeredRoutes } from '../support/express-routes';
import { type Answer, client } from '../support/http';
import { schemaProblems } from '../support/json-schema';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('API reference (pglite)', () => {
  let service: TestService;
  let api: ReturnType<typeof client>;
  let document: Record<string, any>;

  beforeAll(async () => {
    service = await startTestService('pglite');
    api = client(service.url);
    document = (await api('GET', '/openapi.json')).body;
  });
  afterAll(() => service.close());

  /** The answer checked against what the document says `operationId` answers with its status. */
  function documentedProblems(operationId: string, answer: Answer): string[] {
    const operation = Object.values(document.paths as Record<string, Record<string, any>>)
      .flatMap((item) => Object.values(item))
      .find((candidate) => candidate.operationId === operationId);
    if (!operation) return [`no operation ${operationId}`];
    const response = operation.responses[String(answer.status)] ?? operation.responses.default;
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!;
    const content = response.content?.[mediaType];
    if (!content) return [`${operationId} documents no ${mediaType} answer for ${answer.status}`];
    return schemaProblems(document, content.schema, answer.body);
  }

  const exampleOf = (path: string, method: string) => document.paths[path][method].requestBody.content['application/json'].example;

  it('documents every route the app registers, and no route it does not have', () => {
    const app = createApp(service.service.container.resolve(TOKENS.http));
    const routed = new Set(registeredRoutes(app).map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    const documented = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((method) => METHODS.includes(method))
          .map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    expect(routed.size).toBeGreaterThan(90);
    expect({ undocumented: [...routed].filter((route) => !documented.has(route)), unrouted: [...documented].filter((route) => !routed.has(route)) }).toEqual({
      undocumented: [],
      unrouted: [],
    });
  });

  it('serves the document anonymously as JSON, and the browsable reference from local files', async () => {
    const json = await api('GET', '/openapi.json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(json.body).toMatchObject({ openapi: '3.1.0', paths: expect.any(Object) });

    const page = await api('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain("url: '/openapi.json'");
    const assets = [...(page.body as string).matchAll(/(?:href|src)="(\/docs\/[^"]+)"/g)].map(([, path]) => path!);
    expect(assets).toEqual(expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']));
    for (const asset of assets) {
      const answer = await fetch(`${service.url}${asset}`);
      expect([asset, answer.status]).toEqual([asset, 200]);
      await answer.arrayBuffer();
    }
    expect((await api('GET', '/docs/index.html')).status).toBe(404);
  });

  it('matches real answers of content types, locales and content to their documented schemas', async () => {
    const write = { key: service.writeKey };
    const read = { key: service.readKey };
    expect(documentedProblems('saveContentType', await api('PUT', '/content-types', { ...write, body: exampleOf('/content-types', 'put') }))).toEqual([]);
    const list = await api('GET', '/content-types', read);
    expect(list.body).toHaveLength(1);
    expect(documentedProblems('listContentTypes', list)).toEqual([]);
    expect(documentedProblems('getContentType', await api('GET', '/content-types/Nope', read))).toEqual([]);

    expect(documentedProblems('saveLocale', await api('PUT', '/locales', { ...write, body: { code: 'de', name: 'German' } }))).toEqual([]);
    expect(documentedProblems('saveLocale', await api('PUT', '/locales', { ...write, body: exampleOf('/locales', 'put') }))).toEqual([]);
    expect(documentedProblems('listLocales', await api('GET', '/locales', read))).toEqual([]);

    const saved = await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'Launch day' }, translations: { title: { de: 'Starttag' } } } });
    expect(documentedProblems('savePreviewContentV2', saved)).toEqual([]);
    const published = await api('PUT', `/v2/preview-contents/Article/${saved.body.id}/publish`, write);
    expect(documentedProblems('publishPreviewContentV2', published)).toEqual([]);
    expect(documentedProblems('getContent', await api('GET', `/contents/Article/${saved.body.id}`, read))).toEqual([]);
    expect(documentedProblems('searchContentV2', await api('POST', '/v2/contents/Article', { ...read, body: exampleOf('/v2/contents/{type}', 'post') }))).toEqual([]);
    expect(documentedProblems('getContentHistory', await api('GET', `/contents/Article/${saved.body.id}/history`, read))).toEqual([]);
    const version = await api('GET', `/v2/contents/Article/${saved.body.id}/versions/2`, read);
    expect(version.status).toBe(200);
    expect(documentedProblems('getContentV2Version', version)).toEqual([]);
    expect(documentedProblems('getPreviewContentV2Version', await api('GET', `/v2/preview-contents/Article/${saved.body.id}/versions/1`, read))).toEqual([]);
    expect(documentedProblems('getContentV2', await api('GET', `/v2/contents/Article/${saved.body.id}?asOf=2030-01-01T00:00:00Z`, read))).toEqual([]);
    expect(documentedProblems('diffContentVersions', await api('GET', `/contents/Article/${saved.body.id}/diff?from=2&to=2`, read))).toEqual([]);
    const restored = await api('POST', `/v2/preview-contents/Article/${saved.body.id}/versions/1/restore`, { ...write, body: { reason: 'check' } });
    expect(restored.status).toBe(200);
    expect(documentedProblems('restorePreviewContentV2Version', restored)).toEqual([]);
    expect(documentedProblems('aggregateGroupsContent', await api('POST', '/contents/Article/aggregategroup', { ...read, body: { fieldKey: 'title', aggregateType: 'Count', groupByFieldKey: 'title' } }))).toEqual([]);
  });

  it('matches the scheduler, webhook and admin answers to their documented schemas', async () => {
    const write = { key: service.writeKey };
    const job = await api('POST', '/scheduled-jobs', { ...write, body: exampleOf('/scheduled-jobs', 'post') });
    expect(job.status).toBe(200);
    expect(documentedProblems('scheduleJob', job)).toEqual([]);
    expect(documentedProblems('listScheduledJobs', await api('GET', '/scheduled-jobs?status=Pending', { key: service.readKey }))).toEqual([]);
    expect(documentedProblems('cancelScheduledJob', await api('DELETE', `/scheduled-jobs/${job.body.id}`, write))).toEqual([]);

    const webhook = await api('PUT', '/webhooks', { ...write, body: { ...exampleOf('/webhooks', 'put'), eventTypes: {} } });
    expect(documentedProblems('saveWebhook', webhook)).toEqual([]);
    expect(documentedProblems('listWebhookDeliveries', await api('GET', `/webhooks/${webhook.body.id}/events`, { key: service.readKey }))).toEqual([]);

    const workspace = await api('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: exampleOf('/admin/workspaces', 'post') });
    expect(workspace.status).toBe(201);
    expect(documentedProblems('createWorkspace', workspace)).toEqual([]);
    const admin = { bearer: ADMIN_TOKEN };
    const issued = await api('POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { ...admin, body: exampleOf('/admin/workspaces/{workspaceId}/api-keys', 'post') });
    await api('DELETE', `/admin/workspaces/${workspace.body.id}/api-keys/${issued.body.id}`, admin);
    await api('POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { ...admin, body: { policies: ['ReadAccess'] } });
    const keys = await api('GET', `/admin/workspaces/${workspace.body.id}/api-keys`, admin);
    expect(keys.body).toHaveLength(2);
    expect(documentedProblems('listApiKeys', keys)).toEqual([]);
    expect(documentedProblems('getProjectionsStatus', await api('GET', '/admin/projections', admin))).toEqual([]);
    const item = await api('PUT', '/v2/contents/Article', { key: service.writeKey, body: { fields: { title: 'undo me' } } });
    const history = await api('GET', `/admin/workspaces/${service.workspaceId}/contents/${item.body.id}/history`, admin);
    expect(documentedProblems('getOperatorContentHistory', history)).toEqual([]);
    const plan = await api('POST', `/admin/workspaces/${service.workspaceId}/content-undo`, { ...admin, body: { selector: { requestId: history.body[0].serverRequestId }, dryRun: true } });
    expect(plan.body.items).toHaveLength(1);
    expect(documentedProblems('undoContentChanges', plan)).toEqual([]);
    const undone = await api('POST', `/admin/workspaces/${service.workspaceId}/content-undo`, { ...admin, body: { selector: { requestId: history.body[0].serverRequestId }, reason: 'check' } });
    expect(undone.body.items).toEqual([expect.objectContaining({ outcome: 'deleted' })]);
    expect(documentedProblems('undoContentChanges', undone)).toEqual([]);
    expect(documentedProblems('getHealth', await api('GET', '/health'))).toEqual([]);
    expect(documentedProblems('getServerTime', await api('GET', '/utility/server-time'))).toEqual([]);
  });

  it('matches the answers of a chunked upload and of asset reads to their documented schemas', async () => {
    const chunk = exampleOf('/assets/uploadAsset', 'post');
    const started = await api('POST', '/assets/uploadAsset', { key: service.writeKey, body: chunk });
    expect(started.status).toBe(202);
    expect(documentedProblems('uploadAssetChunk', started)).toEqual([]);
    const read = { key: service.readKey };
    expect(documentedProblems('getAsset', await api('GET', `/assets/${chunk.assetId}`, read))).toEqual([]);
    expect(documentedProblems('getAssetByHash', await api('POST', '/assets/getByHash', { ...read, body: exampleOf('/assets/getByHash', 'post') }))).toEqual([]);
    const missing = await api('POST', '/assets/getByHash', { ...read, body: { hash: '0'.repeat(32), size: 1 } });
    expect(missing.status).toBe(404);
    expect(documentedProblems('getAssetByHash', missing)).toEqual([]);
  });

  it('matches error answers to the shared Problem schema', async () => {
    const invalid = await api('POST', '/scheduled-jobs', { key: service.writeKey, body: { callbackUrl: 'ftp://nowhere', recurrenceSeconds: 5 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['callbackUrl', 'recurrenceSeconds']);
    expect(documentedProblems('scheduleJob', invalid)).toEqual([]);

    const unauthenticated = await api('GET', '/content-types');
    expect(unauthenticated.status).toBe(401);
    expect(documentedProblems('listContentTypes', unauthenticated)).toEqual([]);
    const forbidden = await api('PUT', '/locales', { key: service.readKey, body: { code: 'fr' } });
    expect(forbidden.status).toBe(403);
    expect(documentedProblems('saveLocale', forbidden)).toEqual([]);
  });
});
