import type { z } from 'zod';

/**
 * Zod's issues as the end of a sentence that starts with the field's name and says what to
 * send ("pageSize must be at most 500", "limit is not accepted here: ..."). Messages a schema
 * gives itself win over these; issues without a sentence here keep zod's text.
 */
export const inputSentence: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.expected === 'int' && typeof issue.input === 'number') return 'must be a whole number';
      return `must be ${EXPECTED[issue.expected] ?? `of type ${issue.expected}`}, not ${kindOf(issue.input)}`;
    case 'too_small':
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case 'too_big':
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case 'invalid_value': {
      const allowed = issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
      return issue.input === undefined ? `is required: send ${allowed}` : `must be ${allowed}`;
    }
    case 'invalid_format':
      return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
      return 'matches none of the forms this field takes';
    case 'unrecognized_keys': {
      const members = membersOf(issue.inst);
      MEMBERS_BESIDE.set(issue.keys, members);
      return `is not accepted here: ${takes(members)}`;
    }
    default:
      return undefined;
  }
};

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text (a JSON string)',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'a JSON object',
  record: 'a JSON object',
  null: 'null',
};

const FORMATS: Readonly<Record<string, string>> = {
  datetime: 'an ISO 8601 date-time with an offset, e.g. 2026-11-24T09:00:00Z',
  date: 'an ISO 8601 date, e.g. 2026-11-24',
  email: 'an e-mail address',
  url: 'an absolute URL',
  uuid: 'a GUID',
  guid: 'a GUID',
};

/** What a value is, never the value itself: answers do not echo input. */
function kindOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'string') return 'text';
  if (typeof input === 'number') return 'a number';
  if (typeof input === 'boolean') return 'true or false';
  return typeof input === 'object' ? 'an object' : typeof input;
}

function tooSmall(origin: string, minimum: number, inclusive: boolean): string | undefined {
  if (origin === 'string') return minimum === 1 ? 'must not be empty' : `must be at least ${minimum} characters long`;
  if (origin === 'array') return `must hold at least ${minimum} ${minimum === 1 ? 'item' : 'items'}`;
  if (origin === 'number' || origin === 'int') return inclusive ? `must be at least ${minimum}` : `must be greater than ${minimum}`;
  return undefined;
}

function tooBig(origin: string, maximum: number, inclusive: boolean): string | undefined {
  if (origin === 'string') return `must be at most ${maximum} characters long`;
  if (origin === 'array') return `must hold at most ${maximum} items`;
  if (origin === 'number' || origin === 'int') return inclusive ? `must be at most ${maximum}` : `must be less than ${maximum}`;
  return undefined;
}

/** The members an object schema takes, in its order. */
function membersOf(schema: unknown): string[] {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

/** Names clients bring from other APIs, and the member of ours that does the same. */
const SYNONYMS: Readonly<Record<string, string>> = {
  limit: 'pageSize',
  take: 'pageSize',
  size: 'pageSize',
  perPage: 'pageSize',
  skip: 'page',
  offset: 'page',
  sort: 'order',
  orderBy: 'order',
  where: 'filter',
  filters: 'filter',
  lang: 'locale',
  language: 'locale',
  include: 'includeRelations',
  expand: 'includeRelations',
};

const takes = (members: readonly string[]) => (members.length === 0 ? 'this request takes none' : `send only ${members.join(', ')}`);

/** The members an unrecognized_keys issue's object takes, by the issue's `keys` array (the finished issue keeps the same array). */
const MEMBERS_BESIDE = new WeakMap<readonly string[], readonly string[]>();

/** One sentence per unknown member, with the member it probably meant; `fallback` when the members are not known. */
export function unknownMemberSentence(issue: { readonly keys: readonly string[] }, key: string, fallback: string): string {
  const members = MEMBERS_BESIDE.get(issue.keys);
  if (!members) return fallback;
  const meant = members.find((member) => member.toLowerCase() === key.toLowerCase() || member === SYNONYMS[key]);
  return meant ? `is not accepted here: did you mean ${meant}? (${takes(members)})` : `is not accepted here: ${takes(members)}`;
}
