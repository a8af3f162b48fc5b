import sharp from 'sharp';
import {
  checkWebhookSignature,
  CmsAdminClient,
  CmsAppClient,
  CmsClient,
  CmsError,
  CmsPublicClient,
  type IssuedApiKey,
  type WorkspaceInfo,
  verifyWebhookSignature,
} from '../../clients/typescript/src';
import { type ReceivedRequest, startHttpReceiver, type Receiver } from '../support/receivers';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

const SCHEDULER_SECRET = 'sdk-scheduler-signing-secret-0123';
const articleType = {
  name: 'Article',
  key: 'Article',
  fieldTitleKey: 'title',
  fields: [
    { key: 'title', type: 'Text' as const, name: 'Title', required: true, translatable: true },
    { key: 'category', type: 'Text' as const },
    { key: 'rank', type: 'Number' as const },
  ],
};

async function rejection(promise: Promise<unknown>): Promise<CmsError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CmsError);
  return error as CmsError;
}

const signatureOf = (request: ReceivedRequest) => request.headers['svc-signature'] as string;

/** The SDK driving the real service: every call below goes through it, none around it. */
describe('the TypeScript SDK against the service (pglite)', () => {
  let service: TestService;
  let receiver: Receiver;
  let admin: CmsAdminClient;
  let publicApi: CmsPublicClient;
  let workspace: WorkspaceInfo;
  let key: IssuedApiKey;
  let cms: CmsClient;

  const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    service = await startTestService('pglite', { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOW_HTTP: 'true' });
    admin = new CmsAdminClient({ baseUrl: service.url, adminToken: ADMIN_TOKEN });
    publicApi = new CmsPublicClient({ baseUrl: service.url });
  });

  afterAll(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('lets the admin create a workspace and a key for it', async () => {
    workspace = await admin.workspaces.create({ name: 'SDK site', ownerUserId: 'user-1', planType: 'Pro' });
    key = await admin.workspaces.issueApiKey(workspace.id, { name: 'sdk', policies: ['ReadAccess', 'WriteAccess'] });
    cms = new CmsClient({ baseUrl: service.url, apiKey: key.key });

    expect(workspace).toMatchObject({ id: expect.any(String), name: 'SDK site', ownerUserId: 'user-1', planType: 'Pro' });
    expect(key.policies).toEqual(['ReadAccess', 'WriteAccess']);
    expect((await admin.workspaces.list()).map((info) => info.id)).toContain(workspace.id);
  });

  it('saves a content type and locales', async () => {
    const saved = await cms.contentTypes.save(articleType);
    expect(saved).toMatchObject({ key: 'Article', fieldTitleKey: 'title', versioningDisabled: false, actions: [] });
    expect(await cms.contentTypes.get('Article')).toEqual(saved);
    expect(await cms.contentTypes.list()).toEqual([saved]);

    await cms.locales.save({ code: 'en', name: 'English' });
    await cms.locales.save({ code: 'de', name: 'German', fallbackCode: 'en' });
    expect(await cms.locales.list()).toEqual([
      { code: 'de', name: 'German', fallbackCode: 'en', default: false },
      { code: 'en', name: 'English', fallbackCode: null, default: true },
    ]);
  });

  describe('content', () => {
    let launchId: string;

    it('saves a V2 draft, publishes it, and reads it through V1 and V2', async () => {
      const draft = await cms.previewContentsV2.save('Article', { fields: { title: 'Launch', category: 'news', rank: 3 }, translations: { title: { de: 'Start' } }, clientInfo: 'sdk draft' });
      launchId = draft.id;
      expect(await cms.previewContentsV2.get('Article', launchId)).toEqual(draft);
      await expect(rejection(cms.contentsV2.get('Article', launchId))).resolves.toMatchObject({ status: 404 });

      expect(await cms.previewContentsV2.publish('Article', launchId, 'sdk release')).toEqual({ success: true });
      expect(await cms.contentsV2.get('Article', launchId)).toEqual({ id: launchId, fields: { title: 'Launch', category: 'news', rank: 3 }, translations: { title: { de: 'Start' } } });
      const v1 = await cms.contents.get('Article', launchId);
      expect(v1).toMatchObject({ id: launchId, contentType: 'Article', createdAt: expect.any(String) });
      expect(v1.fields).toEqual(expect.arrayContaining([{ type: 'Text', key: 'title', value: 'Launch' }, { type: 'Number', key: 'rank', value: 3 }]));
      const german = await cms.contents.view('Article', launchId, { locale: 'de' });
      expect(german.fields).toContainEqual({ type: 'Text', key: 'title', value: 'Start' });
    });

    it('searches with a filter and an order, counts ids and aggregates', async () => {
      await cms.contentsV2.save('Article', { fields: { title: 'Blog post', category: 'blog', rank: 5 } });
      await cms.contentsV2.save('Article', { fields: { title: 'Update', category: 'news', rank: 7 } });

      const news = await cms.contentsV2.search('Article', {
        filter: { type: 'condition', fieldKey: 'category', operator: 'e', value: 'news' },
        order: { fieldKey: 'rank', sortDir: 'Desc' },
      });
      expect(news).toMatchObject({ total: 2, page: 1, pageSize: 20, totalPages: 1, hasMorePages: false });
      expect(news.items.map((item) => item.fields.title)).toEqual(['Update', 'Launch']);
      const declared = await admin.contentTypes.declareQueryIndexes(workspace.id, 'Article', { indexes: [{ fields: ['category', { key: 'rank', direction: 'desc' }] }] });
      const indexes = [{ fields: [{ key: 'category', direction: 'asc' as const }, { key: 'rank', direction: 'desc' as const }], origin: 'declared' as const }];
      // Usually answered before the builder's next pass (the table not serving yet, or its indexes still to be built).
      expect(declared).toEqual({ indexes, forbidden: [], state: expect.stringMatching(/^(waiting|building|built)$/), indexesPerWrite: declared.state === 'waiting' ? null : 4 });
      const built = await eventually(async () => {
        const answer = await admin.contentTypes.getQueryIndexes(workspace.id, 'Article');
        return answer.state === 'built' && answer;
      });
      expect(built).toEqual({ indexes, forbidden: [], state: 'built', indexesPerWrite: 4 });
      // The search's shape, now served by the declared index.
      const { shapes } = await admin.contentTypes.getQueryShapes(workspace.id, 'Article');
      expect(shapes).toEqual([
        expect.objectContaining({ kind: 'list', filter: 'category e', order: [{ fieldKey: 'rank', direction: 'desc' }], count: 1, status: 'indexed', servedBy: 'declared', index: { fields: indexes[0]!.fields } }),
      ]);

      const launched = await cms.contents.ids('Article', { filter: { type: 'and', conditions: [{ type: 'condition', fieldKey: 'title', operator: 'start', value: 'lau', caseInsensitive: true }] } });
      expect(launched).toEqual({ ids: [launchId], total: 1 });
      expect(await cms.contentsV2.aggregate('Article', { fieldKey: 'rank', aggregateType: 'Sum' })).toEqual({ value: 15 });
      const groups = await cms.contentsV2.aggregateGroups('Article', { fieldKey: 'rank', aggregateType: 'Max', groupByFieldKey: 'category' });
      expect(groups.items).toEqual(expect.arrayContaining([{ groupValue: 'news', aggregateValue: 7 }, { groupValue: 'blog', aggregateValue: 5 }]));

      // The same queries as GETs, the query in the query string.
      const newsPage = { filter: { type: 'condition' as const, fieldKey: 'category', operator: 'e' as const, value: 'news' }, order: { fieldKey: 'rank', sortDir: 'Desc' as const }, pageSize: 1, page: 2 };
      expect(await cms.contentsV2.list('Article', newsPage)).toEqual(await cms.contentsV2.search('Article', newsPage));
      expect((await cms.contentsV2.list('Article', newsPage)).items.map((item) => item.fields.title)).toEqual(['Launch']);
      expect(await cms.contents.getIds('Article', { filter: { type: 'condition', fieldKey: 'title', operator: 'start', value: 'Lau' } })).toEqual(launched);
      expect(await cms.previewContentsV2.getAggregate('Article', { fieldKey: 'rank', aggregateType: 'Sum' })).toEqual(await cms.previewContentsV2.aggregate('Article', { fieldKey: 'rank', aggregateType: 'Sum' }));
      expect(await cms.contentsV2.getAggregateGroups('Article', { fieldKey: 'rank', aggregateType: 'Max', groupByFieldKey: 'category' })).toEqual(groups);
    });

    it('tells the history of an item and reads an earlier version', async () => {
      await cms.contentsV2.save('Article', { id: launchId, fields: { title: 'Launch (updated)', category: 'news', rank: 3 }, clientInfo: 'sdk edit' });
      const history = await cms.contentsV2.history('Article', launchId);
      expect(history.map((entry) => entry.clientInfo)).toEqual(expect.arrayContaining(['sdk draft', 'sdk release', 'sdk edit']));
      expect(history[0]).toMatchObject({ version: 1, actor: `key:${key.id}` });
      expect(await cms.contents.history('Article', launchId)).toEqual(history);
      expect((await cms.previewContentsV2.version('Article', launchId, 1)).item.fields.title).toBe('Launch');
      expect(await cms.previewContents.history('Article', launchId)).toEqual(history);
      const published = history.find((entry) => entry.type === 'ContentPublished')!;
      expect(await cms.contentsV2.version('Article', launchId, published.version)).toMatchObject({ stage: 'published', publishedAt: published.at });
      expect((await cms.contentsV2.get('Article', launchId, { asOf: new Date(published.at) })).fields.title).toBe('Launch');
      expect(await cms.contentsV2.diff('Article', launchId, published.version, history.length)).toEqual([{ op: 'replace', path: '/fields/title', value: 'Launch (updated)' }]);
      const restored = await cms.previewContentsV2.restore('Article', launchId, 1, { reason: 'sdk undo' });
      expect(restored).toMatchObject({ restoredFrom: 1, item: { fields: { title: 'Launch' } } });
      expect((await cms.previewContents.get('Article', launchId)).fields).toContainEqual({ type: 'Text', key: 'title', value: 'Launch' });

      const operatorView = await admin.contents.history(workspace.id, launchId);
      expect(operatorView.at(-1)).toMatchObject({ type: 'ContentRestored', clientInfo: null, contentType: 'Article' });
      const plan = await admin.contents.undo(workspace.id, { selector: { requestId: operatorView.at(-1)!.serverRequestId! }, dryRun: true });
      expect(plan.items).toEqual([expect.objectContaining({ itemId: launchId, action: 'restore', restoreVersion: operatorView.length - 1 })]);
    });

    it('patches some fields of a draft and of published content (JSON Merge Patch)', async () => {
      const draft = await cms.previewContentsV2.save('Article', { fields: { title: 'Patched', category: 'misc', rank: 1 } });
      const patched = await cms.previewContentsV2.patch('Article', draft.id, { fields: { rank: 2, category: null }, clientInfo: 'sdk patch' });
      expect(patched).toEqual({ id: draft.id, fields: { title: 'Patched', rank: 2 }, translations: {} });
      await expect(rejection(cms.contentsV2.patch('Article', draft.id, { fields: { rank: 3 } }))).resolves.toMatchObject({ status: 404 });
      await cms.previewContentsV2.publish('Article', draft.id);
      expect((await cms.contentsV2.patch('Article', draft.id, { fields: { rank: 3 } })).fields).toEqual({ title: 'Patched', rank: 3 });
      expect(await cms.contentsV2.delete('Article', draft.id)).toEqual({ success: true });
    });
  });

  describe('assets', () => {
    const bytes = Buffer.from('hello from the SDK, in two chunks');
    let assetId: string;

    it('uploads a file in two chunks and fetches it', async () => {
      const uploaded = await cms.assets.upload({ content: bytes, fileName: 'hello.txt' }, { chunkSize: 20, title: 'Greeting' });
      assetId = uploaded.assetId;
      expect(uploaded).toMatchObject({ duplicate: false, chunkCount: 2, size: bytes.length });

      const asset = await cms.assets.get(assetId);
      expect(asset).toMatchObject({ id: assetId, title: 'Greeting', fileInfo: { hash: uploaded.md5, fileSize: bytes.length, fileName: 'hello.txt' }, assetType: 'Document' });
      expect(await cms.assets.getByHash(uploaded.md5, bytes.length)).toMatchObject({ id: assetId });
      expect(await cms.assets.getByHash('0'.repeat(32), 1)).toBeNull();
      expect((await cms.assets.search({ text: 'greet' })).items.map((item) => item.id)).toEqual([assetId]);

      const again = await cms.assets.upload({ content: bytes, fileName: 'copy.txt' }, { chunkSize: 20 });
      expect(again).toMatchObject({ assetId, duplicate: true });
    });

    it('downloads it anonymously with a shared access key until the key is revoked', async () => {
      const shared = await cms.assets.issueSharedAccessKey(assetId, 3600);
      const download = await publicApi.downloadSharedAsset(workspace.id, assetId, shared.sharedAccessKey);
      expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
      const part = await publicApi.downloadSharedAsset(workspace.id, assetId, shared.sharedAccessKey, 'bytes=0-4');
      expect([part.status, await part.text()]).toEqual([206, 'hello']);

      await cms.assets.revokeSharedAccessKey(assetId, shared.sharedAccessKey);
      await expect(rejection(publicApi.downloadSharedAsset(workspace.id, assetId, shared.sharedAccessKey))).resolves.toMatchObject({ status: 403 });
    });

    it('serves an uploaded image resized, by id and by storage path, and answers 304 for a current ETag', async () => {
      const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
      const { assetId: imageId } = await cms.assets.upload({ content: png, fileName: 'banner.png' });

      const resized = await cms.images.get(imageId, { width: 10, format: 'webp' });
      expect(resized.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(Buffer.from(await resized.arrayBuffer())).metadata()).width).toBe(10);
      const unchanged = await cms.images.get(imageId, { width: 10, format: 'webp', ifNoneMatch: resized.headers.get('etag')! });
      expect(unchanged.status).toBe(304);
      expect((await cms.images.getByPath(`${imageId}/banner.png`, { height: 5 })).headers.get('content-type')).toBe('image/png');
    });

    it('makes a signed image URL that needs no key, serves it through the public client, and stops it after a rotation without grace', async () => {
      const png = await sharp({ create: { width: 60, height: 30, channels: 3, background: { r: 90, g: 20, b: 200 } } }).png().toBuffer();
      const { assetId: imageId } = await cms.assets.upload({ content: png, fileName: 'signed.png' });
      const signed = await cms.images.signedUrl(imageId, { width: 20, format: 'webp', expiresInSeconds: 3600 });
      expect(signed).toMatchObject({ url: expect.stringContaining(`/images/signed/${workspace.id}/${imageId}/1?`), assetVersion: 1 });
      // The keyed address is not one a page can use: it needs the key.
      expect((await fetch(cms.images.url(imageId, { width: 20 }))).status).toBe(401);

      const image = await publicApi.getSignedImage(signed.url);
      expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/webp']);
      expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(20);
      expect((await publicApi.getSignedImage(signed.url, image.headers.get('etag')!)).status).toBe(304);

      expect(await cms.images.rotateSigningKey(0)).toMatchObject({ generation: 2 });
      await expect(rejection(publicApi.getSignedImage(signed.url))).resolves.toMatchObject({ status: 403 });
      await expect(publicApi.getSignedImage(cms.images.url(imageId))).rejects.toThrow('is not a signed image URL');
    });
  });

  describe('webhooks', () => {
    it('delivers signed events that verifyWebhookSignature accepts, and refuses tampered ones', async () => {
      const webhook = await cms.webhooks.save({ endpoint: `${receiver.url}/hook`, eventTypes: { Article: [3] }, description: 'sdk' });
      expect(webhook.secret).toMatch(/^wh_/);
      const published = await cms.contentsV2.save('Article', { fields: { title: 'Hooked', category: 'news', rank: 1 } });

      const [delivery] = await eventually(() => requestsTo('/hook').length > 0 && requestsTo('/hook'));
      expect(JSON.parse(delivery!.body)).toMatchObject({ eventType: 'PublishedCreated', contentId: published.id, webhookId: webhook.id, workspaceId: workspace.id });
      expect(verifyWebhookSignature(webhook.secret, delivery!.body, signatureOf(delivery!))).toBe(true);
      expect(checkWebhookSignature(webhook.secret, delivery!.body.replace('Hooked', 'Hacked'), signatureOf(delivery!))).toEqual({ valid: false, reason: 'mismatch' });
      expect(verifyWebhookSignature('wh_not-the-secret', delivery!.body, signatureOf(delivery!))).toBe(false);

      const log = await eventually(async () => {
        const page = await cms.webhooks.listDeliveries(webhook.id, { eventType: 3 });
        return page.items[0]?.processStatus === 2 && page;
      });
      expect(log).toMatchObject({ total: 1, page: 1, pageSize: 20, items: [{ contentId: published.id, isResponseSuccessStatusCode: true, responseStatusCode: 200 }] });
      const entry = log.items[0]!;
      expect((await cms.webhooks.getDelivery(webhook.id, entry.id)).attempts).toHaveLength(1);

      await cms.webhooks.retryDelivery(webhook.id, entry.id);
      await eventually(() => requestsTo('/hook').length === 2);
      expect(requestsTo('/hook')[1]!.headers['svc-delivery-id']).toBe(entry.id);
    });

    it('pings, rotates the secret, and turns a webhook off and on', async () => {
      const webhook = await cms.webhooks.save({ endpoint: `${receiver.url}/ping`, eventTypes: {} });
      expect(await cms.webhooks.test(webhook.id)).toMatchObject({ isSuccessStatusCode: true, statusCode: 200 });
      const [ping] = requestsTo('/ping');
      expect(ping!.headers['svc-test']).toBe('true');
      expect(verifyWebhookSignature(webhook.secret, ping!.body, signatureOf(ping!))).toBe(true);

      const rotated = await cms.webhooks.rotateSecret(webhook.id);
      expect(rotated.secret).not.toBe(webhook.secret);
      await cms.webhooks.test(webhook.id);
      const [, second] = requestsTo('/ping');
      expect(verifyWebhookSignature(webhook.secret, second!.body, signatureOf(second!))).toBe(false);
      expect(verifyWebhookSignature(rotated.secret, second!.body, signatureOf(second!))).toBe(true);

      expect((await cms.webhooks.disable(webhook.id)).enabled).toBe(false);
      expect((await cms.webhooks.enable(webhook.id)).enabled).toBe(true);
      expect((await cms.webhooks.list()).map((item) => item.id)).toContain(webhook.id);
      expect(await cms.webhooks.delete(webhook.id)).toEqual({ success: true });
    });
  });

  describe('scheduled jobs', () => {
    it('fires a job with a signed callback, lists it, and cancels another', async () => {
      await admin.workspaces.setSchedulerSigningSecret(workspace.id, SCHEDULER_SECRET);
      const job = await cms.scheduledJobs.schedule({ name: 'reminder', delaySeconds: 1, callbackUrl: `${receiver.url}/job`, payload: { hello: 'world' } });
      expect(job).toMatchObject({ status: 'Pending', occurrenceNumber: 1, method: 'POST' });

      const [callback] = await eventually(() => requestsTo('/job').length === 1 && requestsTo('/job'));
      expect(JSON.parse(callback!.body)).toEqual({ hello: 'world' });
      expect(verifyWebhookSignature(SCHEDULER_SECRET, callback!.body, signatureOf(callback!))).toBe(true);
      await eventually(async () => (await cms.scheduledJobs.get(job.id)).status === 'Done');

      const later = await cms.scheduledJobs.schedule({ delaySeconds: 3600, callbackUrl: `${receiver.url}/later` });
      expect((await cms.scheduledJobs.list({ status: 'Pending' })).items.map((item) => item.id)).toEqual([later.id]);
      expect((await cms.scheduledJobs.cancel(later.id)).status).toBe('Cancelled');
      await expect(rejection(cms.scheduledJobs.cancel(later.id))).resolves.toMatchObject({ status: 409 });
    });
  });

  describe('apps, the AI assistant and the public endpoints', () => {
    it('registers and installs an app that reads its settings with its own key', async () => {
      const registered = await admin.apps.register({ name: 'Translator', parameters: { region: 'eu' } });
      await admin.apps.install(registered.id, workspace.id, { userId: 'user-1', parameters: { region: 'us' } });
      const app = new CmsAppClient({ baseUrl: service.url, appKey: registered.key, sendKeyAs: 'bearer' });

      expect(await app.mergeParameters({ tone: 'formal' })).toEqual({ success: true });
      expect(await app.getSettings()).toEqual({ parameters: { region: 'eu', tone: 'formal' }, fieldMapping: {} });
      expect((await app.getUserSettings('user-1', workspace.id)).parameters.region).toBe('us');
      expect((await app.listWorkspaces('user-1')).map((info) => info.id)).toEqual([workspace.id]);
    });

    it('asks the AI assistant and waits for the answer', async () => {
      const run = await cms.aiAssistant.ask({ prompt: 'What is the launch article about?' });
      expect(await cms.aiAssistant.waitForRun(run.threadId, run.runId, { intervalMs: 50 })).toEqual({ status: 'completed' });
      expect((await cms.aiAssistant.getResponse(run.threadId)).response).toEqual(expect.any(String));
    });

    it('reads the server time and the health anonymously', async () => {
      const { value } = await publicApi.getServerTime();
      expect(Math.abs(value - Date.now())).toBeLessThan(5000);
      expect(await publicApi.getLiveness()).toEqual({ status: 'ok' });
      expect((await publicApi.getReadiness()).status).toBe('ok');
    });
  });

  describe('errors', () => {
    it('throws a CmsError with the problem detail for a 404', async () => {
      const error = await rejection(cms.contentTypes.get('Missing'));
      expect(error).toMatchObject({ status: 404, title: 'Not Found', method: 'GET', path: '/content-types/Missing', errors: [] });
      expect(error.detail).toContain('Missing');
      expect(error.requestId).toEqual(expect.any(String));
    });

    it('throws a CmsError naming each offending field for a 400', async () => {
      const error = await rejection(cms.contentTypes.save({ name: ' ', key: '1st', fields: [{ key: 'title', type: 'Text' }] }));
      expect(error).toMatchObject({ status: 400, title: 'Bad Request' });
      expect(error.errors.map((fieldError) => fieldError.field).sort()).toEqual(['key', 'name']);
      expect(error.problem?.errors).toEqual(error.errors);
    });

    it('answers 403 for a key without the policy, and 401 once the key is revoked, sent as a bearer token', async () => {
      const reader = await admin.workspaces.issueApiKey(workspace.id, { policies: ['ReadAccess'] });
      const readOnly = new CmsClient({ baseUrl: service.url, apiKey: reader.key, sendKeyAs: 'bearer' });
      expect((await readOnly.locales.list()).length).toBe(2);
      await expect(rejection(readOnly.locales.delete('de'))).resolves.toMatchObject({ status: 403 });

      await admin.workspaces.revokeApiKey(workspace.id, reader.id);
      await expect(rejection(readOnly.locales.list())).resolves.toMatchObject({ status: 401 });
      expect(await admin.workspaces.listApiKeys(workspace.id)).toContainEqual({
        id: reader.id,
        name: null,
        policies: ['ReadAccess'],
        createdAt: expect.any(String),
        revokedAt: expect.any(String),
      });
    });
  });
});
