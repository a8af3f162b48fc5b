import type { ContentTypeDefinition, FieldDefinition } from '../content-type/definition';
import { invalid } from '../errors';
import type { ContentBody } from './events';
import { ownValue } from '../own-value';

/**
 * Longest Text and RichText values accepted when saving (in characters). Text operators of
 * filters compare at every position of a value, so its length bounds what one row can cost
 * a query. Values stored before a limit was set still replay and read.
 */
export const MAX_TEXT_LENGTH: Readonly<Record<'Text' | 'RichText', number>> = { Text: 10_000, RichText: 100_000 };

export interface ContentInput {
  readonly fields: Record<string, unknown>;
  readonly translations?: Record<string, unknown>;
}

/**
 * Checks values against the content type and normalises them to their stored form:
 * numbers as JSON numbers, date-times as ISO 8601 UTC, relations as item ids. Unknown
 * fields, wrong types, missing required values, translations of fields that are not
 * translatable and unknown locales are refused, naming the field.
 *
 * @param locales lower-case code → the locale's stored code
 */
export function validateContent(input: ContentInput, type: ContentTypeDefinition, locales: ReadonlyMap<string, string>): ContentBody {
  const definitions = new Map(type.fields.map((field) => [field.key, field]));
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.fields)) {
    const definition = definitions.get(key);
    if (!definition) throw invalid(`${type.key} has no field ${key}`, `fields.${key}`);
    if (definition.type === 'Encrypted') throw invalid(`${key} is encrypted: write it with PUT /contents/${type.key}/encrypt`, `fields.${key}`);
    fields[key] = normaliseValue(value, definition, `fields.${key}`);
  }
  for (const definition of type.fields) {
    if (definition.required && isEmpty(ownValue(fields, definition.key))) throw invalid(`${definition.key} is required`, `fields.${definition.key}`);
  }
  return { fields, translations: validateTranslations(input.translations ?? {}, definitions, locales) };
}

function validateTranslations(
  input: Record<string, unknown>,
  definitions: ReadonlyMap<string, FieldDefinition>,
  locales: ReadonlyMap<string, string>,
): ContentBody['translations'] {
  const translations: ContentBody['translations'] = {};
  for (const [key, byLocale] of Object.entries(input)) {
    const definition = definitions.get(key);
    if (!definition) throw invalid(`no field ${key} to translate`, `translations.${key}`);
    if (!definition.translatable) throw invalid(`${key} is not translatable`, `translations.${key}`);
    if (typeof byLocale !== 'object' || byLocale === null || Array.isArray(byLocale)) {
      throw invalid('must be an object of locale code to value', `translations.${key}`);
    }
    const values: Record<string, unknown> = {};
    for (const [code, value] of Object.entries(byLocale)) {
      const locale = locales.get(code.toLowerCase());
      if (!locale) throw invalid(`unknown locale ${code}`, `translations.${key}.${code}`);
      values[locale] = normaliseValue(value, definition, `translations.${key}.${code}`);
    }
    translations[key] = values;
  }
  return translations;
}

function normaliseValue(value: unknown, definition: FieldDefinition, field: string): unknown {
  if (value === null || value === undefined) return null;
  switch (definition.type) {
    case 'Text':
    case 'RichText':
      if (typeof value !== 'string') throw invalid('must be a string', field);
      if (value.length > MAX_TEXT_LENGTH[definition.type]) throw invalid(`must be at most ${MAX_TEXT_LENGTH[definition.type]} characters`, field);
      return value;
    case 'Media':
      if (typeof value !== 'string') throw invalid('must be a string', field);
      return value;
    case 'Number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid('must be a number', field);
      return value;
    case 'Boolean':
      if (typeof value !== 'boolean') throw invalid('must be true or false', field);
      return value;
    case 'DateTime': {
      const instant = typeof value === 'string' ? new Date(value) : null;
      if (!instant || Number.isNaN(instant.getTime())) throw invalid('must be an ISO 8601 date-time', field);
      return instant.toISOString();
    }
    case 'Relation': {
      // A relation is stored as the target item's id; an expanded item object is accepted too.
      const id = typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : value;
      if (typeof id !== 'string' || id === '') throw invalid('must be a content item id', field);
      return id;
    }
    case 'Json':
      return value;
    case 'Encrypted':
      throw invalid('encrypted values are written with the encrypt endpoint', field);
  }
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}
