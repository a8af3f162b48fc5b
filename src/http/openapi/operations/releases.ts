import { z } from 'zod';
import { RELEASE_ACTIONS, RELEASE_STATUSES } from '../../../domain/release/events';
import { createReleaseBody, itemScheduleBody, MAX_RELEASE_ENTRIES_PAGE_SIZE, MAX_RELEASE_HISTORY_PAGE_SIZE, releaseDetailQuery, releaseHistoryQuery, releaseItemBody, releaseItemsBody, releaseListQuery, revertReleaseBody, scheduleReleaseBody } from '../../routes/releases';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.releases.name;
const BUILDING = { 503: 'the releases read model is being built from the log (an upgraded store): retry after Retry-After' };
const NO_RELEASE = { 404: 'the release does not exist', ...BUILDING };
const idParameter = { id: 'the release id' };
const itemParameters = { ...idParameter, itemId: 'the content item id' };

const summary = {
  id: z.string(),
  name: z.string(),
  status: z.enum(RELEASE_STATUSES),
  createdAtUtc: dateTime,
  updatedAtUtc: dateTime,
  publishAtUtc: dateTime.nullable().describe('Open: when it publishes itself, or null'),
  publishedAtUtc: dateTime.nullable(),
  problems: z.array(z.string()).describe('Failed: why its scheduled publish was refused (nothing was published)'),
  revertedAtUtc: dateTime.nullable(),
  revertReason: z.string().nullable(),
};

const patchOperation = z.object({ op: z.enum(['add', 'replace', 'remove']), path: z.string(), value: z.unknown().optional() });

const releaseEntry = named(
  'ReleaseEntry',
  z.object({
    itemId: z.string(),
    contentType: z.string(),
    action: z.enum(RELEASE_ACTIONS),
    version: z.number().int().describe("the item's version when added, or the pinned version"),
    pinned: z.boolean().describe('publishes the draft of `version` even if the item changed since; unpinned entries are refused when it changed'),
    problem: z.string().nullable().optional().describe('Open releases: why the entry could not be published now, or null'),
    diff: z
      .array(patchOperation)
      .nullable()
      .optional()
      .describe('Open releases: RFC 6902 operations from the published content now to what the release publishes (null when it has a problem or `diffLeftOut`)'),
    diffLeftOut: z.string().optional().describe("why this answer left out the entry's diff (its diff budget was spent, or a pinned draft lies far back in the item's history); getReleaseEntry answers it"),
  }),
);

const release = named(
  'Release',
  z.object({
    ...summary,
    itemCount: z.number().int().describe('how many entries the release holds'),
    page: z.number().int().describe('the page of entries in `items`'),
    pageSize: z.number().int(),
    hasMore: z.boolean().describe('more entries follow this page'),
    items: z.array(releaseEntry).describe('one page of entries, in the order first added'),
  }),
);
const releasePage = named(
  'ReleasePage',
  z.object({ items: z.array(z.object({ ...summary, itemCount: z.number().int() })), page: z.number().int(), pageSize: z.number().int(), hasMore: z.boolean() }),
);
const validation = named('ReleaseValidation', z.object({ valid: z.boolean(), problems: z.array(z.object({ itemId: z.string(), problem: z.string() })) }));

const APPLY_CONFLICT = 'the release is not Open (Published for a revert), or an entry cannot be applied: `errors` names each item (`items.<itemId>`); nothing is written';

export const releaseOperations: DocumentedOperation[] = [
  {
    method: 'post',
    path: '/v2/releases',
    operationId: 'createRelease',
    tag: TAG,
    summary: 'Create an empty release',
    access: 'WriteAccess',
    body: { schema: named('CreateReleaseRequest', createReleaseBody), example: { name: 'spring campaign' } },
    responses: { 201: { description: 'the release, Open', schema: release } },
    errors: BUILDING,
  },
  {
    method: 'get',
    path: '/v2/releases',
    operationId: 'listReleases',
    tag: TAG,
    summary: 'List releases, newest first',
    access: 'ReadAccess',
    query: releaseListQuery,
    parameters: { page: '1-based', pageSize: 'at most 100' },
    responses: { 200: { description: 'a page of releases', schema: releasePage } },
    errors: BUILDING,
  },
  {
    method: 'post',
    path: '/v2/releases/item-schedules',
    operationId: 'scheduleItem',
    tag: TAG,
    summary: 'Schedule the publish and/or unpublish of one item',
    description: 'Each time is a release of that one entry, scheduled (listed, cancellable, Failed with its problems like any). The publish is pinned to the item\'s version now: what was scheduled goes live, later edits stay drafts.',
    access: 'WriteAccess',
    body: { schema: named('ItemScheduleRequest', itemScheduleBody), example: { itemId: '3f1c2a8e-4b5d-4e6f-8a9b-0c1d2e3f4a5b', contentType: 'Product', publishAt: '2026-03-01T09:00:00Z', unpublishAt: '2026-03-31T23:59:59Z' } },
    responses: { 201: { description: 'the releases made, publish first', schema: named('ItemSchedule', z.object({ releases: z.array(release) })) } },
    errors: { 404: 'the item does not exist in the content type', ...BUILDING },
  },
  {
    method: 'get',
    path: '/v2/releases/{id}',
    operationId: 'getRelease',
    tag: TAG,
    summary: "Get a release with a page of its entries, each with its diff against the published content",
    description:
      "Entries come a page at a time (100 unless asked, at most 200). Their diffs are worked out from the read models, and one answer compares at most 400,000 characters of content: past that an entry has `diffLeftOut` instead of a diff, and getReleaseEntry answers it alone. Write answers (add, remove, publish, ...) hold the first page.",
    access: 'ReadAccess',
    query: releaseDetailQuery,
    parameters: { ...idParameter, page: '1-based page of entries', pageSize: `at most ${MAX_RELEASE_ENTRIES_PAGE_SIZE}` },
    responses: { 200: { description: 'the release', schema: release } },
    errors: NO_RELEASE,
  },
  {
    method: 'get',
    path: '/v2/releases/{id}/history',
    operationId: 'getReleaseHistory',
    tag: TAG,
    summary: 'List who created the release, added, changed and removed each item, scheduled, published, cancelled or reverted it, and when',
    description: "The release's own events in order, a page at a time (50 unless asked, at most 200). Each item's own history shows the release that published it (`releaseId`).",
    access: 'ReadAccess',
    query: releaseHistoryQuery,
    parameters: { ...idParameter, page: '1-based page of events', pageSize: `at most ${MAX_RELEASE_HISTORY_PAGE_SIZE}` },
    responses: {
      200: {
        description: 'a page of the release history',
        schema: named(
          'ReleaseHistory',
          z.object({
            page: z.number().int(),
            pageSize: z.number().int(),
            hasMore: z.boolean(),
            items: z.array(
              z.object({
                revision: z.number().int().describe('1 for the creation, then one per event'),
                type: z.enum(['ReleaseCreated', 'ReleaseItemSet', 'ReleaseItemRemoved', 'ReleaseScheduled', 'ReleasePublished', 'ReleaseFailed', 'ReleaseCancelled', 'ReleaseReverted']),
                at: dateTime,
                actorKind: z.enum(['apiKey', 'app', 'admin', 'system', 'sharedAccessKey', 'other']),
                actorId: z.string(),
                actorName: z.string().nullable(),
                requestId: z.string().nullable(),
                serverRequestId: z.string().nullable(),
                change: z.record(z.string(), z.unknown()).describe('what the event recorded: the entry (itemId, contentType, action, version, pinned), publishAt, problems, items, reason'),
              }),
            ),
          }),
        ),
      },
    },
    errors: NO_RELEASE,
  },
  {
    method: 'get',
    path: '/v2/releases/{id}/items/{itemId}',
    operationId: 'getReleaseEntry',
    tag: TAG,
    summary: "Get one entry of a release, with its whole diff",
    access: 'ReadAccess',
    parameters: itemParameters,
    responses: { 200: { description: 'the entry; while the release is Open, with its problem or diff', schema: releaseEntry } },
    errors: { 404: 'the release does not exist or does not hold the item', ...BUILDING },
  },
  {
    method: 'put',
    path: '/v2/releases/{id}/items/{itemId}',
    operationId: 'setReleaseItem',
    tag: TAG,
    summary: 'Add an item to a release, or replace its entry',
    access: 'WriteAccess',
    parameters: itemParameters,
    body: { schema: named('ReleaseItemRequest', releaseItemBody), example: { contentType: 'Product', action: 'publish' } },
    responses: { 200: { description: 'the release', schema: release } },
    errors: { ...NO_RELEASE, 409: 'the release is not Open', 413: 'the release would hold more than 1,000 items' },
  },
  {
    method: 'post',
    path: '/v2/releases/{id}/items',
    operationId: 'setReleaseItems',
    tag: TAG,
    summary: 'Add up to 1,000 items to a release at once',
    access: 'WriteAccess',
    parameters: idParameter,
    body: { schema: named('ReleaseItemsRequest', releaseItemsBody), example: { items: [{ itemId: '3f1c2a8e-4b5d-4e6f-8a9b-0c1d2e3f4a5b', contentType: 'Product', action: 'publish', version: 4 }] } },
    responses: { 200: { description: 'the release', schema: release } },
    errors: { ...NO_RELEASE, 409: 'the release is not Open', 413: 'the release would hold more than 1,000 items' },
  },
  {
    method: 'delete',
    path: '/v2/releases/{id}/items/{itemId}',
    operationId: 'removeReleaseItem',
    tag: TAG,
    summary: 'Remove an item from a release',
    access: 'WriteAccess',
    parameters: itemParameters,
    responses: { 200: { description: 'the release', schema: release } },
    errors: { 404: 'the release does not exist or does not hold the item', 409: 'the release is not Open' },
  },
  {
    method: 'post',
    path: '/v2/releases/{id}/validate',
    operationId: 'validateRelease',
    tag: TAG,
    summary: 'Check every entry against its item as it is now, without publishing',
    access: 'ReadAccess',
    parameters: idParameter,
    responses: { 200: { description: 'the problems, one per item that could not be published now', schema: validation } },
    errors: NO_RELEASE,
  },
  {
    method: 'post',
    path: '/v2/releases/{id}/publish',
    operationId: 'publishRelease',
    tag: TAG,
    summary: 'Publish every entry now, as one append (all or nothing)',
    access: 'WriteAccess',
    parameters: idParameter,
    responses: { 200: { description: 'the release, Published', schema: release } },
    errors: { ...NO_RELEASE, 409: APPLY_CONFLICT },
  },
  {
    method: 'put',
    path: '/v2/releases/{id}/schedule',
    operationId: 'scheduleRelease',
    tag: TAG,
    summary: 'Set when an Open release publishes itself, or clear it',
    description: 'At its time the release is published as by publishRelease; if an entry cannot be published then, nothing is and the release ends Failed with its problems (in the audit feed). See docs/releases.md.',
    access: 'WriteAccess',
    parameters: idParameter,
    body: { schema: named('ScheduleReleaseRequest', scheduleReleaseBody), example: { publishAt: '2026-03-01T09:00:00.000Z' } },
    responses: { 200: { description: 'the release', schema: release } },
    errors: { ...NO_RELEASE, 409: 'the release is not Open' },
  },
  {
    method: 'post',
    path: '/v2/releases/{id}/cancel',
    operationId: 'cancelRelease',
    tag: TAG,
    summary: 'Cancel an Open release',
    access: 'WriteAccess',
    parameters: idParameter,
    responses: { 200: { description: 'the release, Cancelled', schema: release } },
    errors: { ...NO_RELEASE, 409: 'the release is not Open' },
  },
  {
    method: 'post',
    path: '/v2/releases/{id}/revert',
    operationId: 'revertRelease',
    tag: TAG,
    summary: "Put back each item's published state from before a published release, as one append",
    access: 'WriteAccess',
    parameters: idParameter,
    body: { schema: named('RevertReleaseRequest', revertReleaseBody), example: { reason: 'wrong prices' } },
    responses: { 200: { description: 'the release, Reverted', schema: release } },
    errors: { ...NO_RELEASE, 409: APPLY_CONFLICT },
  },
];
