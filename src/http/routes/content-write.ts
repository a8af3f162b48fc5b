import type { Request, Response, Router } from 'express';
import type { ContentCommands, SavedContent } from '../../../commands/content';
import { type ContentValues, toV2 } from '../../../queries/content-views';
import type { ContentTypeDocument } from '../../../projections/read-models/content-types';
import type { ContentQueries } from '../../../queries/content';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { badRequest, type FieldError, ProblemError } from '../problem';
import { parseInput, takesNoQuery } from '../validate';
import { type ContentFamily, render } from './content-read';
import { clientInfoBody, mergePatchV2Body, saveV1Body, saveV2Body } from './content-schemas';

export const MERGE_PATCH_TYPE = 'application/merge-patch+json';

/**
 * Writes of one content family. Saving on a preview path saves the draft; saving on a
 * published path saves and publishes in one decision. Answers read the read model, which
 * the command has waited for (read-your-writes).
 */
export function contentWriteRoutes(router: Router, access: AccessGuard, commands: ContentCommands, queries: ContentQueries, family: ContentFamily): void {
  const { base, stage } = family;
  const publishOnSave = stage === 'published';

  router.put(`${base}/:type`, access('WriteAccess'), takesNoQuery, async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const type = await queries.type(workspaceId, pathParam(req, 'type'));
    const input = family.model === 'v1' ? v1Input(req.body, type) : parseInput(saveV2Body, req.body);
    const saved = await commands.save(workspaceId, type.key, input, publishOnSave, commandContext(req, res, input.clientInfo));
    // V2 answers with what was decided; V1 also carries the timestamps, which the read model holds.
    if (family.model === 'v2') res.json(toV2(savedValues(saved), type));
    else res.json(render(family, await queries.item(workspaceId, type.key, saved.itemId, stage), type));
  });

  if (family.model === 'v2') {
    // The fields sent merge into the item's (RFC 7396); saved like a PUT on the same path.
    router.patch(`${base}/:type/:id`, access('WriteAccess'), takesNoQuery, async (req, res) => {
      if (!req.is(MERGE_PATCH_TYPE)) {
        res.set('Accept-Patch', MERGE_PATCH_TYPE);
        throw new ProblemError(415, `PATCH takes a JSON Merge Patch: send Content-Type: ${MERGE_PATCH_TYPE}`);
      }
      const { workspaceId } = workspacePrincipal(res);
      const type = await queries.type(workspaceId, pathParam(req, 'type'));
      const itemId = pathParam(req, 'id');
      const { id, clientInfo, ...patch } = parseInput(mergePatchV2Body, req.body);
      if (id !== undefined && id !== null && id !== itemId) throw badRequest(`id ${id} is not the path's (${itemId})`, [{ field: 'id', message: `must be ${itemId} or left out` }]);
      const saved = await commands.patch(workspaceId, type.key, itemId, patch, stage, commandContext(req, res, clientInfo));
      res.json(toV2(savedValues(saved), type));
    });
  }

  const change = (command: Parameters<ContentCommands['change']>[0]) => async (req: Request, res: Response) => {
    const { clientInfo } = parseInput(clientInfoBody, req.body ?? {});
    await commands.change(command, workspacePrincipal(res).workspaceId, pathParam(req, 'type'), pathParam(req, 'id'), commandContext(req, res, clientInfo));
    res.json({ success: true });
  };

  if (stage === 'draft') {
    router.put(`${base}/:type/:id/publish`, access('WriteAccess'), takesNoQuery, change('Publish'));
    router.delete(`${base}/:type/:id`, access('WriteAccess'), takesNoQuery, change('DeleteDraft'));
  } else {
    router.put(`${base}/:type/:id/unpublish`, access('WriteAccess'), takesNoQuery, change('Unpublish'));
    router.delete(`${base}/:type/:id`, access('WriteAccess'), takesNoQuery, change('Delete'));
  }
}

const savedValues = ({ itemId, content }: SavedContent): ContentValues => ({
  itemId,
  fields: content.fields,
  translations: content.translations as ContentValues['translations'],
});

/** The V1 body: a typed field array. A field's `type`, when given, must be the schema's. Every bad field is reported at once. */
function v1Input(body: unknown, type: ContentTypeDocument) {
  const input = parseInput(saveV1Body, body);
  const problems: FieldError[] = [];
  if (input.contentType !== type.key) problems.push({ field: 'contentType', message: `must be ${type.key} (the path's content type)` });
  const fields = new Map<string, unknown>();
  input.fields.forEach((field, index) => {
    if (fields.has(field.key)) problems.push({ field: `fields.${index}.key`, message: `${field.key} is given twice` });
    const schemaType = type.fields.find((definition) => definition.key === field.key)?.type;
    if (field.type !== undefined && schemaType !== undefined && field.type !== schemaType) {
      problems.push({ field: `fields.${index}.type`, message: `must be ${schemaType} (${field.key} is a ${schemaType})` });
    }
    fields.set(field.key, field.value);
  });
  if (problems.length > 0) throw badRequest(`invalid body: ${problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`, problems);
  return { id: input.id, fields: Object.fromEntries(fields), clientInfo: input.clientInfo };
}
