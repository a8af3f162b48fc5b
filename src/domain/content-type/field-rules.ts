import type { FieldProblem } from '../errors';
import { readInstant } from '../content/instant';
import { compilePattern, longestValueFor, PatternTests } from '../content/pattern';
import { checkFieldValue, MAX_TEXT_LENGTH } from '../content/values';
import type { FieldDefinition, FieldType } from './definition';

/** The field types each rule applies to. */
export const RULE_FIELD_TYPES = {
  unique: ['Text', 'Number', 'DateTime', 'Relation', 'Media'],
  default: ['Text', 'RichText', 'Number', 'Boolean', 'DateTime', 'Json'],
  min: ['Number', 'DateTime'],
  max: ['Number', 'DateTime'],
  minLength: ['Text', 'RichText'],
  maxLength: ['Text', 'RichText'],
  pattern: ['Text'],
  enum: ['Text', 'Number'],
} as const satisfies Record<string, readonly FieldType[]>;
type Rule = keyof typeof RULE_FIELD_TYPES;
const RULES = Object.keys(RULE_FIELD_TYPES) as Rule[];

/** Allowed values of one enum: each is compared with every saved value. */
export const MAX_ENUM_VALUES = 100;
/** Longest Text value of an enum. */
export const MAX_ENUM_TEXT = 200;
/** Longest Json default, as JSON text: it is copied into every item created without the field. */
export const MAX_JSON_DEFAULT = 10_000;

/**
 * What is wrong with a field's rules as a client saves them, by member (`min`, `enum.2`): a rule
 * its type does not take, a bound of the wrong kind or out of range, bounds that cross, a pattern
 * RE2 does not read or that costs too much, a default that its own field would refuse.
 */
export function fieldRuleProblems(field: FieldDefinition): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (member: string, message: string) => problems.push({ field: member, message });
  for (const rule of RULES) {
    const allowed: readonly FieldType[] = RULE_FIELD_TYPES[rule];
    if (field[rule] !== undefined && !allowed.includes(field.type)) problem(rule, `is not a rule of ${field.type} fields (it applies to ${allowed.join(', ')})`);
  }
  if (problems.length > 0) return problems;
  for (const bound of ['min', 'max'] as const) {
    const value = field[bound];
    if (value === undefined) continue;
    if (field.type === 'Number' && (typeof value !== 'number' || !Number.isFinite(value))) problem(bound, 'must be a number');
    if (field.type === 'DateTime' && (typeof value !== 'string' || !('instant' in readInstant(value)))) problem(bound, 'must be an ISO 8601 date-time between the years 0000 and 9999');
  }
  const { min, max } = normalizedRules(field);
  if (problems.length === 0 && min !== undefined && max !== undefined && min > max) problem('max', `must not be below min (${String(min)})`);
  for (const bound of ['minLength', 'maxLength'] as const) {
    const value = field[bound];
    const limit = field.type === 'Text' || field.type === 'RichText' ? MAX_TEXT_LENGTH[field.type] : 0;
    if (value !== undefined && (value < 0 || value > limit)) problem(bound, `must be between 0 and ${limit}`);
  }
  if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) problem('maxLength', `must not be below minLength (${field.minLength})`);
  if (field.pattern !== undefined) problems.push(...patternProblems(field, field.pattern));
  if (field.enum !== undefined) problems.push(...enumProblems(field, field.enum));
  if (problems.length === 0 && field.default !== undefined) problems.push(...defaultProblems(field));
  return problems;
}

/** The field with its DateTime bounds and its default in their stored form (what saves compare with and copy). */
export function normalizedRules(field: FieldDefinition): FieldDefinition {
  if (field.type !== 'DateTime') return field;
  const instant = (value: unknown) => {
    const reading = typeof value === 'string' ? readInstant(value) : null;
    return reading && 'instant' in reading ? reading.instant : value;
  };
  return {
    ...field,
    ...(field.min !== undefined ? { min: instant(field.min) as string } : {}),
    ...(field.max !== undefined ? { max: instant(field.max) as string } : {}),
    ...(field.default !== undefined ? { default: instant(field.default) as FieldDefinition['default'] } : {}),
  };
}

function patternProblems(field: FieldDefinition, pattern: string): FieldProblem[] {
  const compiled = compilePattern(pattern);
  if ('problem' in compiled) return [{ field: 'pattern', message: compiled.problem }];
  const longest = longestValueFor(compiled.compiled);
  const maxLength = field.maxLength ?? MAX_TEXT_LENGTH.Text;
  if (maxLength <= longest) return [];
  return [{ field: 'maxLength', message: `must be at most ${longest} with this pattern (its RE2 program has ${compiled.compiled.programSize()} instructions): set maxLength, or simplify the pattern` }];
}

function enumProblems(field: FieldDefinition, allowed: readonly (string | number)[]): FieldProblem[] {
  if (allowed.length === 0 || allowed.length > MAX_ENUM_VALUES) return [{ field: 'enum', message: `must list 1 to ${MAX_ENUM_VALUES} values` }];
  const problems: FieldProblem[] = [];
  const seen = new Set<string | number>();
  allowed.forEach((value, index) => {
    if (field.type === 'Number' && typeof value !== 'number') problems.push({ field: `enum.${index}`, message: 'must be a number' });
    if (field.type === 'Text' && (typeof value !== 'string' || value.length > MAX_ENUM_TEXT)) problems.push({ field: `enum.${index}`, message: `must be a string of at most ${MAX_ENUM_TEXT} characters` });
    if (seen.has(value)) problems.push({ field: `enum.${index}`, message: `is listed twice: ${JSON.stringify(value)}` });
    seen.add(value);
  });
  return problems;
}

function defaultProblems(field: FieldDefinition): FieldProblem[] {
  if (field.type === 'Json' && JSON.stringify(field.default).length > MAX_JSON_DEFAULT) return [{ field: 'default', message: `must be at most ${MAX_JSON_DEFAULT} characters as JSON` }];
  const checked = checkFieldValue(field.default, normalizedRules(field), new PatternTests());
  return 'problem' in checked ? [{ field: 'default', message: checked.problem }] : [];
}
