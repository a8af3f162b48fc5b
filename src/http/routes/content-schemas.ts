import { z } from 'zod';
import { AGGREGATE_TYPES } from '../../../queries/content';

/**
 * Request bodies of the content endpoints; filters and orders are checked by the query
 * translator. Schemas are built once: zod compiles an object schema on its first parse.
 * Every body is closed: a member it does not take is refused, naming it (`{"limit": 5}` is
 * not quietly a page of 20).
 */
const pageBody = (maxPageSize: number, defaultPageSize: number) =>
  z.strictObject({
    filter: z.unknown().optional(),
    order: z.unknown().optional(),
    page: z.number().int().min(1, 'pages start at 1').default(1),
    pageSize: z.number().int().min(1).max(maxPageSize, `must be at most ${maxPageSize}`).default(defaultPageSize),
    locale: z.string().max(50).nullish(),
    includeRelations: z.array(z.string()).max(50).nullish(),
  });

/** `meta`: each V2 item also answers its `sys` (docs/api.md, "Item metadata"). */
const meta = z.boolean().optional();

export const idsPageBody = pageBody(5000, 100);
export const searchPageBody = pageBody(500, 20).extend({ meta });


export const viewBody = z.strictObject({
  locale: z.string().max(50).nullish(),
  includeRelations: z.array(z.string()).max(50).nullish(),
});

const aggregateType = z
  .string({ error: 'is required' })
  .transform((value) => Object.keys(AGGREGATE_TYPES).find((name) => name.toLowerCase() === value.toLowerCase()))
  .pipe(z.enum(Object.keys(AGGREGATE_TYPES) as [keyof typeof AGGREGATE_TYPES], { error: 'must be Sum, Avg, Min, Max or Count' }));

export const aggregateBody = z.strictObject({
  fieldKey: z.string({ error: 'is required' }).min(1),
  aggregateType,
  filter: z.unknown().optional(),
  type: z.string().max(50).optional().describe('ignored: the spec\'s examples carry "type": "condition" beside the other members'),
});

export const aggregateGroupBody = aggregateBody.extend({ groupByFieldKey: z.string({ error: 'is required' }).min(1) });

const itemId = z.string().max(100).nullish();
const clientInfo = z.string().max(2000).nullish();

/** What a read answers beside the item's content: accepted and ignored, so that an item read can be sent back. */
const readOnly = (what: string) => z.string().max(100).nullish().describe(`ignored: ${what}, as a read answers it`);

export const saveV1Body = z.strictObject({
  id: itemId,
  contentType: z.string({ error: 'is required' }).min(1),
  fields: z.array(z.strictObject({ key: z.string({ error: 'is required' }).min(1), type: z.string().optional(), value: z.unknown() }), { error: 'is required' }),
  clientInfo,
  createdAt: readOnly('when the item was created'),
  updatedAt: readOnly('when it was last saved'),
});

export const saveV2Body = z.strictObject({
  id: itemId,
  fields: z.record(z.string(), z.unknown(), { error: 'is required' }),
  translations: z.record(z.string(), z.unknown()).optional(),
  clientInfo,
});

/**
 * A JSON Merge Patch (RFC 7396) of a V2 item: `fields` and `translations` merge into the item's
 * (null removes a member); `clientInfo` is the audit note, not merged; `id`, when sent, must be the path's.
 */
export const mergePatchV2Body = z.strictObject({
  id: itemId,
  fields: z.record(z.string(), z.unknown(), { error: 'must be an object of field key to value, or null' }).nullish(),
  translations: z.record(z.string(), z.unknown(), { error: 'must be an object of field key to translations, or null' }).nullish(),
  clientInfo,
});

export const clientInfoBody = z.strictObject({ clientInfo }).default({ clientInfo: null });

export const encryptBody = z.strictObject({
  id: z.string({ error: 'is required' }).min(1),
  encryptFields: z.record(z.string(), z.string(), { error: 'is required' }),
  clientInfo,
});

export const checkBody = encryptBody.pick({ id: true, encryptFields: true });

export const decryptBody = z.strictObject({
  id: z.string({ error: 'is required' }).min(1),
  encryptFieldKeys: z.array(z.string(), { error: 'is required' }).min(1),
  totpCode: z.string({ error: 'is required' }),
});
