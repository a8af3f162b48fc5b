import { type Request, Router } from 'express';
import { z } from 'zod';
import type { ContentTypeCommands } from '../../../commands/content-types';
import type { QueryIndexQueries } from '../../../queries/query-indexes';
import type { WorkspaceQueries } from '../../../queries/workspaces';
import {
  MAX_ADVISED_INDEXES,
  MAX_FORBIDDEN_INDEXES,
  MAX_QUERY_INDEX_FIELDS,
  MAX_QUERY_INDEXES,
  QUERY_INDEX_ORIGINS,
  TEXT_INDEX_KINDS,
} from '../../domain/content-type/query-indexes';
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

const indexFields = z
  .array(queryIndexFieldInput)
  .min(1, 'must name at least one field')
  .max(MAX_QUERY_INDEX_FIELDS, `must name at most ${MAX_QUERY_INDEX_FIELDS} fields`)
  .describe('equality-filtered fields first, the sorted (or range-filtered) field last, or the sorted field, id, then the range-filtered one (id, the final key of every order, placed there); keys of typed fields or id, createdAt, updatedAt, publishedAt; a text index names one Text or RichText field');

const textKind = z
  .enum(TEXT_INDEX_KINDS)
  .optional()
  .describe('a text index instead of a b-tree: prefix serves start, prefix-folded start with caseInsensitive, substring (trigrams) contains and end');

const covering = z
  .literal(true)
  .optional()
  .describe("a b-tree an aggregate reads alone: it holds Text, RichText, Relation and Media fields whole (an ordinary b-tree keys them on a prefix), so a grouped aggregate reads its groups from the index; an item whose value there is 200 characters or longer is found through a small companion index");

const queryIndexInput = z.object({
  fields: indexFields,
  text: textKind,
  covering,
  origin: z
    .enum(QUERY_INDEX_ORIGINS)
    .default('declared')
    .describe('declared (the default) or pinned (an advised index the operator keeps: the advisor never drops it); an index sent as advised is left to the advisor, so a list read and written back changes nothing'),
});

export const queryIndexesBody = z.object({
  indexes: z
    .array(queryIndexInput, { error: 'is required' })
    .max(MAX_QUERY_INDEXES + MAX_ADVISED_INDEXES, `at most ${MAX_QUERY_INDEXES} declared and pinned query indexes per content type`)
    .describe("the operator's whole list (declared and pinned): those not in it are dropped; advised ones stay unless forbidden"),
  forbidden: z
    .array(z.object({ fields: indexFields, text: textKind, covering }))
    .max(MAX_FORBIDDEN_INDEXES, `at most ${MAX_FORBIDDEN_INDEXES} forbidden indexes per content type`)
    .optional()
    .describe('indexes the advisor may never declare (the whole list; an advised one among them is dropped); omitted, the list stays as it is'),
});

/** A content type's query indexes and the query shapes served for it, under /admin (docs/operations.md "Query indexes"). */
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
    const { indexes, forbidden } = parseInput(queryIndexesBody, req.body);
    const key = pathParam(req, 'key');
    await commands.declareQueryIndexes(workspaceId, key, indexes, forbidden, { ...commandContext(req, res), workspaceId });
    // Read after the write: the registry holds the declaration, and its state says the build is ahead.
    res.json(await answer(workspaceId, key));
  });

  router.get('/workspaces/:workspaceId/content-types/:key/query-shapes', async (req, res) => {
    const workspaceId = await workspaceOf(req);
    const key = pathParam(req, 'key');
    const shapes = await queries.shapes(workspaceId, key);
    if (!shapes) throw notFoundProblem(`content type ${key} does not exist`);
    res.json(shapes);
  });

  return router;
}
