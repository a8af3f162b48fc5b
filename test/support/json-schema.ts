/**
 * A small JSON Schema (2020-12) check for the subset z.toJSONSchema emits, used to hold real
 * answers against the served OpenAPI document. Stricter than JSON Schema on one point: an
 * object schema with `properties` and no `additionalProperties` is closed, so a field the
 * handler answers but the document does not list is reported.
 */
type Schema = Record<string, any>;

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;

const hasType = (value: unknown, type: string) => typeOf(value) === type || (type === 'number' && typeOf(value) === 'integer');

export function resolvePointer(document: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, segment) => (node === undefined ? undefined : node[segment]), document);
}

/** Every way `value` breaks `schema`, as JSON paths with reasons; empty when it conforms. */
export function schemaProblems(document: Schema, schema: Schema, value: unknown, at = '$'): string[] {
  if (schema.$ref) {
    const target = resolvePointer(document, schema.$ref);
    return target ? schemaProblems(document, target, value, at) : [`${at}: unresolvable $ref ${schema.$ref}`];
  }
  if (schema.anyOf && !schema.anyOf.some((branch: Schema) => schemaProblems(document, branch, value, at).length === 0)) return [`${at}: matches no anyOf branch`];
  if (schema.oneOf && schema.oneOf.filter((branch: Schema) => schemaProblems(document, branch, value, at).length === 0).length !== 1) return [`${at}: does not match exactly one oneOf branch`];
  const problems: string[] = (schema.allOf ?? []).flatMap((branch: Schema) => schemaProblems(document, branch, value, at));
  if ('const' in schema && value !== schema.const) problems.push(`${at}: is not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (schema.type && ![schema.type].flat().some((type: string) => hasType(value, type))) return [...problems, `${at}: is ${typeOf(value)}, not ${[schema.type].flat().join(' or ')}`];
  if (typeof value === 'string') {
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) problems.push(`${at}: does not match ${schema.pattern}`);
    if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${at}: is shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${at}: is longer than ${schema.maxLength}`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at}: is below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at}: is above ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, index) => problems.push(...schemaProblems(document, schema.items, item, `${at}[${index}]`)));
  if (typeOf(value) === 'object') problems.push(...objectProblems(document, schema, value as Record<string, unknown>, at));
  return problems;
}

function objectProblems(document: Schema, schema: Schema, value: Record<string, unknown>, at: string): string[] {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((name: string) => !(name in value)).map((name: string) => `${at}.${name}: is required`);
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (property) problems.push(...schemaProblems(document, property, item, `${at}.${name}`));
    else if (schema.additionalProperties === false || (schema.properties && schema.additionalProperties === undefined)) problems.push(`${at}.${name}: is not documented`);
    else if (typeof schema.additionalProperties === 'object') problems.push(...schemaProblems(document, schema.additionalProperties, item, `${at}.${name}`));
  }
  return problems;
}
