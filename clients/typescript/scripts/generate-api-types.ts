/**
 * Regenerates src/generated/api-types.ts from the OpenAPI document of a running service
 * (a URL) or a saved copy of it (a file). Run from the package folder:
 *   npm run generate:types -- http://localhost:8080/openapi.json
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type OpenApiDocument, renderApiTypes } from './render-api-types';

const DEFAULT_SOURCE = 'http://localhost:8080/openapi.json';
const TARGET = resolve('src/generated/api-types.ts');

async function readDocument(source: string): Promise<OpenApiDocument> {
  if (!/^https?:\/\//.test(source)) return JSON.parse(await readFile(source, 'utf8')) as OpenApiDocument;
  const response = await fetch(source);
  if (!response.ok) throw new Error(`${source} answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}

async function main(): Promise<void> {
  const source = process.argv[2] ?? DEFAULT_SOURCE;
  await writeFile(TARGET, renderApiTypes(await readDocument(source)));
  console.log(`wrote ${TARGET} from ${source}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
