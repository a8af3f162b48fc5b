import { z } from 'zod';
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

const queryIndexList = named(
  'QueryIndexList',
  z.object({
    indexes: z.array(
      named(
        'QueryIndex',
        z.object({ fields: z.array(z.object({ key: z.string(), direction: z.enum(['asc', 'desc']) })).describe('in index order') }),
      ),
    ),
    state: queryIndexState,
  }),
);

export const adminQueryIndexOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: PATH,
    operationId: 'getQueryIndexes',
    tag: TAG,
    summary: "A content type's declared query indexes",
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
    summary: 'Declare the composite indexes the queries of a content type need (replaces the list)',
    description:
      'Each index serves queries that filter its leading fields by equality and sort by (or filter a range of) its last field within a stage, ' +
      'e.g. ["color", "price"] for `color = X` ordered by price: a page reads about as many index entries as it answers. Recorded as a ' +
      'ContentTypeQueryIndexesDeclared event; the typed table of the type gets the indexes built (without blocking writes on PostgreSQL) and ' +
      'indexes no longer declared dropped, within seconds and without a rebuild. Answers of queries never change, only their cost. Every ' +
      'declared index costs each write of the type\'s items an index update: declare the patterns the sites use (docs/operations.md).',
    access: 'Admin',
    parameters: PARAMETERS,
    body: {
      schema: named('DeclareQueryIndexesRequest', queryIndexesBody),
      example: { indexes: [{ fields: ['color', { key: 'price', direction: 'desc' }] }, { fields: ['category', 'publishedAt'] }] },
    },
    responses: { 200: { description: 'the declared list, each field with its direction, and its state (building until the builder has brought the table in line)', schema: queryIndexList } },
    errors: {
      400: 'a field that is not a typed field of the type (unknown, Json or Encrypted), a field named twice, an index declared twice, more than 3 fields or more than 8 indexes',
      404: 'no such workspace or content type',
    },
  },
];
