import { z } from 'zod';

export const localeRecord = z.object({
  code: z.string(),
  name: z.string(),
  fallbackCode: z.string().nullable(),
});
export type LocaleRecord = z.infer<typeof localeRecord>;

export const localeAdded = z.object({
  type: z.literal('LocaleAdded'),
  data: z.object({ workspaceId: z.string(), locale: localeRecord }),
});
export const localeUpdated = z.object({
  type: z.literal('LocaleUpdated'),
  data: z.object({ workspaceId: z.string(), locale: localeRecord }),
});
export const defaultLocaleChanged = z.object({
  type: z.literal('DefaultLocaleChanged'),
  data: z.object({ workspaceId: z.string(), code: z.string(), previousCode: z.string().nullable() }),
});
export const localeDeleted = z.object({
  type: z.literal('LocaleDeleted'),
  data: z.object({ workspaceId: z.string(), code: z.string() }),
});

export const localeEvent = z.discriminatedUnion('type', [localeAdded, localeUpdated, defaultLocaleChanged, localeDeleted]);
export type LocaleEvent = z.infer<typeof localeEvent>;

/**
 * All locales of a workspace form one aggregate: the single default, fallback targets
 * that must exist, acyclic fallback chains and code uniqueness are rules over the whole
 * set, so they are decided on one stream under optimistic concurrency.
 */
export const localesStream = (workspaceId: string) => `locales-${workspaceId}`;

/** Culture codes compare case-insensitively (en-US and en-us are the same locale). */
export const localeKey = (code: string) => code.toLowerCase();
