import { type Request, Router } from 'express';
import { z } from 'zod';
import type { SchemaCommands } from '../../../commands/schema';
import type { SchemaQueries } from '../../../queries/schema';
import type { WorkspaceQueries } from '../../../queries/workspaces';
import { schemaDocument } from '../../domain/schema/document';
import { commandContext } from '../auth';
import { pathParam } from '../params';
import { notFoundProblem } from '../problem';
import { parseInput } from '../validate';

/** A schema is larger than any other admin body: a few hundred content types of many fields. */
export const SCHEMA_BODY_LIMIT = '8mb';

const requestShape = {
  schema: schemaDocument,
  webhookSecrets: z
    .record(z.string(), z.string().min(1, 'must not be empty').max(200))
    .default({})
    .describe("webhook id to its signing secret, for webhooks of the schema; a webhook created without one gets a generated secret, an existing one keeps its own"),
};

const webhooksOfTheSchema = (body: { schema: z.output<typeof schemaDocument>; webhookSecrets: Record<string, string> }, context: z.RefinementCtx) => {
  const ids = new Set((body.schema.webhooks ?? []).map((webhook) => webhook.id));
  for (const id of Object.keys(body.webhookSecrets)) {
    if (!ids.has(id)) context.addIssue({ code: 'custom', path: ['webhookSecrets', id], message: 'names no webhook of the schema' });
  }
};

export const schemaPlanBody = z.strictObject(requestShape).superRefine(webhooksOfTheSchema);

export const schemaApplyBody = z
  .strictObject({
    ...requestShape,
    allowDestructive: z.boolean().default(false).describe('apply deletions, removed fields and changed field types too; without it a schema that makes one is refused (409)'),
  })
  .superRefine(webhooksOfTheSchema);

/** Schema as code under /admin (docs/schema-as-code.md): export, plan, apply. */
export function adminSchemaRouter(queries: SchemaQueries, commands: SchemaCommands, workspaces: WorkspaceQueries): Router {
  const router = Router();
  const path = '/workspaces/:workspaceId/schema';
  const workspaceOf = async (req: Request) => {
    const workspaceId = pathParam(req, 'workspaceId');
    if (!(await workspaces.get(workspaceId))) throw notFoundProblem(`workspace ${workspaceId} does not exist`);
    return workspaceId;
  };

  router.get(path, async (req, res) => {
    res.json(await queries.export(await workspaceOf(req)));
  });

  router.post(`${path}/plan`, async (req, res) => {
    const workspaceId = await workspaceOf(req);
    const body = parseInput(schemaPlanBody, req.body);
    res.json({ workspaceId, applied: false, ...(await commands.plan(workspaceId, body.schema, body.webhookSecrets)) });
  });

  router.put(path, async (req, res) => {
    const workspaceId = await workspaceOf(req);
    const body = parseInput(schemaApplyBody, req.body);
    const plan = await commands.apply(workspaceId, body.schema, body.webhookSecrets, body.allowDestructive, { ...commandContext(req, res, 'schema apply'), workspaceId });
    res.json({ workspaceId, applied: true, ...plan });
  });

  return router;
}
