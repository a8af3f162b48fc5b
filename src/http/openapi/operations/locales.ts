import { z } from 'zod';
import { saveLocaleBody } from '../../routes/locales';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { successSchema } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.locales.name;

const localeSchema = named(
  'Locale',
  z.object({ code: z.string(), name: z.string(), fallbackCode: z.string().nullable(), default: z.boolean() }),
);

export const localeOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: '/locales',
    operationId: 'listLocales',
    tag: TAG,
    summary: 'List locales',
    access: 'ReadAccess',
    responses: { 200: { description: 'by code', schema: named('LocaleList', z.array(localeSchema)) } },
  },
  {
    method: 'put',
    path: '/locales',
    operationId: 'saveLocale',
    tag: TAG,
    summary: 'Create or update a locale (matched by code)',
    description: 'default true makes it the workspace default; the first locale becomes the default by itself.',
    access: 'WriteAccess',
    body: { schema: named('SaveLocaleRequest', saveLocaleBody), example: { code: 'de-CH', name: 'German (Switzerland)', fallbackCode: 'de', default: false } },
    responses: { 200: { description: 'the saved locale', schema: localeSchema } },
    errors: { 400: 'code missing or invalid, or fallbackCode names no locale', 404: 'the workspace does not exist' },
  },
  {
    method: 'delete',
    path: '/locales/{code}',
    operationId: 'deleteLocale',
    tag: TAG,
    summary: 'Delete a locale',
    access: 'WriteAccess',
    parameters: { code: 'the culture code' },
    responses: { 200: { description: 'deleted', schema: successSchema } },
    errors: { 400: 'the locale is the default or another locale falls back to it', 404: 'the locale or the workspace does not exist' },
  },
];
