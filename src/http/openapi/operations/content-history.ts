import { z } from 'zod';
import { diffQuery, restoreBody } from '../../routes/content-history-schemas';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime } from '../shared-schemas';
import { TAGS } from '../tags';

/** Versions, restore and diff of one content family (the history list and asOf reads are documented with the other item operations). */

export const AS_OF =
  'With `asOf` (an ISO 8601 date-time) the item as this path served it at that time, read from the item\'s own events: on the published paths its ' +
  'published content then (404 when it was not published then), on the preview paths its draft. Relations are not expanded. With versioningDisabled ' +
  'only the latest version is readable.';

const STAGES =
  'Published paths answer the published state at that version (404 when nothing was published then: a draft nobody published is never shown ' +
  'there), preview paths the draft. Deleted content is not served: no version of a deleted item, and no draft deleted since. With versioningDisabled ' +
  'only the latest version is readable.';

interface HistoryFamily {
  readonly base: string;
  readonly model: 'v1' | 'v2';
  readonly stage: 'published' | 'draft';
  readonly name: string;
}

const itemParameters = { type: 'the content type key (contentTypeKey in the spec)', id: 'the content item id' };
const versionParameters = { ...itemParameters, n: 'the version, 1-based (see history)' };
const jsonPatch = named(
  'JsonPatch',
  z.array(
    named(
      'JsonPatchOperation',
      z.object({
        op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
        path: z.string().describe('a JSON Pointer (RFC 6901) into the item'),
        from: z.string().optional(),
        value: z.unknown().optional(),
      }),
    ),
  ),
);

export function contentVersionOperations(family: HistoryFamily, item: z.ZodType): DocumentedOperation[] {
  const { base, name } = family;
  const stageWord = family.stage === 'published' ? 'published content' : 'draft';
  const versionSchema = named(
    `${name}Version`,
    z.object({
      version: z.number().int().describe('the version asked for'),
      at: dateTime.describe('when that version was written'),
      stage: z.enum(['published', 'draft']).describe("the path's stage"),
      updatedAt: dateTime.describe(`when the ${stageWord} became what it was at that version`),
      publishedAt: dateTime.nullable().describe('when the published content of that version was published; null when nothing was published then'),
      item,
    }),
  );
  const restoreResult = named(
    `${name}RestoreResult`,
    z.object({ version: z.number().int().describe('the version the restore wrote'), restoredFrom: z.number().int(), item: item.describe('the new draft') }),
  );
  return [
    {
      method: 'get',
      path: `${base}/{type}/{id}/versions/{n}`,
      operationId: `get${name}Version`,
      tag: TAGS.content.name,
      access: 'ReadAccess',
      summary: `The ${stageWord} of a content item as it was at version n`,
      description: STAGES,
      parameters: versionParameters,
      responses: { 200: { description: 'the item at that version', schema: versionSchema } },
      errors: { 404: `no such content type, item or version, or no ${stageWord} at that version`, 410: 'the item was erased: no version is readable' },
    },
    {
      method: 'post',
      path: `${base}/{type}/{id}/versions/{n}/restore`,
      operationId: `restore${name}Version`,
      tag: TAGS.content.name,
      access: 'WriteAccess',
      summary: `Make the ${stageWord} of version n the draft again`,
      description:
        'Appends a ContentRestored event (the version restored, the reason, the content; the actor and clientInfo in its metadata) and answers the new ' +
        'draft. Publishing stays a separate step. The content is checked against the content type as it is now, like a save. ' +
        STAGES,
      parameters: versionParameters,
      body: { schema: named('RestoreContentRequest', restoreBody), example: { reason: 'the import overwrote the title', clientInfo: 'editor' }, optional: true },
      responses: { 200: { description: 'the restored draft', schema: restoreResult } },
      errors: { 400: 'invalid body, or the restored content breaks the content type as it is now (each field named)', 404: `no such content type, item or version, or no ${stageWord} at that version`, 410: 'the item was erased' },
    },
    {
      method: 'get',
      path: `${base}/{type}/{id}/diff`,
      operationId: `diff${name}Versions`,
      tag: TAGS.content.name,
      access: 'ReadAccess',
      summary: `An RFC 6902 JSON Patch from the ${stageWord} at one version to another`,
      description: `Applied to the item as this path served it at version \`from\` (${family.model.toUpperCase()} model), the patch gives it at version \`to\`. ${STAGES}`,
      parameters: { ...itemParameters, from: 'the version to start from', to: 'the version to reach' },
      query: diffQuery,
      responses: { 200: { description: 'the operations, empty when nothing changed', schema: jsonPatch } },
      errors: { 404: `no such content type, item or version, or no ${stageWord} at one of the versions` },
    },
  ];
}
