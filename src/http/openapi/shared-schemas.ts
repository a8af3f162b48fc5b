import { z } from 'zod';
import { stringMap } from '../../domain/app/events';
import { named } from './schema-registry';

/** The errors of src/http/problem.ts: RFC 9457 problem+json; extension members may appear beside these. */
export const problemSchema = named(
  'Problem',
  z.object({
    type: z.string().describe('a URI naming the kind of problem'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().describe('what went wrong, for people'),
    errors: z
      .array(z.object({ field: z.string().describe('dotted path of the offending input, e.g. fields.0.key, or body / query / path'), message: z.string() }))
      .optional()
      .describe('present on validation failures: one entry per offending field'),
  }),
);

export const successSchema = named('Success', z.object({ success: z.boolean() }));

export const stringMapSchema = named('StringMap', stringMap);

export const dateTime = z.string().describe('ISO 8601, UTC');

export const workspaceInfoSchema = named(
  'WorkspaceInfo',
  z.object({
    id: z.string(),
    name: z.string(),
    ownerUserId: z.string().nullable(),
    planType: z.string().nullable(),
    planRecords: z.number().int().nullable(),
    activationDate: dateTime,
    expirationDate: dateTime.nullable(),
  }),
);

export const workspaceInfoListSchema = named('WorkspaceInfoList', z.array(workspaceInfoSchema));
