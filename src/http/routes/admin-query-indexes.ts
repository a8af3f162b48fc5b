import { type Request, Router } from 'express';
import { z } from 'zod';
import type { ContentTypeCommands } from '../../../commands/content-types';
import type { QueryIndexQueries } from '../../../queries/query-indexes';
import type { WorkspaceQueries } from '../../../queries/workspaces';
import { MAX_QUERY_INDEX_FIELDS, MAX_QUERY_INDEXES } from '../../domain/content-type/query-indexes';
import { commandContext } from '../auth';
import { pathParam } from '../params';
import { notFoundProblem } from '../problem';
import { parseInput } from '../validate';

const fieldKey = z.string().min(1, 'is required').max(100);

/** A field key alone sorts ascending. */
const queryIndexFieldInput = z
  .union([
    fieldKey,
    z.object({
      key: fieldKey,
      direction: z.enum(['asc', 'desc']).default('asc').describe('desc serves `sortDir: Desc` on this field without a sort step'),
    }),
  ])
  .transform((field) => (typeof field === 'string' ? { key: field, direction: 'asc' as const } : field));

export const queryIndexesBody = z.object({
  indexes: z
    .array(
      z.object({
        fields: z
          .array(queryIndexFieldInput)
          .min(1, 'must name at least one field')
          .max(MAX_QUERY_INDEX_FIELDS, `must name at most ${MAX_QUERY_INDEX_FIELDS} fields`)
          .describe('equality-filtered fields first, the sorted (or range-filtered) field last, or the sorted field, id, then the range-filtered one (id, the final key of every order, placed there); keys of typed fields or id, createdAt, updatedAt, publishedAt'),
      }),
      { error: 'is required' },
    )
    .max(MAX_QUERY_INDEXES, `at most ${MAX_QUERY_INDEXES} query indexes per content type`)
    .describe('the whole list: indexes not in it are dropped'),
});

/** A content type's declared query indexes, under /admin (docs/operations.md "Query indexes"). */
export function adminQueryIndexesRouter(commands: ContentTypeCommands, queries: QueryIndexQueries, workspaces: WorkspaceQueries): Router {
  const router = Router();
  const path = '/workspaces/:workspaceId/content-types/:key/query-indexes';
  const workspaceOf = async (req: Request) => {
    const workspaceId = pathParam(req, 'workspaceId');
    if (!(await workspaces.get(workspaceId))) throw notFoundProblem(`workspace ${workspaceId} does not exist`);
    return workspaceId;
  };

  const answer = async (workspaceId: string, key: string) => {
    const declared = await queries.declared(workspaceId, key);
    if (!declared) throw notFoundProblem(`content type ${key} does not exist`);
    return declared;
  };

  router.get(path, async (req, res) => {
    res.json(await answer(await workspaceOf(req), pathParam(req, 'key')));
  });

  router.put(path, async (req, res) => {
    const workspaceId = await workspaceOf(req);
    const { indexes } = parseInput(queryIndexesBody, req.body);
    const key = pathParam(req, 'key');
    await commands.declareQueryIndexes(workspaceId, key, indexes, { ...commandContext(req, res), workspaceId });
    // Read after the write: the registry holds the declaration, and its state says the build is ahead.
    res.json(await answer(workspaceId, key));
  });

  return router;
}
