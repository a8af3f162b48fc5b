/** The real entities the generated requests point at, so that bad input also reaches handlers past their lookups. */
export interface Fixtures {
  readonly workspaceId: string;
  readonly readKey: string;
  readonly writeKey: string;
  readonly adminToken: string;
  readonly contentType: string;
  readonly itemId: string;
  /** An image asset: image routes get as far as the renderer. */
  readonly assetId: string;
  readonly assetFileName: string;
  readonly webhookId: string;
  readonly jobId: string;
  /** A release in draft that the requests may fill, publish, schedule, cancel and revert. */
  readonly releaseId: string;
  /** Where webhooks and jobs of the requests that happen to be valid are sent. */
  readonly receiverUrl: string;
}

export type Credential = 'read' | 'write' | 'admin' | 'none';

/** A real route with a valid request to start from; `:name` segments are filled from `params`. */
export interface Route {
  readonly method: string;
  readonly path: string;
  readonly credential: Credential;
  readonly body?: Record<string, unknown>;
  readonly query?: Record<string, string>;
  /** A path id naming nothing still gets a 2xx (an empty page), by design. */
  readonly unknownIdsAnswered?: boolean;
}

/** Valid values of the path parameters. */
export function pathParams(f: Fixtures): Record<string, string> {
  return {
    type: f.contentType,
    key: f.contentType,
    id: f.itemId,
    n: '1',
    assetId: f.assetId,
    webhookId: f.webhookId,
    eventId: '00000000-0000-4000-8000-000000000001',
    jobId: f.jobId,
    releaseId: f.releaseId,
    workspaceId: f.workspaceId,
    keyId: '00000000-0000-4000-8000-000000000002',
    code: 'de',
    threadId: '00000000-0000-4000-8000-000000000003',
    runId: '00000000-0000-4000-8000-000000000004',
    actionId: 'publish-hook',
    operationId: '00000000-0000-4000-8000-000000000005',
    userId: 'user-1',
    appId: '00000000-0000-4000-8000-000000000006',
    sharedKey: 'sak_unknown',
    imagePath: `${f.assetId}/${f.assetFileName}`,
    quarantineId: 'content_items@1/1',
  };
}

const CONTENT_FAMILIES = ['/contents', '/preview-contents', '/v2/contents', '/v2/preview-contents'];

export function routes(f: Fixtures): Route[] {
  const v2Fields = { title: 'fuzz', price: 3, inStock: true, released: '2026-01-01T00:00:00Z', tags: { any: 'json' } };
  const page = { page: 1, pageSize: 10, filter: { type: 'condition', fieldKey: 'price', operator: 'gt', value: 1 }, order: { fieldKey: 'price', sortDir: 'Desc' } };
  const aggregate = { fieldKey: 'price', aggregateType: 'Sum', filter: { type: 'condition', fieldKey: 'inStock', operator: 'e', value: true } };
  const content = CONTENT_FAMILIES.flatMap((base): Route[] => [
    { method: 'POST', path: `${base}/:type/ids`, credential: 'read', body: page },
    { method: 'POST', path: `${base}/:type/aggregate`, credential: 'read', body: aggregate },
    { method: 'POST', path: `${base}/:type/aggregategroup`, credential: 'read', body: { ...aggregate, groupByFieldKey: 'inStock' } },
    { method: 'GET', path: `${base}/:type/:id`, credential: 'read' },
    { method: 'GET', path: `${base}/:type/:id`, credential: 'read', query: { asOf: '2030-01-01T00:00:00Z' } },
    { method: 'DELETE', path: `${base}/:type/:id`, credential: 'write' },
    { method: 'GET', path: `${base}/:type/:id/history`, credential: 'read' },
    { method: 'GET', path: `${base}/:type/:id/versions/:n`, credential: 'read' },
    { method: 'POST', path: `${base}/:type/:id/versions/:n/restore`, credential: 'write', body: { reason: 'fuzz', clientInfo: 'fuzz' } },
    { method: 'GET', path: `${base}/:type/:id/diff`, credential: 'read', query: { from: '2', to: '2' } },
    ...(base.startsWith('/v2')
      ? [
          { method: 'POST', path: `${base}/:type`, credential: 'read', body: page } as Route,
          { method: 'PUT', path: `${base}/:type`, credential: 'write', body: { id: f.itemId, fields: v2Fields, translations: {}, clientInfo: 'fuzz' } } as Route,
        ]
      : [
          { method: 'POST', path: `${base}/:type/:id`, credential: 'read', body: { locale: 'en', includeRelations: ['maker'] } } as Route,
          {
            method: 'PUT',
            path: `${base}/:type`,
            credential: 'write',
            body: { id: f.itemId, contentType: f.contentType, fields: [{ key: 'title', type: 'Text', value: 'fuzz' }], clientInfo: 'fuzz' },
          } as Route,
        ]),
    ...(base.includes('preview')
      ? [{ method: 'PUT', path: `${base}/:type/:id/publish`, credential: 'write', body: { clientInfo: 'fuzz' } } as Route]
      : [
          { method: 'PUT', path: `${base}/:type/:id/unpublish`, credential: 'write', body: { clientInfo: 'fuzz' } } as Route,
        ]),
  ]);
  return [
    ...content,
    { method: 'PUT', path: '/contents/:type/encrypt', credential: 'write', body: { id: f.itemId, encryptFields: { serial: 'S-1' }, clientInfo: 'fuzz' } },
    { method: 'POST', path: '/contents/:type/encrypt/check', credential: 'read', body: { id: f.itemId, encryptFields: { serial: 'S-1' } } },
    { method: 'POST', path: '/contents/:type/encrypt/decrypt', credential: 'read', body: { id: f.itemId, encryptFieldKeys: ['serial'], totpCode: '123456' } },
    { method: 'GET', path: '/content-types', credential: 'read' },
    { method: 'GET', path: '/content-types/:key', credential: 'read' },
    {
      method: 'PUT',
      path: '/content-types',
      credential: 'write',
      body: { name: 'Fuzzed', key: 'Fuzzed', fields: [{ key: 'title', type: 'Text', required: true, sortIndex: 0 }], versioningDisabled: false },
    },
    {
      method: 'POST',
      path: '/content-types/check',
      credential: 'write',
      body: { name: 'Fuzzed', key: 'Fuzzed', fields: [{ key: 'title', type: 'Text', required: true, maxLength: 80, pattern: '^[A-Z]' }] },
    },
    { method: 'DELETE', path: '/content-types/:key', credential: 'write' },
    { method: 'GET', path: '/locales', credential: 'read' },
    { method: 'PUT', path: '/locales', credential: 'write', body: { code: 'de', name: 'German', fallbackCode: null, default: false } },
    { method: 'DELETE', path: '/locales/:code', credential: 'write' },
    { method: 'GET', path: '/assets/:assetId', credential: 'read' },
    { method: 'PUT', path: '/assets/:assetId', credential: 'write', body: { title: 'fuzz', description: 'fuzzed' } },
    { method: 'DELETE', path: '/assets/:assetId', credential: 'write' },
    { method: 'POST', path: '/assets/getByHash', credential: 'read', body: { hash: '0123456789abcdef0123456789abcdef', size: 10 } },
    { method: 'POST', path: '/assets/search', credential: 'read', body: { page: 1, pageSize: 10, assetType: 'Image', text: 'fuzz' } },
    { method: 'POST', path: '/assets/:assetId/shared-access-keys', credential: 'write', body: { expiresInSeconds: 60 } },
    { method: 'DELETE', path: '/assets/:assetId/shared-access-keys/:sharedKey', credential: 'write' },
    { method: 'GET', path: '/shared-access/:workspaceId/asset/:assetId', credential: 'none', query: { sharedAccessKey: 'sak_unknown' } },
    { method: 'GET', path: '/images/:assetId', credential: 'read', query: { width: '10', height: '10', quality: '80', format: 'png', enlarge: 'false' } },
    { method: 'GET', path: '/images/bypath/:imagePath', credential: 'read', query: { width: '10' } },
    { method: 'GET', path: '/webhooks', credential: 'read' },
    { method: 'GET', path: '/webhooks/:webhookId', credential: 'read' },
    { method: 'PUT', path: '/webhooks', credential: 'write', body: { endpoint: `${f.receiverUrl}/fuzz`, eventTypes: { [f.contentType]: [0, 3] }, description: 'fuzz', enabled: false } },
    { method: 'DELETE', path: '/webhooks/:webhookId', credential: 'write' },
    { method: 'POST', path: '/webhooks/:webhookId/enable', credential: 'write' },
    { method: 'POST', path: '/webhooks/:webhookId/disable', credential: 'write' },
    { method: 'POST', path: '/webhooks/:webhookId/test', credential: 'write' },
    {
      // The delivery log of a deleted webhook stays readable, so an id naming no webhook is an empty page.
      method: 'GET',
      path: '/webhooks/:webhookId/events',
      credential: 'read',
      unknownIdsAnswered: true,
      query: { page: '1', pageSize: '20', status: '2', eventType: '3', contentType: f.contentType, from: '2026-01-01T00:00:00Z', to: '2036-01-01T00:00:00Z' },
    },
    { method: 'GET', path: '/webhooks/:webhookId/events/:eventId', credential: 'read' },
    { method: 'POST', path: '/webhooks/:webhookId/events/:eventId/retry', credential: 'write' },
    {
      method: 'POST',
      path: '/scheduled-jobs',
      credential: 'write',
      body: { name: 'fuzz', delaySeconds: 3600, callbackUrl: `${f.receiverUrl}/job`, method: 'POST', headers: { 'X-Fuzz': '1' }, payload: { a: 1 }, maxRetries: 1, idempotencyKey: 'fuzz' },
    },
    { method: 'GET', path: '/scheduled-jobs', credential: 'read', query: { page: '1', pageSize: '10', status: 'Pending', from: '2026-01-01T00:00:00Z', to: '2036-01-01T00:00:00Z' } },
    { method: 'GET', path: '/scheduled-jobs/:jobId', credential: 'read' },
    { method: 'DELETE', path: '/scheduled-jobs/:jobId', credential: 'write' },
    { method: 'POST', path: '/ai-assistant/thread', credential: 'read', body: { threadId: null, prompt: 'which products are in stock?' } },
    { method: 'GET', path: '/ai-assistant/thread/:threadId/run/:runId/status', credential: 'read' },
    { method: 'GET', path: '/ai-assistant/thread/:threadId/response', credential: 'read' },
    { method: 'GET', path: '/actions/:type/:id/:actionId/execute', credential: 'read' },
    { method: 'GET', path: '/actions/:type/:id/:actionId/navigate', credential: 'read' },
    { method: 'GET', path: '/actions/:type/:id/:actionId/status', credential: 'read' },
    { method: 'POST', path: '/actions/callback/:workspaceId/:operationId', credential: 'none', body: { success: true, result: 'ok', message: 'done', progress: 100 } },
    { method: 'GET', path: '/apps', credential: 'read' },
    { method: 'POST', path: '/apps', credential: 'write', body: { theme: 'dark' } },
    { method: 'GET', path: '/apps/workspaces', credential: 'read', query: { userId: 'user-1' } },
    { method: 'GET', path: '/apps/:userId/workspaces/:workspaceId', credential: 'read' },
    { method: 'GET', path: '/utility/server-time', credential: 'none' },
    { method: 'POST', path: '/admin/workspaces', credential: 'admin', body: { name: 'fuzz', ownerUserId: 'user-1', planType: 'free', planRecords: 10, expirationDate: '2030-01-01T00:00:00Z' } },
    { method: 'GET', path: '/admin/workspaces', credential: 'admin' },
    { method: 'POST', path: '/admin/workspaces/:workspaceId/api-keys', credential: 'admin', body: { name: 'fuzz', policies: ['ReadAccess'] } },
    { method: 'DELETE', path: '/admin/workspaces/:workspaceId/api-keys/:keyId', credential: 'admin' },
    { method: 'PUT', path: '/admin/workspaces/:workspaceId/scheduler-signing-secret', credential: 'admin', body: { secret: 'fuzz-signing-secret-0123456789' } },
    { method: 'POST', path: '/admin/apps', credential: 'admin', body: { name: 'fuzz', parameters: { a: '1' }, fieldMapping: { b: '2' } } },
    { method: 'PUT', path: '/admin/apps/:appId/installations/:workspaceId', credential: 'admin', body: { userId: 'user-1', parameters: {}, fieldMapping: {} } },
    { method: 'GET', path: '/admin/projections', credential: 'admin' },
    { method: 'GET', path: '/admin/workspaces/:workspaceId/contents/:id/history', credential: 'admin', query: { fromVersion: '1', limit: '50' } },
    { method: 'POST', path: '/admin/workspaces/:workspaceId/content-undo', credential: 'admin', body: { selector: { actor: 'key:fuzz' }, dryRun: true } },
    { method: 'POST', path: '/v2/contents/:type/:id/erase', credential: 'write', body: { reason: 'fuzz', clientInfo: 'fuzz' } },
    { method: 'GET', path: '/admin/workspaces/:workspaceId/audit', credential: 'admin', query: { actorKind: 'apiKey', from: '2026-01-01T00:00:00Z', limit: '20' } },
    { method: 'GET', path: '/admin/audit', credential: 'admin', query: { limit: '5' } },
    ...releaseRoutes(f),
    { method: 'POST', path: '/admin/projections/rebuild', credential: 'admin', body: { projections: ['no-such-projection'] } },
    { method: 'GET', path: '/admin/projections/quarantine', credential: 'admin', query: { state: 'all' } },
    { method: 'POST', path: '/admin/projections/quarantine/:quarantineId/skip', credential: 'admin', body: { reason: 'fuzz' } },
    { method: 'POST', path: '/admin/projections/quarantine/:quarantineId/retry', credential: 'admin' },
  ];
}

function releaseRoutes(f: Fixtures): Route[] {
  const entry = { contentType: f.contentType, action: 'publish' };
  return [
    { method: 'POST', path: '/v2/releases', credential: 'write', body: { name: 'fuzz' } },
    { method: 'GET', path: '/v2/releases', credential: 'read', query: { page: '1', pageSize: '10' } },
    { method: 'POST', path: '/v2/releases/item-schedules', credential: 'write', body: { itemId: f.itemId, contentType: f.contentType, publishAt: '2035-01-01T00:00:00Z' } },
    { method: 'GET', path: '/v2/releases/:releaseId', credential: 'read' },
    { method: 'PUT', path: '/v2/releases/:releaseId/items/:id', credential: 'write', body: entry },
    { method: 'POST', path: '/v2/releases/:releaseId/items', credential: 'write', body: { items: [{ itemId: f.itemId, ...entry }] } },
    { method: 'DELETE', path: '/v2/releases/:releaseId/items/:id', credential: 'write' },
    { method: 'POST', path: '/v2/releases/:releaseId/validate', credential: 'read' },
    { method: 'POST', path: '/v2/releases/:releaseId/publish', credential: 'write' },
    { method: 'PUT', path: '/v2/releases/:releaseId/schedule', credential: 'write', body: { publishAt: '2035-01-01T00:00:00Z' } },
    { method: 'POST', path: '/v2/releases/:releaseId/cancel', credential: 'write' },
    { method: 'POST', path: '/v2/releases/:releaseId/revert', credential: 'write', body: { reason: 'fuzz' } },
  ];
}

/** Routes that take a JSON body (upload chunks are generated apart). */
export const withBody = (all: readonly Route[]) => all.filter((route) => route.body !== undefined);
