import { buildOpenApiDocument } from '../../src/http/openapi/build-document';
import { documentedOperations } from '../../src/http/openapi/operations';
import { resolvePointer, schemaProblems } from '../support/json-schema';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every value under `node` with its JSON path. */
function* walk(node: unknown, at = '#'): Generator<[string, unknown]> {
  yield [at, node];
  if (node && typeof node === 'object') for (const [key, child] of Object.entries(node)) yield* walk(child, `${at}/${key}`);
}

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument() as Record<string, any>;
  const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );

  it('is OpenAPI 3.1 with info, paths and components', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    expect(operations.length).toBe(documentedOperations.length);
  });

  it('resolves every $ref', () => {
    const refs = [...walk(document)].filter(([at]) => at.endsWith('/$ref')).map(([at, ref]) => [at, ref] as const);
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter(([, ref]) => typeof ref !== 'string' || resolvePointer(document, ref) === undefined)).toEqual([]);
  });

  it('references every component schema', () => {
    const referenced = new Set([...walk(document)].filter(([at]) => at.endsWith('/$ref')).map(([, ref]) => String(ref).replace('#/components/schemas/', '')));
    expect(Object.keys(document.components.schemas).filter((name) => !referenced.has(name))).toEqual([]);
  });

  it('has unique operationIds', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('declares every path parameter of each template exactly once, required, and no other', () => {
    const mismatches = operations.flatMap(({ path, method, operation }) => {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name).sort();
      const declared = (operation.parameters ?? []).filter((parameter: any) => parameter.in === 'path');
      const names = declared.map((parameter: any) => parameter.name).sort();
      const ok = JSON.stringify(names) === JSON.stringify(inTemplate) && declared.every((parameter: any) => parameter.required === true);
      return ok ? [] : [`${method} ${path}: template ${inTemplate.join(',')} but declared ${names.join(',')}`];
    });
    expect(mismatches).toEqual([]);
  });

  it('gives every operation security, a success answer, and problem+json errors in the shared Problem schema', () => {
    const { ApiKey, BearerKey, AdminToken } = document.components.securitySchemes;
    expect(ApiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }));
    expect([BearerKey.scheme, AdminToken.scheme]).toEqual(['bearer', 'bearer']);
    for (const { path, method, operation } of operations) {
      const where = `${method} ${path}`;
      expect([where, Array.isArray(operation.security)]).toEqual([where, true]);
      const statuses = Object.keys(operation.responses);
      expect([where, statuses.some((status) => /^2\d\d$/.test(status))]).toEqual([where, true]);
      // Error answers are problem+json unless the operation documents its own (the 503 of /health, the 416 of a range).
      const ownAnswers = Object.keys(documentedOperations.find((candidate) => candidate.operationId === operation.operationId)!.responses);
      const problemStatuses = statuses.filter((status) => (status === 'default' || /^[45]/.test(status)) && !ownAnswers.includes(status));
      for (const status of problemStatuses) {
        expect([where, status, operation.responses[status].content]).toEqual([where, status, { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } }]);
      }
      if (operation.security.length > 0) expect([where, problemStatuses.includes('401')]).toEqual([where, true]);
    }
  });

  it('lets anyone reach exactly the anonymous endpoints of the spec, signed image URLs and the reference', () => {
    const anonymous = operations.filter(({ operation }) => operation.security.length === 0).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(anonymous.sort()).toEqual(
      [
        'GET /utility/server-time',
        'GET /shared-access/{workspaceId}/asset/{id}',
        // Signed image URLs (docs/assets.md): the signature in the query is the credential.
        'GET /images/signed/{workspaceId}/{assetId}/{version}',
        'POST /actions/callback/{workspaceId}/{operationId}',
        'GET /health',
        'GET /health/live',
        'GET /health/ready',
        'GET /metrics',
        'GET /openapi.json',
        'GET /docs',
      ].sort(),
    );
  });

  it('describes the Problem body with errors as field and message', () => {
    const problem = { type: 'https://httpstatuses.io/400#bad-request', title: 'Bad Request', status: 400, detail: 'invalid body', errors: [{ field: 'code', message: 'is required' }] };
    expect(schemaProblems(document, { $ref: '#/components/schemas/Problem' }, problem)).toEqual([]);
    expect(schemaProblems(document, { $ref: '#/components/schemas/Problem' }, { ...problem, errors: [{ field: 'code' }] })).not.toEqual([]);
  });

  it('holds answers strictly: an undocumented field or a wrong type is reported', () => {
    const locale = { $ref: '#/components/schemas/Locale' };
    const answer = { code: 'de', name: 'German', fallbackCode: null, default: true };
    expect(schemaProblems(document, locale, answer)).toEqual([]);
    expect(schemaProblems(document, locale, { ...answer, region: 'EU' })).toEqual(['$.region: is not documented']);
    expect(schemaProblems(document, locale, { ...answer, default: 'yes' })).toEqual(['$.default: is string, not boolean']);
  });

  it('shows an example with every request body, and the route schema accepts each example', () => {
    for (const { path, method, operation } of operations.filter((candidate) => candidate.operation.requestBody)) {
      const media = Object.values(operation.requestBody.content as Record<string, any>)[0];
      expect([method, path, media.example]).toEqual([method, path, expect.anything()]);
    }
    const rejected = documentedOperations.flatMap((operation) => {
      if (!operation.body) return [];
      const result = operation.body.schema.safeParse(operation.body.example);
      return result.success ? [] : [`${operation.operationId}: ${result.error.message}`];
    });
    expect(rejected).toEqual([]);
  });
});
