import { z } from 'zod';

/** The schemas the document lists under components.schemas, each with its name there. */
export const documentedSchemas = z.registry<{ id: string }>();

const byName = new Map<string, z.ZodType>();

/**
 * Names a schema for the document and returns it unchanged. Route schemas are named where
 * they are documented, so the document shows exactly what the routes parse.
 */
export function named<Schema extends z.ZodType>(name: string, schema: Schema): Schema {
  const taken = byName.get(name);
  if (taken && taken !== schema) throw new Error(`two schemas are named ${name} in the API document`);
  byName.set(name, schema);
  documentedSchemas.add(schema, { id: name });
  return schema;
}

export const componentRef = (name: string) => `#/components/schemas/${name}`;

/** The `$ref` of a named schema; every body in the document is a component. */
export function schemaRef(schema: z.ZodType): { $ref: string } {
  const name = documentedSchemas.get(schema)?.id;
  if (!name) throw new Error('a request or response schema of the API document has no name: wrap it in named()');
  return { $ref: componentRef(name) };
}
