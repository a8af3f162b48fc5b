import { z } from 'zod';
import { QUERY_INDEX_ORIGINS, TEXT_INDEX_KINDS } from '../../../domain/content-type/query-indexes';
import { queryIndexesBody } from '../../routes/admin-query-indexes';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { TAGS } from '../tags';

const TAG = TAGS.admin.name;
const PATH = '/admin/workspaces/{workspaceId}/content-types/{key}/query-indexes';
const PARAMETERS = { workspaceId: 'the workspace', key: 'the content type key' };

export const queryIndexState = named(
  'QueryIndexState',
  z
    .enum(['none', 'waiting', 'building', 'built', 'failed'])
    .describe(
      "where the declared indexes stand on the type's typed table: none (nothing declared), waiting (no typed table serves yet: they are built after its load), " +
        'building (being created or dropped, or on the next pass within a second), built, failed (the last build failed; the service log says why, and it is tried again a minute later)',
    ),
);

const indexShape = {
  fields: z.array(z.object({ key: z.string(), direction: z.enum(['asc', 'desc']) })).describe('in index order'),
  text: z.enum(TEXT_INDEX_KINDS).optional().describe('a text index (prefix, prefix-folded, substring) on its one field; absent: a b-tree'),
  covering: z.literal(true).optional().describe('a b-tree an aggregate reads alone, holding text fields whole (see the request body)'),
};

const listedIndex = named(
  'QueryIndex',
  z.object({
    ...indexShape,
    origin: z.enum(QUERY_INDEX_ORIGINS).describe('declared by an operator, pinned (advised, then kept by an operator), or advised (declared by the advisor, which drops it when unused)'),
    advisedAt: z.string().optional().describe('when the advisor declared it'),
  }),
);

const queryIndexList = named(
  'QueryIndexList',
  z.object({
    indexes: z.array(listedIndex),
    forbidden: z.array(named('ForbiddenQueryIndex', z.object(indexShape))).describe('indexes the advisor may not declare'),
    state: queryIndexState,
    indexesPerWrite: z
      .number()
      .int()
      .nullable()
      .describe("indexes each write of one of the type's rows updates in its typed table (its primary key, its two own, the built query indexes; a substring index adds an entry per distinct trigram); null while no typed table serves"),
  }),
);

const shapeOrder = z.object({ fieldKey: z.string(), direction: z.enum(['asc', 'desc']) });

const queryShapeList = named(
  'QueryShapeList',
  z.object({
    advisor: z
      .object({
        enabled: z.boolean(),
        minCount: z.number().int(),
        minMeanMs: z.number(),
        windowMs: z.number().int(),
        intervalMs: z.number().int(),
        budget: z.number().int(),
        dropUnusedAfterMs: z.number().int(),
      })
      .describe('the advisor settings (QUERY_ADVISOR_*, docs/operations.md)'),
    shapes: z.array(
      named(
        'QueryShape',
        z.object({
          key: z.string().describe('tells shapes apart'),
          kind: z.enum(['list', 'aggregate', 'group']).describe('a list or its ids, an aggregate, a grouped aggregate'),
          asOf: z.boolean().describe('asked with asOf (read from the versions table, which the advisor leaves lean)'),
          filter: z.string().describe('the filter without its values, e.g. "category e and price gte"; empty for none'),
          order: z.array(shapeOrder),
          aggregate: z.object({ fieldKey: z.string(), operation: z.enum(['sum', 'avg', 'min', 'max', 'count']), groupByFieldKey: z.string().optional() }).optional(),
          count: z.number().int().describe('queries of this shape since this instance first saw it'),
          meanMs: z.number(),
          totalMs: z.number(),
          recentCount: z.number().int().describe('queries in the recent window (between one and two QUERY_ADVISOR_WINDOW_MS)'),
          recentMeanMs: z.number(),
          firstSeen: z.string(),
          lastSeen: z.string(),
          index: z.object(indexShape).nullable().describe('the index that serves it, or that the advisor would declare; null when no index would serve it'),
          servedBy: z.enum(QUERY_INDEX_ORIGINS).nullable().describe('who keeps the index that serves it'),
          status: z
            .enum(['indexed', 'candidate', 'below-threshold', 'forbidden', 'over-budget', 'unindexable', 'advisor-off'])
            .describe('indexed; candidate (declared at the advisor\'s next pass); below-threshold; forbidden; over-budget (the type has its budget of advised indexes); unindexable; advisor-off'),
        }),
      ),
    ),
  }),
);

export const adminQueryIndexOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: PATH,
    operationId: 'getQueryIndexes',
    tag: TAG,
    summary: "A content type's query indexes: declared, pinned and advised, and the forbidden ones",
    access: 'Admin',
    parameters: PARAMETERS,
    responses: { 200: { description: 'as declared, each field with its direction', schema: queryIndexList } },
    errors: { 404: 'no such workspace or content type' },
  },
  {
    method: 'put',
    path: PATH,
    operationId: 'declareQueryIndexes',
    tag: TAG,
    summary: "Declare the indexes the queries of a content type need, pin advised ones, forbid the advisor some (replaces the operator's list)",
    description:
      'Each index serves queries that filter its leading fields by equality and sort by (or filter a range of) its last field within a stage, ' +
      'e.g. ["color", "price"] for `color = X` ordered by price: a page reads about as many index entries as it answers. Recorded as a ' +
      'ContentTypeQueryIndexesDeclared event; the typed table of the type gets the indexes built (without blocking writes on PostgreSQL) and ' +
      'indexes no longer declared dropped, within seconds and without a rebuild. Answers of queries never change, only their cost. Every ' +
      'declared index costs each write of the type\'s items an index update: declare the patterns the sites use (docs/operations.md). The advisor ' +
      'declares indexes for frequent slow query shapes by itself (origin advised); listing one with origin pinned keeps it for good, listing it in ' +
      'forbidden drops it and keeps the advisor from declaring it again.',
    access: 'Admin',
    parameters: PARAMETERS,
    body: {
      schema: named('DeclareQueryIndexesRequest', queryIndexesBody),
      example: {
        indexes: [{ fields: ['color', { key: 'price', direction: 'desc' }] }, { fields: ['category', 'publishedAt'], origin: 'pinned' }, { fields: ['title'], text: 'prefix' }],
        forbidden: [{ fields: ['releasedAt'] }],
      },
    },
    responses: { 200: { description: 'the declared list, each field with its direction, and its state (building until the builder has brought the table in line)', schema: queryIndexList } },
    errors: {
      400: 'a field that is not a typed field of the type (unknown, Json or Encrypted), a field named twice, an index declared twice, more than 3 fields, more than 8 declared and pinned indexes, a text index not on one Text or RichText field, an index both kept and forbidden',
      404: 'no such workspace or content type',
    },
  },
  {
    method: 'get',
    path: '/admin/workspaces/{workspaceId}/content-types/{key}/query-shapes',
    operationId: 'getQueryShapes',
    tag: TAG,
    summary: 'The query shapes this instance served for a content type, their cost, and what the advisor makes of each',
    description:
      'Every list, ids and aggregate query of the type is counted and timed by its shape (the fields filtered with their operators, the order, ' +
      'the aggregate; values left out), in the memory of the instance that served it: each instance answers its own. Most queried recently first.',
    access: 'Admin',
    parameters: PARAMETERS,
    responses: { 200: { description: 'the advisor settings and the shapes', schema: queryShapeList } },
    errors: { 404: 'no such workspace or content type' },
  },
];
