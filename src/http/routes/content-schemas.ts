import { z } from 'zod';
import { AGGREGATE_TYPES } from '../../../queries/content';

/**
 * Request bodies of the content endpoints; filters and orders are checked by the query
 * translator. Schemas are built once: zod compiles an object schema on its first parse.
 */
const pageBody = (maxPageSize: number, defaultPageSize: number) =>
  z.object({
    filter: z.unknown().optional(),
    order: z.unknown().optional(),
    page: z.number().int().min(1, 'pages start at 1').default(1),
    pageSize: z.number().int().min(1).max(maxPageSize, `must be at most ${maxPageSize}`).default(defaultPageSize),
    locale: z.string().max(50).nullish(),
    includeRelations: z.array(z.string()).max(50).nullish(),
  });

export const idsPageBody = pageBody(5000, 100);
export const searchPageBody = pageBody(500, 20);

export const viewBody = z.object({
  locale: z.string().max(50).nullish(),
  includeRelations: z.array(z.string()).max(50).nullish(),
});

const aggregateType = z
  .string({ error: 'is required' })
  .transform((value) => Object.keys(AGGREGATE_TYPES).find((name) => name.toLowerCase() === value.toLowerCase()))
  .pipe(z.enum(Object.keys(AGGREGATE_TYPES) as [keyof typeof AGGREGATE_TYPES], { error: 'must be Sum, Avg, Min, Max or Count' }));

export const aggregateBody = z.object({
  fieldKey: z.string({ error: 'is required' }).min(1),
  aggregateType,
  filter: z.unknown().optional(),
});

export const aggregateGroupBody = aggregateBody.extend({ groupByFieldKey: z.string({ error: 'is required' }).min(1) });

const itemId = z.string().max(100).nullish();
const clientInfo = z.string().max(2000).nullish();

export const saveV1Body = z.object({
  id: itemId,
  contentType: z.string({ error: 'is required' }).min(1),
  fields: z.array(z.object({ key: z.string({ error: 'is required' }).min(1), type: z.string().optional(), value: z.unknown() }), { error: 'is required' }),
  clientInfo,
});

export const saveV2Body = z.object({
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

export const clientInfoBody = z.object({ clientInfo }).default({ clientInfo: null });

export const encryptBody = z.object({
  id: z.string({ error: 'is required' }).min(1),
  encryptFields: z.record(z.string(), z.string(), { error: 'is required' }),
  clientInfo,
});

export const checkBody = encryptBody.pick({ id: true, encryptFields: true });

export const decryptBody = z.object({
  id: z.string({ error: 'is required' }).min(1),
  encryptFieldKeys: z.array(z.string(), { error: 'is required' }).min(1),
  totpCode: z.string({ error: 'is required' }),
});
