import { z } from 'zod';
import type { DocumentedOperation, DocumentedResponse } from './operation';
import { documentedOperations } from './operations';
import { componentRef, documentedSchemas, schemaRef } from './schema-registry';
import { securityRequirements, securitySchemes } from './security';
import { problemSchema } from './shared-schemas';
import { TAGS } from './tags';

export type OpenApiDocument = Record<string, unknown> & { readonly paths: Record<string, Record<string, Record<string, unknown>>> };

const API_VERSION = '1.0.0';

const DESCRIPTION = `Event-sourced headless CMS: content types, content items (V1 typed field arrays and V2 field dictionaries, drafts and
published), locales, assets and images, webhooks, scheduled callbacks, content actions, apps and an AI assistant, with an admin API
for workspaces and keys. Field types and their value formats, filters and sorting: docs/field-types.md in the repository.

Workspace keys go in \`X-Api-Key\` or \`Authorization: Bearer\`; the key decides the workspace. No credential or an unknown key answers 401,
a key without the policy 403. Every error is RFC 9457 problem+json; validation failures list each offending field in \`errors\`.
Every answer carries \`X-Request-Id\` (a sane one sent by the caller is echoed) and \`X-Server-Request-Id\`, the server's own id of the request, which no client chooses; events record both.`;

const ERROR_DEFAULTS: Readonly<Record<number, string>> = {
  400: 'invalid input: `errors` names each offending field',
  401: 'missing or invalid credentials',
  403: 'the credential does not hold the policy',
};

/** The statuses every operation of this access and input may answer with problem+json, besides its own. */
function impliedErrors(operation: DocumentedOperation): number[] {
  const statuses: number[] = [];
  if (operation.body || operation.query || operation.pathSchema) statuses.push(400);
  if (operation.access !== 'Anonymous') statuses.push(401);
  if (operation.access !== 'Anonymous' && operation.access !== 'Admin') statuses.push(403);
  return statuses;
}

const problemResponse = (description: string) => ({ description, content: { 'application/problem+json': { schema: schemaRef(problemSchema) } } });

function responseObject(response: DocumentedResponse): Record<string, unknown> {
  // Both when the client chooses by Accept (JSON, or a raw stream such as NDJSON).
  const content =
    response.schema || response.raw
      ? {
          ...(response.schema ? { 'application/json': { schema: schemaRef(response.schema) } } : {}),
          ...(response.raw ? { [response.raw.mediaType]: { schema: response.raw.schema } } : {}),
        }
      : undefined;
  const headers = response.headers
    ? Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]))
    : undefined;
  return { description: response.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) };
}

type Location = 'path' | 'query' | 'header';
type Notes = Readonly<Record<string, string>>;

function parameter(name: string, location: Location, required: boolean, schema: object, notes: Notes) {
  return { name, in: location, required, ...(notes[name] ? { description: notes[name] } : {}), schema };
}

/** One parameter per property of an input schema, typed as the route parses it. */
function parametersOf(schema: z.ZodObject | undefined, location: Location, notes: Notes) {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) =>
    parameter(name, location, location === 'path' || (json.required ?? []).includes(name), property, notes),
  );
}

/** Path parameters come from the template; the route's path schema types them where it has one. */
function pathParameters(operation: DocumentedOperation, notes: Notes) {
  const typed = parametersOf(operation.pathSchema, 'path', notes);
  return [...operation.path.matchAll(/\{([^}]+)\}/g)].map(
    ([, name]) => typed.find((candidate) => candidate.name === name) ?? parameter(name!, 'path', true, { type: 'string' }, notes),
  );
}

function operationObject(operation: DocumentedOperation): Record<string, unknown> {
  const notes = operation.parameters ?? {};
  const parameters = [...pathParameters(operation, notes), ...parametersOf(operation.query, 'query', notes), ...parametersOf(operation.headers, 'header', notes)];
  const errors: Record<number, string> = Object.fromEntries(impliedErrors(operation).map((status) => [status, ERROR_DEFAULTS[status]!]));
  Object.assign(errors, operation.errors);
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(operation.responses)) responses[status] = responseObject(response);
  for (const [status, description] of Object.entries(errors)) responses[status] ??= problemResponse(description);
  responses.default = problemResponse('any other error (413, 415, 429, 500, 503, ...)');
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    security: securityRequirements(operation.access),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: operation.body.optional !== true,
            content: { [operation.body.mediaType ?? 'application/json']: { schema: schemaRef(operation.body.schema), example: operation.body.example } },
          },
        }
      : {}),
    responses,
  };
}

/** The component schemas, converted from zod as the routes parse input (defaults and transforms show their input side). */
function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(documentedSchemas, { io: 'input', uri: componentRef });
  // Each is converted as a standalone document; inside components they are plain schemas.
  return Object.fromEntries(Object.entries(schemas).map(([name, { $schema: _schema, $id: _id, ...schema }]) => [name, schema]));
}

/** The OpenAPI 3.1 document of every route; built once when the app is created. */
export function buildOpenApiDocument(): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of documentedOperations) {
    const item = (paths[operation.path] ??= {});
    if (item[operation.method]) throw new Error(`${operation.method.toUpperCase()} ${operation.path} is documented twice`);
    item[operation.method] = operationObject(operation);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Headless CMS API', version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: Object.values(TAGS),
    paths,
    components: { schemas: componentSchemas(), securitySchemes },
  };
}
