import { z } from 'zod';

/** Inputs of the history endpoints: versions, as-of reads, restore, diff. */

const version = z.coerce.number({ error: 'must be a version number' }).int('must be a whole version number').min(1, 'versions start at 1').max(Number.MAX_SAFE_INTEGER);

export const asOfQuery = z.strictObject({
  asOf: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2026-11-24T09:00:00Z' }).transform((value) => new Date(value)),
});

/** The query string of an item read or a content query: asOf or nothing. */
export const optionalAsOfQuery = asOfQuery.partial();

export const diffQuery = z.strictObject({ from: version, to: version });

export const restoreBody = z
  .strictObject({
    reason: z.string().trim().max(2000).nullish(),
    clientInfo: z.string().max(2000).nullish(),
  })
  .default({});
