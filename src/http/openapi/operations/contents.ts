import { z } from 'zod';
import {
  aggregateBody,
  aggregateGroupBody,
  clientInfoBody,
  idsPageBody,
  mergePatchV2Body,
  saveV1Body,
  saveV2Body,
  searchPageBody,
  viewBody,
} from '../../routes/content-schemas';
import { asOfQuery } from '../../routes/content-history-schemas';
import { itemQuery, previewQuery } from '../../routes/content-read';
import { previewableQuery } from '../../routes/content-queries';
import { MAX_QUERY_STRING, queryParameters } from '../../query-body';
import { MERGE_PATCH_TYPE } from '../../routes/content-write';
import { eraseBody } from '../../routes/content-erase';
import { AS_OF, contentVersionOperations } from './content-history';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime, successSchema } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.content.name;

const FILTERS =
  'A filter is a tree: groups `{ "type": "and" | "or" | "not", "conditions": [...] }` and leaves ' +
  '`{ "type": "condition", "fieldKey", "operator", "value", "caseInsensitive"? }`. Operators: e, ne, gt, gte, lt, lte, ' +
  'in, nin (value an array), start, end, contains, noe (null or empty), nnoe. fieldKey may name a system field: ' +
  'id, createdAt, updatedAt, publishedAt. An order is `{ "type": "condition", "fieldKey", "sortDir": "Asc" | "Desc" }` ' +
  'or an array of them. An unknown operator or field is a 400 naming it. Limits (400 naming the input): 10 levels, ' +
  '100 conditions, 500 values per list, and the values of start, end and contains in one filter 200 characters ' +
  'together. A read running longer than the read statement timeout (PostgreSQL) answers 503.';

/** The 503 of the costly reads a workspace may run at once (src/http/workspace-reads.ts). */
export const BUSY_WORKSPACE =
  'too many costly reads (content queries, audit, history) of this workspace at once: READS_PER_WORKSPACE running and READ_QUEUE_PER_WORKSPACE waiting, or one waited READ_QUEUE_WAIT_MS; retry after Retry-After (1 s)';

const contentFieldV1 = named(
  'ContentFieldV1',
  z.object({
    type: z.string().describe('the field type of the content type'),
    key: z.string(),
    value: z.unknown().describe('depends on the type; an expanded Relation is a nested item (id, contentType, fields)'),
  }),
);
export const contentItemV1 = named(
  'ContentItemV1',
  z.object({ id: z.string(), contentType: z.string(), fields: z.array(contentFieldV1), createdAt: dateTime, updatedAt: dateTime }),
);
export const contentItemV2 = named(
  'ContentItemV2',
  z.object({
    id: z.string(),
    fields: z.record(z.string(), z.unknown()).describe('field key to value; encrypted fields are never shown'),
    translations: z.record(z.string(), z.record(z.string(), z.unknown())).describe('field key to locale code to value'),
    sys: named(
      'ItemMetadata',
      z.object({
        createdAt: dateTime,
        updatedAt: dateTime,
        publishedAt: dateTime.nullable().describe('when last published; null for a draft never published'),
        version: z.number().int().describe("the item's version this answer reflects"),
        stage: z.enum(['draft', 'published']),
      }),
    )
      .optional()
      .describe('only when asked for: meta=true on an item read (not with asOf), meta: true in a list query'),
  }),
);
const contentIds = named('ContentIds', z.object({ ids: z.array(z.string()), total: z.number().int() }));
const aggregateResult = named('AggregateResult', z.object({ value: z.number().nullable().describe('null when nothing could be aggregated') }));
const aggregateGroups = named(
  'AggregateGroups',
  z.object({ items: z.array(named('AggregateGroupItem', z.object({ groupValue: z.unknown(), aggregateValue: z.number().nullable() }))) }),
);
const contentPageV2 = named(
  'ContentPageV2',
  z.object({
    items: z.array(contentItemV2),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalPages: z.number().int(),
    hasMorePages: z.boolean(),
  }),
);
const historyEntries = named(
  'ContentHistory',
  z.array(
    named(
      'ContentHistoryEntry',
      z.object({
        version: z.number().int().describe('1-based'),
        type: z.string().describe('the event type, e.g. ContentDraftSaved'),
        at: dateTime,
        actor: z.string().describe('key:<keyId>, app:<appId> or admin; never a key'),
        actorKind: z.enum(['apiKey', 'app', 'admin', 'system', 'sharedAccessKey', 'other']),
        actorId: z.string().describe('the key or app id, the admin token\'s name, or system'),
        actorName: z.string().nullable().describe("the key's, app's or admin's name when the event was written (for older events: the key's or app's name now)"),
        clientInfo: z.string().nullable(),
        requestId: z.string().nullable().describe('the X-Request-Id of the request that wrote the event'),
        serverRequestId: z.string().nullable().describe("the server's own id of that request (X-Server-Request-Id, never chosen by a client); null for events written before it was recorded or not caused by a request"),
        releaseId: z.string().optional().describe('the content release whose publish or revert wrote it (docs/releases.md); absent otherwise'),
      }),
    ),
  ),
);

const idsRequest = named('ContentIdsRequest', idsPageBody);
const aggregateRequest = named('AggregateRequest', aggregateBody);
const aggregateGroupRequest = named('AggregateGroupRequest', aggregateGroupBody);
const clientInfoRequest = named('ClientInfoRequest', clientInfoBody);

interface Family {
  readonly base: string;
  readonly model: 'v1' | 'v2';
  readonly stage: 'published' | 'draft';
  /** Distinguishes the family's operationIds: ContentV2, PreviewContent, ... */
  readonly name: string;
}

const FAMILIES: readonly Family[] = [
  { base: '/contents', model: 'v1', stage: 'published', name: 'Content' },
  { base: '/preview-contents', model: 'v1', stage: 'draft', name: 'PreviewContent' },
  { base: '/v2/contents', model: 'v2', stage: 'published', name: 'ContentV2' },
  { base: '/v2/preview-contents', model: 'v2', stage: 'draft', name: 'PreviewContentV2' },
];

const typeParameter = { type: 'the content type key (contentTypeKey in the spec)' };
const itemParameters = { ...typeParameter, id: 'the content item id' };
const NO_TYPE = { 404: 'the content type does not exist' };
/** Content queries: also refused while the workspace runs too many costly reads at once. */
const QUERY_ERRORS = { ...NO_TYPE, 503: BUSY_WORKSPACE };
const NO_ITEM = { 404: 'the content type or the item does not exist', 410: 'the item was erased (personal-data content types)' };
const AS_OF_LIST =
  ' With `asOf` (an ISO 8601 date-time, in the query string) the answer the path gave at that time: the published versions ' +
  'served then (from the type\'s typed versions table), with the same filter, order, paging, totals, locale and relations ' +
  '(resolved as they were published then). Deleted and erased items are never listed, not even for times they were published. ' +
  '400 naming asOf for a time that is not ISO 8601, lies in the future, or names a type with versioningDisabled; ' +
  'preview paths take no asOf on lists. 503 with Retry-After while the read model is being built, and while the ' +
  'versions table of the type (or of a relation target\'s type) is (a new type before its first build, a retyped field).';

/** asOf on the list, ids and aggregate operations of the published paths. */
function listAsOf(family: Family, description: string) {
  if (family.stage !== 'published') return { description };
  return {
    description: `${description}${AS_OF_LIST}`,
    query: asOfQuery.partial(),
    parameters: { ...typeParameter, asOf: 'an ISO 8601 date-time: the answer this path gave then' },
    errors: { ...NO_TYPE, 503: `with asOf: the read model of published versions is being built (Retry-After); or ${BUSY_WORKSPACE}` },
  };
}

const RELEASE_PREVIEW_LIST =
  ' With `release` (an Open release\'s id, in the query string) the answer once that release is published, without publishing it: the items it ' +
  'publishes as it will publish them, those it unpublishes or deletes left out, the same filter, order, paging, totals and relations ' +
  '(docs/releases.md, "Preview"). Sent with Release-Preview and Cache-Control: no-store; not with asOf.';

/** `?release=` on the list, ids and aggregate operations of the V2 published paths. */
function withReleasePreview(operation: DocumentedOperation): DocumentedOperation {
  const ok = operation.responses[200]!;
  return {
    ...operation,
    description: `${operation.description ?? ''}${RELEASE_PREVIEW_LIST}`,
    query: previewableQuery,
    parameters: { ...operation.parameters, release: 'the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview")' },
    responses: { ...operation.responses, 200: { ...ok, headers: { ...ok.headers, 'Release-Preview': 'with release: the release previewed (sent with Cache-Control: no-store)' } } },
    errors: {
      ...operation.errors,
      404: 'the content type does not exist; with release: the workspace has no such release',
      409: 'with release: the release is not Open, or its publish would refuse an item of the type (the problem names each, up to 10)',
    },
  };
}

const GET_FORM =
  ' The GET form takes the same query in the query string, parsed by the same schema: each body member is a parameter of its name; filter and ' +
  'order are URL-encoded JSON, includeRelations comma-separated, numbers and text as they are. A parameter the body does not take is a 400 naming it; ' +
  `a query string over ${MAX_QUERY_STRING} characters is a 414 (send the POST form). Its answer carries a strong ETag (If-None-Match answers 304) ` +
  'and Cache-Control: private, no-cache.';

/**
 * The GET form of a POST query (src/http/query-body.ts): its body's members as query parameters.
 * An aggregate's ignored `type` member is left out of the document: beside the path's {type} it would only confuse.
 */
function getForm(post: DocumentedOperation, operationId: string, schema: z.ZodObject): DocumentedOperation {
  const { body: _body, query, ...shared } = post;
  return {
    ...shared,
    method: 'get',
    operationId,
    summary: `${post.summary} (query in the query string)`,
    description: `${post.description ?? ''}${GET_FORM}`,
    query: query ? queryParameters(schema).extend(query.shape) : queryParameters(schema),
    responses: Object.fromEntries(
      Object.entries(post.responses).map(([status, response]) => [status, { ...response, headers: { ...response.headers, ETag: 'a strong tag of the answer: send it as If-None-Match for a 304' } }]),
    ),
    errors: { ...post.errors, 414: `the query string is longer than ${MAX_QUERY_STRING} characters: send the POST form` },
  };
}

const exampleFilter = { type: 'and', conditions: [{ type: 'condition', fieldKey: 'title', operator: 'contains', value: 'launch', caseInsensitive: true }] };

function familyOperations(family: Family): DocumentedOperation[] {
  const { base, name } = family;
  const what = `${family.stage === 'draft' ? 'draft' : 'published'} ${family.model.toUpperCase()}`;
  const item = family.model === 'v1' ? contentItemV1 : contentItemV2;
  const common = { tag: TAG, access: 'ReadAccess' } as const;
  const operations: DocumentedOperation[] = [];
  /** The V2 published reads answer `?release=` (a release's preview). */
  const previews = family.model === 'v2' && family.stage === 'published';

  operations.push(
    {
      ...common,
      method: 'get',
      path: `${base}/{type}/{id}/history`,
      operationId: `get${name}History`,
      summary: `History of a content item: every event of its stream (${family.model.toUpperCase()} path)`,
      description: 'The same list on the published and the preview paths. A deleted item has none (404); an item created again under a deleted id lists only its new life.',
      parameters: itemParameters,
      responses: { 200: { description: 'oldest first', schema: historyEntries } },
      errors: { ...NO_ITEM, 503: BUSY_WORKSPACE },
    },
    ...contentVersionOperations(family, item),
  );
  if (family.stage === 'published') {
    operations.push({
      method: 'post',
      path: `${base}/{type}/{id}/erase`,
      operationId: `erase${name}`,
      tag: TAG,
      access: 'WriteAccess',
      summary: 'Erase a content item of a personal-data content type (crypto-shredding)',
      description:
        'Only for content types with personalData true, whose values are stored sealed under a key of the item\'s own. Shreds that key and records ' +
        'a ContentErased event with who, when and the reason (no values): the values can no longer be read from the API, the log, a rebuild or a ' +
        'new export. Later reads of the item (get, versions, encrypted fields) answer 410; its history keeps the metadata; lists leave it out; ' +
        'webhooks subscribed to Deleted are told. Also erases an item deleted before. Erasing again only shreds again. The reason is kept for ' +
        'audit: do not name the person in it.',
      parameters: itemParameters,
      body: { schema: named('EraseContentRequest', eraseBody), example: { reason: 'erasure request 2026-118 (GDPR art. 17)' } },
      responses: { 200: { description: 'erased', schema: successSchema } },
      errors: {
        400: 'no reason, or one over 500 characters',
        404: 'no such content type, or the item never existed in it',
        409: 'the content type is not a personal-data type: its values are stored in clear and cannot be erased',
      },
    });
  }

  operations.push({
    method: 'put',
    path: `${base}/{type}`,
    operationId: `save${name}`,
    tag: TAG,
    access: 'WriteAccess',
    summary: family.stage === 'draft' ? `Create or update a draft (${family.model.toUpperCase()})` : `Create or update and publish at once (${family.model.toUpperCase()})`,
    description:
      'No id (or null) creates the item with a generated id; an id updates it. The fields sent replace the whole field set: a field left out is ' +
      'dropped (PATCH on the V2 paths changes some fields only). Relation values name a content item of the workspace and Media values an asset of it, by id ' +
      '(a GUID); a target that does not exist is a 400 naming the field. Every bad field is listed in `errors`. clientInfo is kept in the history for audit.',
    parameters: typeParameter,
    body:
      family.model === 'v1'
        ? {
            schema: named('SaveContentV1Request', saveV1Body),
            example: { id: null, contentType: 'Article', fields: [{ key: 'title', type: 'Text', value: 'Launch day' }], clientInfo: 'editor' },
          }
        : {
            schema: named('SaveContentV2Request', saveV2Body),
            example: { fields: { title: 'Launch day', views: 3 }, translations: { title: { de: 'Starttag' } }, clientInfo: 'editor' },
          },
    responses: { 200: { description: `the saved ${what} item`, schema: item } },
    errors: { 400: 'invalid body, or fields that break the content type (each named)', 404: 'the content type does not exist', 410: NO_ITEM[410] },
  });

  if (family.model === 'v2') {
    operations.push({
      method: 'patch',
      path: `${base}/{type}/{id}`,
      operationId: `patch${name}`,
      tag: TAG,
      access: 'WriteAccess',
      summary:
        family.stage === 'draft' ? 'Change some fields of the draft (JSON Merge Patch)' : 'Change some fields of the published item and publish at once (JSON Merge Patch)',
      description:
        `A JSON Merge Patch (RFC 7396, Content-Type: ${MERGE_PATCH_TYPE}) of the item's ${family.stage === 'draft' ? 'draft' : 'published version'}: ` +
        'the members of `fields` and `translations` replace the item\'s, null removes one, objects (Json values, translations) merge and arrays replace. ' +
        `The result is validated like a PUT and saved like one on this path${family.stage === 'draft' ? '' : ' (the draft becomes the merged content and is published)'}, ` +
        'recorded as a ContentDraftSaved in the history. clientInfo is the audit note; id, when sent, must be the path\'s. Another Content-Type is a 415 with Accept-Patch.',
      parameters: itemParameters,
      body: { schema: named('ContentMergePatchV2Request', mergePatchV2Body), mediaType: MERGE_PATCH_TYPE, example: { fields: { views: 4, subtitle: null }, clientInfo: 'editor' } },
      responses: { 200: { description: `the saved ${what} item`, schema: item } },
      errors: { 400: 'invalid patch, or a merged item that breaks the content type (each field named)', 404: `the content type or the item does not exist, or it has no ${family.stage === 'draft' ? 'draft' : 'published version'}`, 410: NO_ITEM[410], 415: `the Content-Type is not ${MERGE_PATCH_TYPE}` },
    });
  }

  const change = (verb: 'publish' | 'unpublish', summary: string): DocumentedOperation => ({
    method: 'put',
    path: `${base}/{type}/{id}/${verb}`,
    operationId: `${verb}${name}`,
    tag: TAG,
    access: 'WriteAccess',
    summary,
    parameters: itemParameters,
    body: { schema: clientInfoRequest, example: { clientInfo: 'release 42' }, optional: true },
    responses: { 200: { description: 'done', schema: successSchema } },
    errors: NO_ITEM,
  });
  operations.push(
    family.stage === 'draft'
      ? change('publish', 'Publish the draft: it becomes the published content')
      : change('unpublish', 'Unpublish: the item leaves the published endpoints, its draft stays'),
    {
      method: 'delete',
      path: `${base}/{type}/{id}`,
      operationId: `delete${name}`,
      tag: TAG,
      access: 'WriteAccess',
      summary: family.stage === 'draft' ? 'Delete the draft permanently (with nothing published, the item ends)' : 'Delete the item: its published content and its draft',
      parameters: itemParameters,
      body: { schema: clientInfoRequest, example: { clientInfo: 'cleanup' }, optional: true },
      responses: { 200: { description: 'deleted', schema: successSchema } },
      errors: NO_ITEM,
    },
  );

  const ids: DocumentedOperation = {
    ...common,
    method: 'post',
    path: `${base}/{type}/ids`,
    operationId: `list${name}Ids`,
    summary: `Ids of the ${what} items matching a filter`,
    parameters: typeParameter,
    body: { schema: idsRequest, example: { filter: exampleFilter, page: 1, pageSize: 100 }, optional: true },
    responses: { 200: { description: 'a page of ids and the total', schema: contentIds } },
    errors: QUERY_ERRORS,
    ...listAsOf(family, FILTERS),
  };
  const aggregate: DocumentedOperation = {
    ...common,
    method: 'post',
    path: `${base}/{type}/aggregate`,
    operationId: `aggregate${name}`,
    summary: `Sum, Avg, Min, Max or Count of a field over the ${what} items matching a filter`,
    parameters: typeParameter,
    body: { schema: aggregateRequest, example: { fieldKey: 'price', aggregateType: 'Sum', filter: { type: 'condition', fieldKey: 'category', operator: 'e', value: 'books' } } },
    responses: { 200: { description: 'the aggregate', schema: aggregateResult } },
    errors: QUERY_ERRORS,
    ...listAsOf(family, `aggregateType is case-insensitive. ${FILTERS}`),
  };
  const aggregateGroup: DocumentedOperation = {
    ...common,
    method: 'post',
    path: `${base}/{type}/aggregategroup`,
    operationId: `aggregateGroups${name}`,
    summary: 'An aggregate per distinct value of another field',
    parameters: typeParameter,
    body: { schema: aggregateGroupRequest, example: { fieldKey: 'price', aggregateType: 'Avg', groupByFieldKey: 'category' } },
    responses: { 200: { description: 'one item per group value', schema: aggregateGroups } },
    errors: QUERY_ERRORS,
    ...listAsOf(family, FILTERS),
  };
  const queried = (operation: DocumentedOperation) => (previews ? withReleasePreview(operation) : operation);
  operations.push(
    queried(ids),
    getForm(queried(ids), `get${name}Ids`, idsPageBody),
    queried(aggregate),
    getForm(queried(aggregate), `get${name}Aggregate`, aggregateBody.omit({ type: true })),
    queried(aggregateGroup),
    getForm(queried(aggregateGroup), `get${name}AggregateGroups`, aggregateGroupBody.omit({ type: true })),
  );

  if (family.model === 'v2') {
    const search: DocumentedOperation = {
      ...common,
      method: 'post',
      path: `${base}/{type}`,
      operationId: `search${name}`,
      summary: `Search ${what} items: filter, order, page, translate, expand relations`,
      parameters: typeParameter,
      ...listAsOf(family, FILTERS),
      body: {
        schema: named('ContentSearchRequest', searchPageBody),
        example: {
          filter: { type: 'condition', fieldKey: 'category', operator: 'e', value: 'news' },
          order: { type: 'condition', fieldKey: 'publishedAt', sortDir: 'Desc' },
          page: 1,
          pageSize: 20,
          locale: 'de',
          includeRelations: ['author'],
        },
        optional: true,
      },
      responses: { 200: { description: 'a page of items', schema: contentPageV2 } },
      ...(family.stage === 'published' ? {} : { errors: QUERY_ERRORS }),
    };
    operations.push(queried(search), getForm(queried(search), `list${name}`, searchPageBody));
  }

  operations.push({
    ...common,
    method: 'get',
    path: `${base}/{type}/{id}`,
    operationId: `get${name}`,
    summary: `Get a ${what} item`,
    description: AS_OF,
    parameters: {
      ...itemParameters,
      asOf: 'an ISO 8601 date-time: the item as this path served it then',
      ...(family.model === 'v2' ? { meta: 'true: the item also answers its sys (created, updated, published, version, stage); not with asOf' } : {}),
      ...(previews ? { release: 'the id of an Open release of the workspace: the item as it will be published once that release is published, without publishing it (docs/releases.md, "Preview")' } : {}),
    },
    query: family.model === 'v1' ? asOfQuery.partial() : previews ? previewQuery : itemQuery,
    responses: {
      200: {
        description: 'the item',
        schema: item,
        headers: {
          'Content-Location': 'with asOf: the version answered (.../versions/{n})',
          ...(previews ? { 'Release-Preview': 'with release: the release previewed (the answer is not the published one, and is sent with Cache-Control: no-store)' } : {}),
        },
      },
    },
    errors: previews
      ? {
          404: 'the content type or the item does not exist (with asOf: did not exist, or was not published, at that time; with release: the workspace has no such release, or the item is not published once it is)',
          409: 'with release: the release is not Open, or its publish would refuse the item (the problem names it)',
        }
      : { 404: 'the content type or the item does not exist (with asOf: did not exist, or was not published, at that time)' },
  });

  if (family.model === 'v1') {
    operations.push({
      ...common,
      method: 'post',
      path: `${base}/{type}/{id}`,
      operationId: `view${name}`,
      summary: 'Get an item translated for a locale, with relations expanded inline',
      parameters: itemParameters,
      body: { schema: named('ContentViewRequest', viewBody), example: { locale: 'de-CH', includeRelations: ['author'] }, optional: true },
      responses: { 200: { description: 'the item', schema: item } },
      errors: NO_ITEM,
    });
  }
  return operations;
}

export const contentOperations: DocumentedOperation[] = FAMILIES.flatMap(familyOperations);
