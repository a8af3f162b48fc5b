import type { FieldDefinition } from '../content-type/definition';
import { MAX_PATTERN_WORK_PER_SAVE, type PatternTests } from './pattern';

/** How many allowed values an enum problem lists before it says how many more there are. */
const LISTED_ENUM_VALUES = 10;

/**
 * What a value breaks of its field's rules (min, max, minLength, maxLength, pattern, enum), or
 * null. `value` is in its stored form and is a value: null and "" are no value, which only
 * `required` is about. Uniqueness is checked against the other items, by the content commands.
 */
export function ruleProblem(value: unknown, field: FieldDefinition, patterns: PatternTests): string | null {
  if (typeof value === 'string' && (field.type === 'Text' || field.type === 'RichText')) return textProblem(value, field, patterns);
  if (typeof value === 'number' && field.type === 'Number') return rangeProblem(value, field.min, field.max) ?? enumProblem(value, field.enum);
  // Stored instants compare as text (ISO 8601 UTC with milliseconds), and so do the bounds, stored alike.
  if (typeof value === 'string' && field.type === 'DateTime') return rangeProblem(value, field.min, field.max);
  return null;
}

function textProblem(value: string, field: FieldDefinition, patterns: PatternTests): string | null {
  if (field.minLength !== undefined && value.length < field.minLength) return `must be at least ${field.minLength} characters`;
  if (field.maxLength !== undefined && value.length > field.maxLength) return `must be at most ${field.maxLength} characters`;
  if (field.pattern !== undefined) {
    const matched = patterns.test(field.pattern, value);
    if (matched === 'over budget') return `cannot be checked against its pattern: the pattern checks of one save may take at most ${MAX_PATTERN_WORK_PER_SAVE.toLocaleString('en-US')} steps (value length × pattern size); save fewer or shorter values at once`;
    if (!matched) return `must match the pattern ${field.pattern}`;
  }
  return enumProblem(value, field.enum);
}

function rangeProblem<T extends number | string>(value: T, min: unknown, max: unknown): string | null {
  if (typeof min === typeof value && value < (min as T)) return `must be at least ${String(min)}`;
  if (typeof max === typeof value && value > (max as T)) return `must be at most ${String(max)}`;
  return null;
}

function enumProblem(value: string | number, allowed: readonly (string | number)[] | undefined): string | null {
  if (allowed === undefined || allowed.includes(value)) return null;
  const listed = allowed.slice(0, LISTED_ENUM_VALUES).map((entry) => JSON.stringify(entry)).join(', ');
  const more = allowed.length > LISTED_ENUM_VALUES ? ` and ${allowed.length - LISTED_ENUM_VALUES} more` : '';
  return `must be one of ${listed}${more}`;
}
