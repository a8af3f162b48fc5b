/**
 * Turns the service's OpenAPI document into TypeScript: one type per component schema, and
 * an `Operations` map (method, path, parameters, body and answer of every operationId) that
 * the SDK's calls are checked against. Handles the JSON Schema that zod's toJSONSchema emits.
 */

interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchema | boolean;
  readonly items?: JsonSchema;
  readonly description?: string;
  readonly default?: unknown;
}

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

interface MediaTypes {
  readonly content?: Readonly<Record<string, { readonly schema?: JsonSchema }>>;
}

interface Operation {
  readonly operationId: string;
  readonly summary?: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: MediaTypes;
  readonly responses: Readonly<Record<string, MediaTypes>>;
}

export interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components: { readonly schemas: Readonly<Record<string, JsonSchema>> };
}

const HEADER = `// Generated from the service's OpenAPI document by scripts/generate-api-types.ts: do not edit.
// test/unit/sdk-openapi.test.ts fails when this file no longer matches the document.
`;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const pad = (depth: number) => '  '.repeat(depth);
const propertyName = (name: string) => (IDENTIFIER.test(name) ? name : `'${name}'`);
const literal = (value: unknown) => (typeof value === 'string' ? `'${value.replace(/'/g, "\\'")}'` : JSON.stringify(value));
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

function union(members: readonly string[]): string {
  return [...new Set(members)].join(' | ');
}

function docComment(depth: number, text: string | undefined, defaultValue?: unknown): string {
  const parts = [text, defaultValue === undefined ? undefined : `Default: ${JSON.stringify(defaultValue)}.`].filter(Boolean);
  if (parts.length === 0) return '';
  return `${pad(depth)}/** ${parts.join(' ').replace(/\*\//g, '*\\/')} */\n`;
}

function arrayOf(item: string): string {
  return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
}

function objectType(schema: JsonSchema, depth: number): string {
  const { properties, additionalProperties } = schema;
  if (!properties) {
    const values = typeof additionalProperties === 'object' ? typeOf(additionalProperties, depth) : 'unknown';
    return `Record<string, ${values}>`;
  }
  const required = new Set(schema.required ?? []);
  const members = Object.entries(properties).map(
    ([name, property]) =>
      `${docComment(depth + 1, property.description, property.default)}${pad(depth + 1)}${propertyName(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, depth + 1)};`,
  );
  return members.length === 0 ? 'Record<string, never>' : `{\n${members.join('\n')}\n${pad(depth)}}`;
}

/** The TypeScript type of a schema; `{}` (any JSON value) is unknown. */
function typeOf(schema: JsonSchema, depth = 0): string {
  if (schema.$ref) return refName(schema.$ref);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return union(alternatives.map((alternative) => typeOf(alternative, depth)));
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return union(schema.enum.map(literal));
  if (Array.isArray(schema.type)) return union(schema.type.map((type: string) => typeOf({ ...schema, type }, depth)));
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayOf(typeOf(schema.items ?? {}, depth));
    case 'object':
      return objectType(schema, depth);
    default:
      return 'unknown';
  }
}

function declaration(name: string, schema: JsonSchema): string {
  const comment = docComment(0, schema.description);
  const isInterface = schema.type === 'object' && schema.properties !== undefined && Object.keys(schema.properties).length > 0;
  return isInterface ? `${comment}export interface ${name} ${typeOf(schema)}\n` : `${comment}export type ${name} = ${typeOf(schema)};\n`;
}

/** The parameters of one location as an object type, or never when there are none. */
function parametersType(operation: Operation, location: string, depth: number): string {
  const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === location);
  if (parameters.length === 0) return 'never';
  return typeOf(
    {
      type: 'object',
      properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, { ...parameter.schema, description: parameter.description }])),
      required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    },
    depth,
  );
}

/** The body of JSON media types: application/json, or a +json one such as application/merge-patch+json. */
function bodyType(operation: Operation, depth: number): string {
  const json = Object.entries(operation.requestBody?.content ?? {}).find(([mediaType]) => mediaType === 'application/json' || mediaType.endsWith('+json'));
  return json?.[1].schema ? typeOf(json[1].schema, depth) : 'never';
}

/** Every documented answer that is not a problem: JSON bodies typed, text as string, files as the fetch Response. */
function responseType(operation: Operation, depth: number): string {
  const answers = Object.entries(operation.responses)
    .filter(([status]) => status !== 'default')
    .flatMap(([, response]) => Object.entries(response.content ?? {}))
    .filter(([mediaType]) => mediaType !== PROBLEM_MEDIA_TYPE)
    .map(([mediaType, { schema }]) => {
      if (mediaType === 'application/json') return typeOf(schema ?? {}, depth);
      return mediaType.startsWith('text/') ? 'string' : 'Response';
    });
  return answers.length === 0 ? 'undefined' : union(answers);
}

function operationEntry(path: string, method: string, operation: Operation): string {
  const inner = pad(2);
  const lines = [
    `method: '${method}';`,
    `path: '${path}';`,
    `pathParams: ${parametersType(operation, 'path', 2)};`,
    `query: ${parametersType(operation, 'query', 2)};`,
    `headers: ${parametersType(operation, 'header', 2)};`,
    `body: ${bodyType(operation, 2)};`,
    `response: ${responseType(operation, 2)};`,
  ];
  const comment = docComment(1, `${method.toUpperCase()} ${path}${operation.summary ? `: ${operation.summary}` : ''}`);
  return `${comment}${pad(1)}${operation.operationId}: {\n${lines.map((line) => `${inner}${line}`).join('\n')}\n${pad(1)}};`;
}

/** The whole generated module. */
export function renderApiTypes(document: OpenApiDocument): string {
  const schemas = Object.entries(document.components.schemas).map(([name, schema]) => declaration(name, schema));
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => operationEntry(path, method, operation)),
  );
  return `${HEADER}\n${schemas.join('\n')}\n/** Every operation of the document, by operationId. */\nexport interface Operations {\n${operations.join('\n')}\n}\n`;
}
