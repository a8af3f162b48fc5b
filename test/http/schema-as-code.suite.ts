import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/operator';
import { buildOpenApiDocument } from '../../src/http/openapi/build-document';
import { captureCliOutput } from '../support/cli-output';
import { call } from '../support/http';
import { schemaProblems } from '../support/json-schema';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

const category = { name: 'Category', key: 'Category', fields: [{ key: 'title', type: 'Text', required: true }] };
const product = {
  name: 'Product',
  key: 'Product',
  icon: 'box',
  sortIndex: 2,
  fieldTitleKey: 'title',
  fields: [
    { key: 'title', type: 'Text', required: true, translatable: true },
    { key: 'price', type: 'Number' },
    { key: 'color', type: 'Text' },
    { key: 'legacy', type: 'Text' },
    { key: 'category', type: 'Relation', relationContentType: 'Category' },
  ],
  actions: [{ id: 'reindex', name: 'Reindex', url: 'https://actions.example.com/reindex', headers: { 'X-Token': 'action-secret-1' } }],
};
const HOOK_SECRET = 'wh_source-secret-0123456789';

/** GET answers of a workspace that the schema decides, without what each store stamps on its own (times, webhook secrets). */
async function schemaAnswers(service: TestService) {
  const get = async (path: string) => {
    const answer = await call(service.url, 'GET', path, { key: service.readKey });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const types = ((await get('/content-types')) as Record<string, unknown>[]).map(({ createdAt: _created, updatedAt: _updated, ...type }) => type);
  const webhooks = ((await get('/webhooks')) as Record<string, unknown>[]).map(({ secret: _secret, ...webhook }) => webhook);
  const indexes = await call(service.url, 'GET', `/admin/workspaces/${service.workspaceId}/content-types/Product/query-indexes`, { bearer: ADMIN_TOKEN });
  return { types, locales: await get('/locales'), webhooks, indexes: { indexes: indexes.body.indexes, forbidden: indexes.body.forbidden } };
}

/** How an answer breaks its documented schema (a component of the OpenAPI document); empty when it conforms. */
const documentedProblems = (component: string, answer: unknown) => schemaProblems(buildOpenApiDocument(), { $ref: `#/components/schemas/${component}` }, answer);

/** The position of the workspace's last event: unchanged when nothing was appended. */
async function lastPosition(service: TestService): Promise<string> {
  const feed = await call(service.url, 'GET', `/admin/workspaces/${service.workspaceId}/audit?limit=1000`, { bearer: ADMIN_TOKEN });
  expect(feed.body.hasMore).toBe(false);
  return feed.body.next;
}

/** The types of the feed's entries after `position`: an empty list when nothing was appended since. */
async function appendedSince(service: TestService, position: string): Promise<string[]> {
  const feed = await call(service.url, 'GET', `/admin/workspaces/${service.workspaceId}/audit?limit=1000&after=${encodeURIComponent(position)}`, { bearer: ADMIN_TOKEN });
  return (feed.body.items as { type: string }[]).map((entry) => entry.type);
}

/** The feed's position once it stops moving (the records of earlier reads have reached it). */
async function settledPosition(service: TestService): Promise<string> {
  let position = await lastPosition(service);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await lastPosition(service);
    if (next === position) return position;
    position = next;
  }
}

export function describeSchemaAsCode(engine: Engine): void {
  describe(`schema as code (${engine})`, () => {
    let source: TestService;
    let target: TestService;
    let dir: string;
    let withVariables: string;

    beforeAll(async () => {
      [source, target] = await Promise.all([startTestService(engine), startTestService(engine)]);
      dir = await mkdtemp(join(tmpdir(), 'cms-schema-'));
      withVariables = join(dir, 'schema-with-variables.json');
      const write = async (method: string, path: string, body: unknown) => {
        const answer = await call(source.url, method, path, { key: source.writeKey, body });
        expect(answer.status).toBe(200);
        return answer.body;
      };
      await write('PUT', '/locales', { code: 'en', name: 'English' });
      await write('PUT', '/locales', { code: 'fr', name: 'Français', fallbackCode: 'en' });
      // Category first: a relationContentType must name a type that exists.
      await write('PUT', '/content-types', category);
      await write('PUT', '/content-types', product);
      await write('PUT', '/webhooks', { endpoint: 'https://hooks.example.com/cms', secret: HOOK_SECRET, eventTypes: { Product: [3, 0] }, description: 'site rebuild' });
      const declared = await call(source.url, 'PUT', `/admin/workspaces/${source.workspaceId}/content-types/Product/query-indexes`, {
        bearer: ADMIN_TOKEN,
        body: { indexes: [{ fields: ['color', { key: 'price', direction: 'desc' }] }, { fields: ['title'], text: 'prefix', origin: 'pinned' }], forbidden: [{ fields: ['legacy'] }] },
      });
      expect(declared.status).toBe(200);
    });
    afterAll(async () => {
      await Promise.all([source?.close(), target?.close()]);
      await rm(dir, { recursive: true, force: true });
    });

    const cli = async (service: TestService, argv: string[], environment: Record<string, string> = {}) => {
      const run = captureCliOutput();
      await runCli([...argv, '--url', service.url, '--token', ADMIN_TOKEN], { ...service.environment, ...environment }, run.output);
      return run.lines;
    };

    it('exports the same text twice, and applying it to a fresh store answers the same content types, locales, webhooks and query indexes', async () => {
      const file = join(dir, 'schema.json');
      const written = await cli(source, ['schema', 'export', '--out', file]);
      expect(written).toEqual([`wrote the schema of workspace ${source.workspaceId} to ${file}: 2 content types, 2 locales, 1 webhooks (without their secrets)`]);
      const text = await readFile(file, 'utf8');
      expect((await cli(source, ['schema', 'export', '--workspace', source.workspaceId])).join('\n')).toBe(text.trimEnd());
      expect(text).not.toContain(HOOK_SECRET);
      expect(text).not.toContain('action-secret-1');
      const exported = JSON.parse(text);
      expect(exported).toMatchObject({ format: 'cms-schema', version: 1 });
      expect(documentedProblems('WorkspaceSchema', exported)).toEqual([]);
      expect(exported.contentTypes.map((type: { definition: { key: string } }) => type.definition.key)).toEqual(['Category', 'Product']);
      expect(exported.webhooks[0].eventTypes).toEqual({ Product: [3, 0] });

      // The action's header is a secret: the export holds none, and the fresh store none to keep.
      // The secret read just before is recorded in the log before it is answered, and reaches the feed a moment later.
      const before = await settledPosition(target);
      const run = captureCliOutput();
      await expect(runCli(['schema', 'apply', '--file', file, '--url', target.url, '--token', ADMIN_TOKEN], target.environment, run.output)).rejects.toThrow(
        'the schema cannot be applied: 1 problem(s), listed above',
      );
      expect(run.lines.slice(-2)).toEqual([
        'problems (nothing is applied while there is one):',
        '  contentTypes.1.definition.actions.0.headers.X-Token: is (hidden), which keeps the value the workspace holds for action reindex at this url, and it holds none: name a variable holding it in actionHeadersFromEnv',
      ]);
      expect(await lastPosition(target)).toBe(before);

      exported.contentTypes[1].actionHeadersFromEnv = { reindex: { 'X-Token': 'REINDEX_TOKEN' } };
      await writeFile(withVariables, JSON.stringify(exported));
      // Category is created before Product, whose relation points to it; the webhook after both.
      const applied = await cli(target, ['schema', 'apply', '--file', withVariables], { REINDEX_TOKEN: 'action-secret-1' });
      expect(applied.slice(1, 8).map((line) => line.split(/ {2,}/).slice(0, 3))).toEqual([
        ['locale', 'en', 'create'],
        ['locale', 'fr', 'create'],
        ['content type', 'Category', 'create'],
        ['content type', 'Product', 'create'],
        ['query indexes', 'Product', 'create'],
        ['webhook', exported.webhooks[0].id, 'create'],
        [expect.stringMatching(/^applied: 6 created, 0 updated, 0 deleted \(0 destructive\); 0 unchanged$/)],
      ]);
      expect(applied.at(-1)).toMatch(new RegExp(`^webhook ${exported.webhooks[0].id} was created with a generated secret: read it with GET /webhooks/`));
      expect(await schemaAnswers(target)).toEqual(await schemaAnswers(source));
      const secret = await call(target.url, 'GET', `/webhooks/${exported.webhooks[0].id}`, { key: target.readKey });
      expect(secret.body.secret).toMatch(/^wh_[A-Za-z0-9]{32}$/);
    });

    it('applies a second time without appending an event, and a diff then shows every object unchanged', async () => {
      const file = join(dir, 'schema.json');
      // The records of the secret reads of the test before (two of them) are appended after those answers:
      // wait for one, then for the feed to stand still, so that none lands after `before`.
      await eventually(async () => {
        const feed = await call(target.url, 'GET', `/admin/workspaces/${target.workspaceId}/audit?limit=1000&type=WebhookSecretsRead`, { bearer: ADMIN_TOKEN });
        return feed.body.items.length > 0;
      });
      const before = await settledPosition(target);
      const again = await cli(target, ['schema', 'apply', '--file', withVariables], { REINDEX_TOKEN: 'action-secret-1' });
      expect(again.at(-2)).toBe('plan: 0 to create, 0 to update, 0 to delete (0 destructive); 6 unchanged');
      expect(again.at(-1)).toBe('nothing to change');
      // Through the API as well: a PUT of an unchanged schema writes nothing.
      // The exported header stays (hidden): the value stored is kept.
      const put = await call(target.url, 'PUT', `/admin/workspaces/${target.workspaceId}/schema`, { bearer: ADMIN_TOKEN, body: { schema: JSON.parse(await readFile(file, 'utf8')) } });
      expect(put.status).toBe(200);
      expect(documentedProblems('SchemaPlan', put.body)).toEqual([]);
      expect(put.body.changes.every((change: { action: string }) => change.action === 'unchanged')).toBe(true);
      expect(await appendedSince(target, before)).toEqual([]);
      // The source, whose action header is kept sealed, diffs unchanged against its own export.
      const diff = await cli(source, ['schema', 'diff', '--file', file, '--json']);
      expect(JSON.parse(diff.join('\n'))).toMatchObject({ applied: false, problems: [] });
      expect(JSON.parse(diff.join('\n')).changes.filter((change: { action: string }) => change.action !== 'unchanged')).toEqual([]);
    });

    it('diffs what differs object by object, refuses destructive changes without --allow-destructive, and applies them with it', async () => {
      const schema = JSON.parse(await readFile(withVariables, 'utf8'));
      const productType = schema.contentTypes[1];
      productType.definition.fields = productType.definition.fields
        .filter((field: { key: string }) => field.key !== 'legacy')
        .map((field: { key: string }) => (field.key === 'color' ? { ...field, type: 'Number' } : field))
        .concat([{ key: 'summary', type: 'Text' }]);
      productType.queryIndexes.indexes = productType.queryIndexes.indexes.slice(0, 1);
      schema.locales = [
        { code: 'en', name: 'English', fallbackCode: null },
        { code: 'de', name: 'Deutsch', fallbackCode: 'en', default: true },
      ];
      schema.webhooks[0].description = 'site rebuild, production';
      schema.webhooks.push({ id: 'orders', endpoint: 'https://hooks.example.com/orders', eventTypes: { Category: [2] }, secretFromEnv: 'ORDERS_HOOK_SECRET' });
      const changed = join(dir, 'changed.json');
      await writeFile(changed, JSON.stringify(schema));
      const variables = { REINDEX_TOKEN: 'action-secret-1', ORDERS_HOOK_SECRET: 'orders-secret-0123456789' };
      const hook = schema.webhooks[0].id;

      const diff = await cli(target, ['schema', 'diff', '--file', changed], variables);
      expect(diff[0]).toMatch(/^KIND +NAME +ACTION +CHANGES$/);
      expect(diff.slice(1).map((line) => line.split(/ {2,}/))).toEqual([
        ['locale', 'en', 'update', 'default: true -> false'],
        ['locale', 'de', 'create'],
        ['content type', 'Category', 'unchanged'],
        [
          'content type',
          'Product',
          'update (destructive)',
          'field color: type Text -> Number (destructive: stored values of the field no longer apply); field added: summary (Text); field removed: legacy (destructive: its values are no longer served)',
        ],
        ['query indexes', 'Product', 'update', '- title@prefix (pinned)'],
        ['webhook', hook, 'update', 'description changed'],
        ['webhook', 'orders', 'create', 'secret: the one given'],
        ['locale', 'fr', 'delete (destructive)', 'destructive: its translations are no longer served'],
        ['plan: 2 to create, 4 to update, 1 to delete (2 destructive); 1 unchanged'],
      ]);

      const before = await lastPosition(target);
      const run = captureCliOutput();
      const refused = runCli(['schema', 'apply', '--file', changed, '--url', target.url, '--token', ADMIN_TOKEN], { ...target.environment, ...variables }, run.output);
      await expect(refused).rejects.toThrow('refused: 2 destructive change(s), listed above; apply them with --allow-destructive');
      expect(await lastPosition(target)).toBe(before);
      // The service refuses them too, whoever calls it.
      const put = await call(target.url, 'PUT', `/admin/workspaces/${target.workspaceId}/schema`, { bearer: ADMIN_TOKEN, body: { schema, webhookSecrets: { orders: 'orders-secret-0123456789' } } });
      expect(put.status).toBe(409);
      expect(put.body.detail).toMatch(/^the schema makes 2 destructive change\(s\), applied only when allowed \(allowDestructive\): update contentType Product \(.*\); delete locale fr$/);

      const applied = await cli(target, ['schema', 'apply', '--file', changed, '--allow-destructive'], variables);
      expect(applied.at(-1)).toBe('applied: 2 created, 4 updated, 1 deleted (2 destructive); 1 unchanged');
      const read = (path: string) => call(target.url, 'GET', path, { key: target.readKey });
      expect((await read('/locales')).body).toEqual([
        { code: 'de', name: 'Deutsch', fallbackCode: 'en', default: true },
        { code: 'en', name: 'English', fallbackCode: null, default: false },
      ]);
      expect((await read('/webhooks/orders')).body).toMatchObject({ secret: 'orders-secret-0123456789', eventTypes: { Category: [2] }, enabled: true });
      expect((await read('/content-types/Product')).body.fields.map((field: { key: string; type: string }) => `${field.key}:${field.type}`)).toEqual([
        'title:Text',
        'price:Number',
        'color:Number',
        'category:Relation',
        'summary:Text',
      ]);
      const again = await cli(target, ['schema', 'diff', '--file', changed], variables);
      expect(again.at(-1)).toBe('plan: 0 to create, 0 to update, 0 to delete (0 destructive); 7 unchanged');
    });

    it('refuses a schema of another version or with wrong values, naming each', async () => {
      const file = join(dir, 'future.json');
      await writeFile(file, JSON.stringify({ format: 'cms-schema', version: 2, locales: [{ code: 'en', default: false }], gadgets: [] }));
      await expect(cli(target, ['schema', 'diff', '--file', file])).rejects.toThrow(
        `${file} is not a schema this service reads:\n` +
          '  version: must be 1: the only version this service reads\n' +
          '  (the file): Unrecognized key: "gadgets"',
      );
      const wrong = { format: 'cms-schema', version: 1, locales: [{ code: 'en', default: false }, { code: 'fr', fallbackCode: 'de' }], webhooks: [{ id: 'a/b', endpoint: 'https://x.example' }] };
      const plan = await call(target.url, 'POST', `/admin/workspaces/${target.workspaceId}/schema/plan`, { bearer: ADMIN_TOKEN, body: { schema: wrong, webhookSecrets: { other: 'secret' } } });
      expect(plan.status).toBe(400);
      expect(plan.body.errors).toEqual([
        { field: 'schema.webhooks.0.id', message: 'must be 1-100 letters, digits, _ or -' },
        { field: 'schema.locales.1.fallbackCode', message: 'names no locale of the schema: de' },
        { field: 'schema.locales', message: 'must have exactly one default locale, not 0' },
        { field: 'webhookSecrets.other', message: 'names no webhook of the schema' },
      ]);
      // What only the service's settings decide is a problem of the plan, and an apply is refused before any write.
      const plain = { format: 'cms-schema', version: 1, webhooks: [{ id: 'plain', endpoint: 'http://hooks.example.com/cms' }] };
      const planned = await call(target.url, 'POST', `/admin/workspaces/${target.workspaceId}/schema/plan`, { bearer: ADMIN_TOKEN, body: { schema: plain } });
      const endpointProblem = 'must be an https URL (WEBHOOK_ALLOW_HTTP=true allows http:// endpoints in development)';
      expect(planned.body.problems).toEqual([{ field: 'webhooks.0.endpoint', message: endpointProblem }]);
      const before = await lastPosition(target);
      const applied = await call(target.url, 'PUT', `/admin/workspaces/${target.workspaceId}/schema`, { bearer: ADMIN_TOKEN, body: { schema: plain, allowDestructive: true } });
      expect(applied.status).toBe(400);
      expect(applied.body.errors).toEqual([{ field: 'schema.webhooks.0.endpoint', message: endpointProblem }]);
      expect(await lastPosition(target)).toBe(before);
    });

    it('checks relation targets in its plan and counts a rule change that breaks stored items as destructive', async () => {
      const schemaPath = `/admin/workspaces/${target.workspaceId}/schema`;
      const exported = (await call(target.url, 'GET', schemaPath, { bearer: ADMIN_TOKEN })).body;
      const types = exported.contentTypes as { definition: { key: string; fields: { key: string }[] } }[];
      const category = types.find((type) => type.definition.key === 'Category')!;
      // A relation may name a type the same schema creates, not one neither it nor the workspace has.
      const dangling = { format: 'cms-schema', version: 1, contentTypes: [{ definition: { name: 'Shelf', key: 'Shelf', fields: [{ key: 'holds', type: 'Relation', relationContentType: 'Crate' }] } }] };
      const planned = await call(target.url, 'POST', `${schemaPath}/plan`, { bearer: ADMIN_TOKEN, body: { schema: dangling } });
      expect(planned.body.problems).toEqual([{ field: 'contentTypes.0.definition.fields.0.relationContentType', message: 'names no content type of the schema or the workspace: Crate' }]);

      expect((await call(target.url, 'PUT', '/v2/contents/Category', { key: target.writeKey, body: { fields: { title: 'Garden tools' } } })).status).toBe(200);
      const shorter = { format: 'cms-schema', version: 1, contentTypes: types.map((type) => (type === category ? { definition: { ...category.definition, fields: category.definition.fields.map((field) => ({ ...field, maxLength: 5 })) } } : type)) };
      const refused = await call(target.url, 'PUT', schemaPath, { bearer: ADMIN_TOKEN, body: { schema: shorter } });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain('update contentType Category (stored items break its rules: title must be at most 5 characters in 1 draft item(s), title must be at most 5 characters in 1 published item(s))');
      expect((await call(target.url, 'PUT', schemaPath, { bearer: ADMIN_TOKEN, body: { schema: shorter, allowDestructive: true } })).status).toBe(200);
    });

    it('answers only the admin token, for a workspace that exists, and asks which workspace when there are several', async () => {
      const path = `/admin/workspaces/${target.workspaceId}/schema`;
      expect((await call(target.url, 'GET', path, { key: target.readKey })).status).toBe(401);
      expect((await call(target.url, 'PUT', path, { body: { schema: { format: 'cms-schema', version: 1 } } })).status).toBe(401);
      expect((await call(target.url, 'GET', '/admin/workspaces/nope/schema', { bearer: ADMIN_TOKEN })).status).toBe(404);
      const other = await call(target.url, 'POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Staging' } });
      await expect(cli(target, ['schema', 'export'])).rejects.toThrow(/^the service has 2 workspaces: name one with --workspace <id>: /);
      const empty = JSON.parse((await cli(target, ['schema', 'export', '--workspace', other.body.id])).join('\n'));
      expect(empty).toEqual({ format: 'cms-schema', version: 1, contentTypes: [], locales: [], webhooks: [] });
    });
  });
}
