import type { Request, Response, Router } from 'express';
import type { ContentCommands, SavedContent } from '../../../commands/content';
import { type ContentValues, toV2 } from '../../../queries/content-views';
import type { ContentTypeDocument } from '../../../projections/read-models/content-types';
import type { ContentQueries } from '../../../queries/content';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { badRequest } from '../problem';
import { parseInput } from '../validate';
import { type ContentFamily, render } from './content-read';
import { clientInfoBody, saveV1Body, saveV2Body } from './content-schemas';

/**
 * Writes of one content family. Saving on a preview path saves the draft; saving on a
 * published path saves and publishes in one decision. Answers read the read model, which
 * the command has waited for (read-your-writes).
 */
export function contentWriteRoutes(router: Router, access: AccessGuard, commands: ContentCommands, queries: ContentQueries, family: ContentFamily): void {
  const { base, stage } = family;
  const publishOnSave = stage === 'published';

  router.put(`${base}/:type`, access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const type = await queries.type(workspaceId, pathParam(req, 'type'));
    const input = family.model === 'v1' ? v1Input(req.body, type) : parseInput(saveV2Body, req.body);
    const saved = await commands.save(workspaceId, type.key, input, publishOnSave, commandContext(req, res, input.clientInfo));
    // V2 answers with what was decided; V1 also carries the timestamps, which the read model holds.
    if (family.model === 'v2') res.json(toV2(savedValues(saved), type));
    else res.json(render(family, await queries.item(workspaceId, type.key, saved.itemId, stage), type));
  });

  const change = (command: Parameters<ContentCommands['change']>[0]) => async (req: Request, res: Response) => {
    const { clientInfo } = parseInput(clientInfoBody, req.body ?? {});
    await commands.change(command, workspacePrincipal(res).workspaceId, pathParam(req, 'type'), pathParam(req, 'id'), commandContext(req, res, clientInfo));
    res.json({ success: true });
  };

  if (stage === 'draft') {
    router.put(`${base}/:type/:id/publish`, access('WriteAccess'), change('Publish'));
    router.delete(`${base}/:type/:id`, access('WriteAccess'), change('DeleteDraft'));
  } else {
    router.put(`${base}/:type/:id/unpublish`, access('WriteAccess'), change('Unpublish'));
    router.delete(`${base}/:type/:id`, access('WriteAccess'), change('Delete'));
  }
}

const savedValues = ({ itemId, content }: SavedContent): ContentValues => ({
  itemId,
  fields: content.fields,
  translations: content.translations as ContentValues['translations'],
});

/** The V1 body: a typed field array. A field's `type`, when given, must be the schema's. */
function v1Input(body: unknown, type: ContentTypeDocument) {
  const input = parseInput(saveV1Body, body);
  if (input.contentType !== type.key) {
    throw badRequest(`contentType ${input.contentType} does not match the path (${type.key})`, [{ field: 'contentType', message: `must be ${type.key}` }]);
  }
  const fields = new Map<string, unknown>();
  input.fields.forEach((field, index) => {
    if (fields.has(field.key)) throw badRequest(`field ${field.key} is given twice`, [{ field: `fields.${index}.key`, message: 'is given twice' }]);
    const schemaType = type.fields.find((definition) => definition.key === field.key)?.type;
    if (field.type !== undefined && schemaType !== undefined && field.type !== schemaType) {
      throw badRequest(`field ${field.key} is a ${schemaType}, not a ${field.type}`, [{ field: `fields.${index}.type`, message: `must be ${schemaType}` }]);
    }
    fields.set(field.key, field.value);
  });
  return { id: input.id, fields: Object.fromEntries(fields), clientInfo: input.clientInfo };
}
