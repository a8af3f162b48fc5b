import type { FieldDefinition } from '../content-type/definition';
import { ownValue } from '../own-value';
import type { PatternCase } from './pattern';
import { MAX_TEXT_LENGTH } from './values';

/**
 * The values of `content` that a save (or a check of stored items) tests against a pattern:
 * fields, then their translations. Values their type or a length rule refuses first are left
 * out, as the check never tests them.
 */
export function patternCases(content: { readonly fields: Record<string, unknown>; readonly translations?: Record<string, unknown> }, fields: readonly FieldDefinition[]): PatternCase[] {
  const cases: PatternCase[] = [];
  const withPattern = fields.filter((field) => field.pattern !== undefined && (field.type === 'Text' || field.type === 'RichText'));
  const add = (field: FieldDefinition, value: unknown) => {
    if (typeof value !== 'string' || value === '' || value.length > MAX_TEXT_LENGTH[field.type as 'Text' | 'RichText']) return;
    if ((field.minLength !== undefined && value.length < field.minLength) || (field.maxLength !== undefined && value.length > field.maxLength)) return;
    cases.push({ pattern: field.pattern!, value });
  };
  for (const field of withPattern) add(field, ownValue(content.fields, field.key));
  for (const field of withPattern) {
    const translated = ownValue(content.translations ?? {}, field.key);
    if (translated !== null && typeof translated === 'object') for (const value of Object.values(translated)) add(field, value);
  }
  return cases;
}
