import type { ContentTypeDefinition, FieldDefinition } from '../content-type/definition';
import type { FieldProblem } from '../errors';
import type { ContentBody } from './events';
import { INSTANT_RANGE, readInstant } from './instant';
import { ownValue } from '../own-value';
import { PatternTests } from './pattern';
import { ruleProblem } from './value-rules';

/**
 * Longest Text and RichText values accepted when saving (in characters). Text operators of
 * filters compare at every position of a value, so its length bounds what one row can cost
 * a query. Values stored before a limit was set still replay and read.
 */
export const MAX_TEXT_LENGTH: Readonly<Record<'Text' | 'RichText', number>> = { Text: 10_000, RichText: 100_000 };
/** Item ids a References value holds at most: each is checked to exist on save and may be expanded on read. */
export const MAX_REFERENCES = 100;

export interface ContentInput {
  readonly fields: Record<string, unknown>;
  readonly translations?: Record<string, unknown>;
}

/** A Relation or Media value whose target must exist in the workspace (checked against the read side). */
export interface Reference {
  /** The input path of the value: `fields.maker`, `translations.cover.fr`. */
  readonly field: string;
  readonly target: 'item' | 'asset';
  readonly id: string;
  /** For an item: the content type the field restricts its relation to, or null for any. */
  readonly contentType: string | null;
}

export interface CheckedContent {
  /** The values in their stored form; meaningful only when `problems` is empty. */
  readonly content: ContentBody;
  /** Every bad field of the input, in input order. */
  readonly problems: readonly FieldProblem[];
  /** Every Relation and Media value, for the existence check. */
  readonly references: readonly Reference[];
}

/**
 * The ids the service generates (content items) and accepts for assets: GUIDs. Relation and
 * Media values must have this shape, so a typo or a URL is refused before any lookup.
 */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks values against the content type and normalises them to their stored form:
 * numbers as JSON numbers, date-times as ISO 8601 UTC, relations as item ids. Unknown
 * fields, wrong types, missing required values, translations of fields that are not
 * translatable and unknown locales are problems naming the field; all of them are
 * collected, so one answer lists every bad field.
 *
 * A field left out of the input of a new item (`create`) takes its `default`, which was checked
 * when the type was saved. `patterns` may know the answers of the pattern tests already.
 *
 * @param locales lower-case code → the locale's stored code
 */
export function checkContent(input: ContentInput, type: ContentTypeDefinition, locales: ReadonlyMap<string, string>, create = false, patterns = new PatternTests()): CheckedContent {
  const check = new Check(patterns);
  const definitions = new Map(type.fields.map((field) => [field.key, field]));
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.fields)) {
    const path = `fields.${key}`;
    const definition = definitions.get(key);
    if (!definition) check.problem(path, `${type.key} has no field ${key}`);
    else if (definition.type === 'Encrypted') check.problem(path, `${key} is encrypted: write it with PUT /contents/${type.key}/encrypt`);
    else {
      const normalised = check.value(value, definition, path);
      if (normalised !== INVALID) fields[key] = normalised;
    }
  }
  for (const definition of type.fields) {
    const path = `fields.${definition.key}`;
    if (create && definition.default !== undefined && !Object.hasOwn(input.fields, definition.key)) fields[definition.key] = definition.default;
    if (definition.required && isEmpty(ownValue(fields, definition.key)) && !check.hasProblem(path)) check.problem(path, `${definition.key} is required`);
  }
  const translations = checkTranslations(input.translations ?? {}, definitions, locales, check);
  return { content: { fields, translations }, problems: check.problems, references: check.references };
}

/**
 * The problems of references whose target is missing: a Relation must name a content item of
 * the workspace (of the field's `relationContentType` when it has one), a Media an asset of it.
 *
 * @param items the referenced item ids that exist → their content type
 * @param assets the referenced asset ids that exist
 */
export function missingTargets(references: readonly Reference[], items: ReadonlyMap<string, string>, assets: ReadonlySet<string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const reference of references) {
    if (reference.target === 'asset') {
      if (!assets.has(reference.id)) problems.push({ field: reference.field, message: `names no asset of this workspace: ${reference.id}` });
      continue;
    }
    const contentType = items.get(reference.id);
    if (contentType === undefined) problems.push({ field: reference.field, message: `names no content item of this workspace: ${reference.id}` });
    else if (reference.contentType !== null && contentType !== reference.contentType) {
      problems.push({ field: reference.field, message: `must name a ${reference.contentType} item; ${reference.id} is a ${contentType}` });
    }
  }
  return problems;
}

function checkTranslations(
  input: Record<string, unknown>,
  definitions: ReadonlyMap<string, FieldDefinition>,
  locales: ReadonlyMap<string, string>,
  check: Check,
): ContentBody['translations'] {
  const translations: ContentBody['translations'] = {};
  for (const [key, byLocale] of Object.entries(input)) {
    const path = `translations.${key}`;
    const definition = definitions.get(key);
    if (!definition) check.problem(path, `no field ${key} to translate`);
    else if (!definition.translatable) check.problem(path, `${key} is not translatable`);
    else if (typeof byLocale !== 'object' || byLocale === null || Array.isArray(byLocale)) check.problem(path, 'must be an object of locale code to value');
    else {
      const values: Record<string, unknown> = {};
      for (const [code, value] of Object.entries(byLocale)) {
        const locale = locales.get(code.toLowerCase());
        if (!locale) check.problem(`${path}.${code}`, `unknown locale ${code}`);
        else {
          const normalised = check.value(value, definition, `${path}.${code}`);
          if (normalised !== INVALID) values[locale] = normalised;
        }
      }
      translations[key] = values;
    }
  }
  return translations;
}

/** What `Check.value` answers for a value it reported as a problem. */
const INVALID = Symbol('invalid');

/** Collects the problems and references of one content input while its values are normalised. */
class Check {
  readonly problems: FieldProblem[] = [];
  readonly references: Reference[] = [];
  constructor(private readonly patterns: PatternTests) {}

  problem(field: string, message: string): void {
    this.problems.push({ field, message });
  }

  hasProblem(field: string): boolean {
    return this.problems.some((problem) => problem.field === field);
  }

  /** The value in its stored form, or INVALID after reporting why. */
  value(value: unknown, definition: FieldDefinition, field: string): unknown {
    const checked = checkFieldValue(value, definition, this.patterns);
    if ('problem' in checked) {
      this.problem(field, checked.problem);
      return INVALID;
    }
    if (checked.value !== null && (definition.type === 'Relation' || definition.type === 'Media')) {
      this.references.push({ field, target: definition.type === 'Media' ? 'asset' : 'item', id: checked.value as string, contentType: definition.type === 'Relation' ? definition.relationContentType : null });
    }
    if (checked.value !== null && definition.type === 'References') {
      (checked.value as string[]).forEach((id, index) => this.references.push({ field: `${field}.${index}`, target: 'item', id, contentType: definition.relationContentType }));
    }
    return checked.value;
  }
}

/**
 * One value of a field in its stored form (null for no value), or what is wrong with it: its
 * type, then its field's rules. Whether a Relation or Media target exists is left to the caller.
 */
export function checkFieldValue(value: unknown, definition: FieldDefinition, patterns: PatternTests): Reading {
  const read = readValue(value, definition);
  if ('problem' in read) return read;
  const problem = isEmpty(read.value) ? null : ruleProblem(read.value, definition, patterns);
  return problem === null ? read : { problem };
}

type Reading = { readonly value: unknown } | { readonly problem: string };

/** The value in its stored form, or why its type refuses it. */
function readValue(value: unknown, definition: FieldDefinition): Reading {
  if (value === null || value === undefined) return { value: null };
  const fail = (problem: string): Reading => ({ problem });
  const ok = (stored: unknown): Reading => ({ value: stored });
  switch (definition.type) {
    case 'Text':
    case 'RichText':
      if (typeof value !== 'string') return fail('must be a string');
      return value.length <= MAX_TEXT_LENGTH[definition.type] ? ok(value) : fail(`must be at most ${MAX_TEXT_LENGTH[definition.type]} characters`);
    case 'Number':
      return typeof value === 'number' && Number.isFinite(value) ? ok(value) : fail('must be a number');
    case 'Boolean':
      return typeof value === 'boolean' ? ok(value) : fail('must be true or false');
    case 'DateTime': {
      const reading = typeof value === 'string' ? readInstant(value) : ({ problem: 'unreadable' } as const);
      if ('instant' in reading) return ok(reading.instant);
      return fail(reading.problem === 'unreadable' ? 'must be an ISO 8601 date-time' : INSTANT_RANGE);
    }
    case 'Relation': {
      // A relation is stored as the target item's id; an expanded item object is accepted too.
      const id = typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : value;
      return typeof id === 'string' && GUID.test(id) ? ok(id) : fail('must be a content item id (a GUID)');
    }
    case 'References':
      return readReferences(value);
    case 'Media':
      return typeof value === 'string' && GUID.test(value) ? ok(value) : fail('must be an asset id (a GUID)');
    case 'Json':
      return ok(value);
    case 'Encrypted':
      return fail('encrypted values are written with the encrypt endpoint');
  }
}

/** An ordered list of distinct item ids (expanded item objects accepted), stored as the ids; an empty list is no value. */
function readReferences(value: unknown): Reading {
  if (!Array.isArray(value)) return { problem: 'must be an array of content item ids (GUIDs)' };
  if (value.length > MAX_REFERENCES) return { problem: `must hold at most ${MAX_REFERENCES} item ids` };
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const [index, element] of value.entries()) {
    const id: unknown = typeof element === 'object' && element !== null && !Array.isArray(element) ? (element as { id?: unknown }).id : element;
    if (typeof id !== 'string' || !GUID.test(id)) return { problem: `item ${index} must be a content item id (a GUID)` };
    if (seen.has(id.toLowerCase())) return { problem: `item ${index} repeats ${id}: each item is referenced once` };
    seen.add(id.toLowerCase());
    ids.push(id);
  }
  return { value: ids.length > 0 ? ids : null };
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}
