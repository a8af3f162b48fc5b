import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderApiTypes, type OpenApiDocument } from '../../clients/typescript/scripts/render-api-types';
import { CmsAdminClient, CmsAppClient, CmsClient, CmsPublicClient, SDK_OPERATIONS } from '../../clients/typescript/src';
import { Transport } from '../../clients/typescript/src/http/transport';
import type { Route } from '../../clients/typescript/src/operations/route';
import { buildOpenApiDocument } from '../../src/http/openapi/build-document';

const GENERATED_TYPES = join(__dirname, '../../clients/typescript/src/generated/api-types.ts');
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** SDK methods that compose operations instead of being one: each is built on table entries. */
const HELPERS = ['workspace.audit.entries', 'workspace.assets.upload', 'workspace.aiAssistant.waitForRun', 'workspace.images.url', 'workspace.images.urlByPath'];

type Client = 'workspace' | 'app' | 'admin' | 'public';

const isRoute = (value: unknown): value is Route => typeof value === 'object' && value !== null && 'operationId' in value;

/** `workspace.webhooks.save` → its route, for every entry of the table. */
function tableEntries(node: unknown, prefix: string[] = []): [string, Route][] {
  if (isRoute(node)) return [[prefix.join('.'), node]];
  return Object.entries(node as Record<string, unknown>).flatMap(([name, child]) => tableEntries(child, [...prefix, name]));
}

/** Every method of a client and of its namespaces (instances of SDK classes), inherited ones included. */
function clientMethods(target: object, prefix: string): string[] {
  const methods = new Set<string>();
  for (let proto = Object.getPrototypeOf(target); proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') methods.add(`${prefix}.${name}`);
  }
  const namespaces = Object.entries(target).filter(
    ([, value]) => typeof value === 'object' && value !== null && Object.getPrototypeOf(value) !== Object.prototype && !(value instanceof Transport),
  );
  return [...methods, ...namespaces.flatMap(([name, value]) => clientMethods(value, `${prefix}.${name}`))];
}

describe('the SDK against the OpenAPI document', () => {
  const document = buildOpenApiDocument() as unknown as Record<string, any>;
  const documented = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({
        method,
        path,
        operationId: operation.operationId as string,
        security: operation.security as Record<string, string[]>[],
        requestBody: operation.requestBody as { content?: Record<string, unknown> } | undefined,
      })),
  );
  const entries = tableEntries(SDK_OPERATIONS);
  const clients: Record<Client, object> = {
    workspace: new CmsClient({ baseUrl: 'http://cms.test', apiKey: 'key' }),
    app: new CmsAppClient({ baseUrl: 'http://cms.test', appKey: 'key' }),
    admin: new CmsAdminClient({ baseUrl: 'http://cms.test', adminToken: 'token' }),
    public: new CmsPublicClient({ baseUrl: 'http://cms.test' }),
  };

  it('covers every documented operation', () => {
    const called = new Set<string>(entries.map(([, route]) => route.operationId));
    expect(documented.filter((operation) => !called.has(operation.operationId)).map((operation) => operation.operationId)).toEqual([]);
  });

  it('names only documented operations, each with its documented method and path', () => {
    const byId = new Map(documented.map((operation) => [operation.operationId, `${operation.method} ${operation.path}`]));
    const wrong = entries.filter(([, route]) => byId.get(route.operationId) !== `${route.method} ${route.path}`);
    expect(wrong.map(([name, route]) => `${name}: ${route.operationId} ${route.method} ${route.path}`)).toEqual([]);
  });

  it('sends each body with its documented media type', () => {
    const mediaTypes = new Map(documented.map((operation) => [operation.operationId, Object.keys(operation.requestBody?.content ?? {})[0]]));
    const wrong = entries.filter(([, route]) => mediaTypes.get(route.operationId) !== undefined && mediaTypes.get(route.operationId) !== (route.bodyMediaType ?? 'application/json'));
    expect(wrong.map(([name, route]) => `${name}: ${route.bodyMediaType ?? 'application/json'}, documented ${mediaTypes.get(route.operationId)}`)).toEqual([]);
  });

  it('puts each operation on the client holding the credential it needs', () => {
    const clientFor = (operation: (typeof documented)[number]): Client => {
      if (operation.security.length === 0) return 'public';
      if (operation.security.some((requirement) => 'AdminToken' in requirement)) return 'admin';
      return operation.path.startsWith('/apps') ? 'app' : 'workspace';
    };
    const expected = new Map(documented.map((operation) => [operation.operationId, clientFor(operation)]));
    const misplaced = entries.filter(([name, route]) => name.split('.')[0] !== expected.get(route.operationId));
    expect(misplaced.map(([name, route]) => `${name} (${route.operationId})`)).toEqual([]);
  });

  it('lists methods that exist, and every method of the clients is in the table or a known helper', () => {
    const methods = (Object.entries(clients) as [Client, object][]).flatMap(([client, instance]) => clientMethods(instance, client));
    const listed = entries.map(([name]) => name);
    expect(listed.filter((name) => !methods.includes(name))).toEqual([]);
    expect(methods.filter((name) => !listed.includes(name) && !HELPERS.includes(name))).toEqual([]);
    expect(HELPERS.filter((name) => !methods.includes(name))).toEqual([]);
  });

  it('has generated types that match the document (regenerate with `npm run generate:types` in clients/typescript)', () => {
    expect(readFileSync(GENERATED_TYPES, 'utf8')).toBe(renderApiTypes(document as unknown as OpenApiDocument));
  });
});
