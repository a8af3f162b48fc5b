import type { FieldType } from '../../src/domain/content-type/definition';
import { DomainError } from '../../src/domain/errors';
import {
  ContentQueryError,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_FILTER_TEXT_LENGTH,
  MAX_LIST_VALUES,
  MAX_SORT_KEYS,
  translateContentFilter,
  translateContentOrder,
  type FieldTypes,
} from '../../queries/content-filter';

const types: FieldTypes = new Map<string, FieldType>([
  ['title', 'Text'],
  ['body', 'RichText'],
  ['price', 'Number'],
  ['active', 'Boolean'],
  ['releasedAt', 'DateTime'],
  ['author', 'Relation'],
  ['cover', 'Media'],
  ['meta', 'Json'],
  ['secret', 'Encrypted'],
]);

const filter = (input: unknown) => translateContentFilter(input, types);
const order = (input: unknown) => translateContentOrder(input, types);

/** A client leaf condition. */
const leaf = (fieldKey: string, operator: string, value?: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'condition',
  fieldKey,
  operator,
  ...(value === undefined ? {} : { value }),
  ...extra,
});

/** The neutral condition expected for a leaf. */
const condition = (field: string, operator: string, value?: unknown) => ({
  type: 'condition',
  field,
  operator,
  ...(value === undefined ? {} : { value }),
});

/** The ContentQueryError thrown by `run`, as { field, message }. */
function errorOf(run: () => unknown): { field: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ContentQueryError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('expected a ContentQueryError, but nothing was thrown');
}

const nestedAnd = (levels: number, innermost: unknown): unknown => (levels === 0 ? innermost : { type: 'and', conditions: [nestedAnd(levels - 1, innermost)] });

describe('translateContentFilter', () => {
  describe('no filter', () => {
    it.each([[undefined], [null], [{}]])('%j means no filter', (input) => {
      expect(filter(input)).toBeUndefined();
    });
  });

  describe('operators', () => {
    it.each([
      ['e', 10],
      ['ne', 10],
      ['gt', 10],
      ['gte', 10],
      ['lt', 10],
      ['lte', 10],
    ])('%s compares one converted value', (operator, value) => {
      expect(filter(leaf('price', operator, String(value)))).toStrictEqual(condition('fields.price', operator, value));
    });

    it.each([['in'], ['nin']])('%s takes an array and converts every element', (operator) => {
      expect(filter(leaf('price', operator, [1, '2', '3.5']))).toStrictEqual(condition('fields.price', operator, [1, 2, 3.5]));
    });

    it('in and nin accept null elements (null or missing) and an empty list', () => {
      expect(filter(leaf('author', 'in', ['a', null]))).toStrictEqual(condition('fields.author', 'in', ['a', null]));
      expect(filter(leaf('author', 'nin', []))).toStrictEqual(condition('fields.author', 'nin', []));
    });

    it.each([['start'], ['end'], ['contains']])('%s applies to text fields', (operator) => {
      expect(filter(leaf('title', operator, 'Hello'))).toStrictEqual(condition('fields.title', operator, 'Hello'));
      expect(filter(leaf('body', operator, 'Hello'))).toStrictEqual(condition('fields.body', operator, 'Hello'));
    });

    it.each([['noe'], ['nnoe']])('%s needs no value and ignores one given', (operator) => {
      expect(filter(leaf('price', operator))).toStrictEqual(condition('fields.price', operator));
      expect(filter(leaf('price', operator, 'whatever'))).toStrictEqual(condition('fields.price', operator));
      expect(filter(leaf('meta', operator, null))).toStrictEqual(condition('fields.meta', operator));
    });

    it('noe and nnoe work on every filterable type, Json included', () => {
      for (const fieldKey of ['title', 'price', 'active', 'releasedAt', 'author', 'cover', 'meta']) {
        expect(filter(leaf(fieldKey, 'noe'))).toStrictEqual(condition(`fields.${fieldKey}`, 'noe'));
      }
    });

    it('reads operator names case-insensitively', () => {
      expect(filter(leaf('price', 'E', 1))).toStrictEqual(condition('fields.price', 'e', 1));
      expect(filter(leaf('price', 'NIN', [1]))).toStrictEqual(condition('fields.price', 'nin', [1]));
      expect(filter(leaf('title', 'Contains', 'x'))).toStrictEqual(condition('fields.title', 'contains', 'x'));
      expect(filter(leaf('title', 'nNoE'))).toStrictEqual(condition('fields.title', 'nnoe'));
    });

    it('reads the leaf type case-insensitively', () => {
      expect(filter({ ...leaf('price', 'e', 1), type: 'CONDITION' })).toStrictEqual(condition('fields.price', 'e', 1));
    });

    it('e and ne accept null, meaning null or missing', () => {
      expect(filter(leaf('releasedAt', 'e', null))).toStrictEqual(condition('fields.releasedAt', 'e', null));
      expect(filter(leaf('price', 'ne', null))).toStrictEqual(condition('fields.price', 'ne', null));
    });
  });

  describe('caseInsensitive', () => {
    it('is kept on text operators when true and dropped when false or null', () => {
      expect(filter(leaf('title', 'start', 'he', { caseInsensitive: true }))).toStrictEqual({ ...condition('fields.title', 'start', 'he'), caseInsensitive: true });
      expect(filter(leaf('title', 'end', 'he', { caseInsensitive: false }))).toStrictEqual(condition('fields.title', 'end', 'he'));
      expect(filter(leaf('title', 'contains', 'he', { caseInsensitive: null }))).toStrictEqual(condition('fields.title', 'contains', 'he'));
    });

    it('false is accepted on any operator', () => {
      expect(filter(leaf('price', 'e', 1, { caseInsensitive: false }))).toStrictEqual(condition('fields.price', 'e', 1));
    });

    it('true on a non-text operator is refused', () => {
      expect(errorOf(() => filter(leaf('title', 'e', 'x', { caseInsensitive: true })))).toEqual({
        field: 'filter.caseInsensitive',
        message: 'applies only to start, end, contains',
      });
    });

    it('must be a boolean', () => {
      expect(errorOf(() => filter(leaf('title', 'start', 'x', { caseInsensitive: 'yes' })))).toEqual({ field: 'filter.caseInsensitive', message: 'must be a boolean' });
    });
  });

  describe('groups', () => {
    it('translates and and or, in any case', () => {
      expect(filter({ type: 'And', conditions: [leaf('price', 'gt', 1), leaf('active', 'e', true)] })).toStrictEqual({
        type: 'and',
        conditions: [condition('fields.price', 'gt', 1), condition('fields.active', 'e', true)],
      });
      expect(filter({ type: 'OR', conditions: [leaf('title', 'e', 'a')] })).toStrictEqual({ type: 'or', conditions: [condition('fields.title', 'e', 'a')] });
    });

    it('translates not with condition or with conditions holding one filter', () => {
      const expected = { type: 'not', condition: condition('fields.price', 'e', 1) };
      expect(filter({ type: 'not', condition: leaf('price', 'e', 1) })).toStrictEqual(expected);
      expect(filter({ type: 'NOT', conditions: [leaf('price', 'e', 1)] })).toStrictEqual(expected);
    });

    it('translates nested groups', () => {
      const input = {
        type: 'and',
        conditions: [
          leaf('active', 'e', 'true'),
          { type: 'or', conditions: [leaf('price', 'lt', '5'), { type: 'not', condition: leaf('title', 'start', 'Draft', { caseInsensitive: true }) }] },
        ],
      };
      expect(filter(input)).toStrictEqual({
        type: 'and',
        conditions: [
          condition('fields.active', 'e', true),
          {
            type: 'or',
            conditions: [condition('fields.price', 'lt', 5), { type: 'not', condition: { ...condition('fields.title', 'start', 'Draft'), caseInsensitive: true } }],
          },
        ],
      });
    });

    it('refuses an empty, missing or non-array conditions', () => {
      expect(errorOf(() => filter({ type: 'and', conditions: [] }))).toEqual({ field: 'filter.conditions', message: 'must not be empty' });
      expect(errorOf(() => filter({ type: 'or' }))).toEqual({ field: 'filter.conditions', message: 'is required' });
      expect(errorOf(() => filter({ type: 'or', conditions: leaf('price', 'e', 1) }))).toEqual({ field: 'filter.conditions', message: 'must be an array of filters' });
    });

    it('refuses a not with no operand, two operands, or both forms', () => {
      expect(errorOf(() => filter({ type: 'not' }))).toEqual({ field: 'filter.condition', message: 'is required' });
      expect(errorOf(() => filter({ type: 'not', conditions: [] }))).toEqual({ field: 'filter.conditions', message: 'must not be empty' });
      expect(errorOf(() => filter({ type: 'not', conditions: [leaf('price', 'e', 1), leaf('price', 'e', 2)] }))).toEqual({
        field: 'filter.conditions',
        message: 'must hold exactly one filter for not',
      });
      expect(errorOf(() => filter({ type: 'not', condition: leaf('price', 'e', 1), conditions: [leaf('price', 'e', 1)] }))).toEqual({
        field: 'filter',
        message: 'not takes either condition or conditions, not both',
      });
    });

    it('names the path of an error inside nested groups', () => {
      const input = { type: 'and', conditions: [leaf('price', 'e', 1), { type: 'not', condition: { type: 'or', conditions: [leaf('title', 'e', 'a'), leaf('price', 'e', 'x')] } }] };
      expect(errorOf(() => filter(input))).toEqual({ field: 'filter.conditions.1.condition.conditions.1.value', message: 'must be a number' });
      const viaList = { type: 'not', conditions: [leaf('nope', 'e', 1)] };
      expect(errorOf(() => filter(viaList)).field).toBe('filter.conditions.0.fieldKey');
    });
  });

  describe('system fields', () => {
    it('maps id to itemId, as a string that text operators accept', () => {
      expect(filter(leaf('id', 'e', 'item-1'))).toStrictEqual(condition('itemId', 'e', 'item-1'));
      expect(filter(leaf('id', 'in', ['a', 42]))).toStrictEqual(condition('itemId', 'in', ['a', '42']));
      expect(filter(leaf('id', 'start', 'abc', { caseInsensitive: true }))).toStrictEqual({ ...condition('itemId', 'start', 'abc'), caseInsensitive: true });
    });

    it.each([['createdAt'], ['updatedAt'], ['publishedAt']])('maps %s to the top-level date-time, normalised', (fieldKey) => {
      expect(filter(leaf(fieldKey, 'gte', '2026-01-02'))).toStrictEqual(condition(fieldKey, 'gte', '2026-01-02T00:00:00.000Z'));
      expect(errorOf(() => filter(leaf(fieldKey, 'lt', 'yesterday')))).toEqual({ field: 'filter.value', message: 'must be a valid date-time' });
    });

    it('publishedAt e null finds items never published', () => {
      expect(filter(leaf('publishedAt', 'e', null))).toStrictEqual(condition('publishedAt', 'e', null));
    });

    it('refuses text operators on date system fields', () => {
      expect(errorOf(() => filter(leaf('createdAt', 'start', '2026')))).toEqual({
        field: 'filter.operator',
        message: 'operator start applies only to Text and RichText fields and id',
      });
    });

    it('takes precedence over a content field of the same key', () => {
      const shadowed: FieldTypes = new Map<string, FieldType>([['id', 'Number']]);
      expect(translateContentFilter(leaf('id', 'e', 5), shadowed)).toStrictEqual(condition('itemId', 'e', '5'));
    });
  });

  describe('value conversion', () => {
    it.each([
      [10, 10],
      ['10', 10],
      [' 2.5 ', 2.5],
      ['-1e3', -1000],
      ['.5', 0.5],
      [0, 0],
    ])('Number field: %j becomes %j', (value, expected) => {
      expect(filter(leaf('price', 'e', value))).toStrictEqual(condition('fields.price', 'e', expected));
    });

    it.each([['abc'], [''], ['  '], ['0x10'], ['Infinity'], ['1e999'], ['10abc'], [true], [{}], [[1]]])('Number field refuses %j', (value) => {
      expect(errorOf(() => filter(leaf('price', 'e', value)))).toEqual({ field: 'filter.value', message: 'must be a number' });
    });

    it.each([
      ['2026-01-02', '2026-01-02T00:00:00.000Z'],
      ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.000Z'],
      ['2026-01-02T03:04:05.123Z', '2026-01-02T03:04:05.123Z'],
      ['2026-01-02T03:04:05+02:00', '2026-01-02T01:04:05.000Z'],
      ['2026-01-02T03:04', '2026-01-02T03:04:00.000Z'],
      ['2026-01-02T03:04:05.5', '2026-01-02T03:04:05.500Z'],
      ['Fri, 02 Jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
    ])('DateTime field: %j becomes %j', (value, expected) => {
      expect(filter(leaf('releasedAt', 'lt', value))).toStrictEqual(condition('fields.releasedAt', 'lt', expected));
    });

    it.each([
      ['not a date', 'must be a valid date-time'],
      ['', 'must be a valid date-time'],
      ['2026-13-45', 'must be a valid date-time'],
      ['+010000-01-01T00:00:00Z', 'must be a date-time between the years 0000 and 9999'],
      [1767323045000, 'must be a date-time string'],
      [true, 'must be a date-time string'],
    ])('DateTime field refuses %j', (value, message) => {
      expect(errorOf(() => filter(leaf('releasedAt', 'e', value)))).toEqual({ field: 'filter.value', message });
    });

    it.each([
      [true, true],
      [false, false],
      ['true', true],
      ['false', false],
      ['TRUE', true],
      [' False ', false],
    ])('Boolean field: %j becomes %j', (value, expected) => {
      expect(filter(leaf('active', 'e', value))).toStrictEqual(condition('fields.active', 'e', expected));
    });

    it.each([['yes'], ['1'], [1], [0], ['']])('Boolean field refuses %j', (value) => {
      expect(errorOf(() => filter(leaf('active', 'e', value)))).toEqual({ field: 'filter.value', message: 'must be true or false' });
    });

    it.each([
      ['title', 'fields.title'],
      ['body', 'fields.body'],
      ['author', 'fields.author'],
      ['cover', 'fields.cover'],
    ])('%s: strings stay as given, numbers become strings', (fieldKey, path) => {
      expect(filter(leaf(fieldKey, 'e', ' As Is '))).toStrictEqual(condition(path, 'e', ' As Is '));
      expect(filter(leaf(fieldKey, 'e', 42))).toStrictEqual(condition(path, 'e', '42'));
      expect(filter(leaf(fieldKey, 'e', 1.5))).toStrictEqual(condition(path, 'e', '1.5'));
    });

    it.each([[true], [{}], [['a']]])('string fields refuse %j', (value) => {
      expect(errorOf(() => filter(leaf('title', 'e', value)))).toEqual({ field: 'filter.value', message: 'must be a string' });
    });

    it('Json field compares a scalar as given', () => {
      expect(filter(leaf('meta', 'e', '10'))).toStrictEqual(condition('fields.meta', 'e', '10'));
      expect(filter(leaf('meta', 'gt', 10))).toStrictEqual(condition('fields.meta', 'gt', 10));
      expect(filter(leaf('meta', 'e', false))).toStrictEqual(condition('fields.meta', 'e', false));
      expect(filter(leaf('meta', 'in', [1, 'a', true, null]))).toStrictEqual(condition('fields.meta', 'in', [1, 'a', true, null]));
    });

    it('Json field refuses objects and arrays as values', () => {
      expect(errorOf(() => filter(leaf('meta', 'e', { a: 1 })))).toEqual({ field: 'filter.value', message: 'must be a string, number, boolean or null' });
      expect(errorOf(() => filter(leaf('meta', 'in', [[1]])))).toEqual({ field: 'filter.value.0', message: 'must be a string, number, boolean or null' });
    });

    it('converts every element of in and nin to the field type', () => {
      expect(filter(leaf('releasedAt', 'in', ['2026-01-02', null]))).toStrictEqual(condition('fields.releasedAt', 'in', ['2026-01-02T00:00:00.000Z', null]));
      expect(filter(leaf('active', 'nin', ['true', false]))).toStrictEqual(condition('fields.active', 'nin', [true, false]));
      expect(filter(leaf('title', 'in', [1, 'b']))).toStrictEqual(condition('fields.title', 'in', ['1', 'b']));
    });

    it('text operators convert numbers to strings', () => {
      expect(filter(leaf('title', 'contains', 2026))).toStrictEqual(condition('fields.title', 'contains', '2026'));
    });
  });

  describe('value errors', () => {
    it.each([['e'], ['ne'], ['gt'], ['lte']])('%s needs a value', (operator) => {
      expect(errorOf(() => filter(leaf('price', operator)))).toEqual({ field: 'filter.value', message: 'is required' });
    });

    it.each([['gt'], ['gte'], ['lt'], ['lte']])('%s refuses null', (operator) => {
      expect(errorOf(() => filter(leaf('price', operator, null)))).toEqual({ field: 'filter.value', message: 'must not be null' });
    });

    it.each([['in'], ['nin']])('%s needs an array', (operator) => {
      expect(errorOf(() => filter(leaf('price', operator, 1)))).toEqual({ field: 'filter.value', message: 'must be an array' });
      expect(errorOf(() => filter(leaf('price', operator)))).toEqual({ field: 'filter.value', message: 'is required' });
      expect(errorOf(() => filter(leaf('price', operator, null)))).toEqual({ field: 'filter.value', message: 'is required' });
    });

    it('names the offending element of a list', () => {
      expect(errorOf(() => filter({ type: 'and', conditions: [leaf('price', 'in', [1, 'two', 3])] }))).toEqual({
        field: 'filter.conditions.0.value.1',
        message: 'must be a number',
      });
    });

    it(`refuses a list longer than ${MAX_LIST_VALUES} values`, () => {
      const values = Array.from({ length: MAX_LIST_VALUES }, (_, index) => index);
      expect(filter(leaf('price', 'in', values))).toStrictEqual(condition('fields.price', 'in', values));
      expect(errorOf(() => filter(leaf('price', 'in', [...values, 0])))).toEqual({ field: 'filter.value', message: `must hold at most ${MAX_LIST_VALUES} values` });
    });

    it(`bounds the values of start, end and contains to ${MAX_FILTER_TEXT_LENGTH} characters together, naming the value that crosses`, () => {
      const full = 'a'.repeat(MAX_FILTER_TEXT_LENGTH);
      expect(filter(leaf('title', 'contains', full))).toStrictEqual(condition('fields.title', 'contains', full));
      expect(errorOf(() => filter(leaf('title', 'contains', `${full}b`)))).toEqual({
        field: 'filter.value',
        message: `the values of start, end, contains in one filter may hold at most ${MAX_FILTER_TEXT_LENGTH} characters together`,
      });
      const half = 'a'.repeat(MAX_FILTER_TEXT_LENGTH / 2);
      const shared = { type: 'or', conditions: [leaf('title', 'start', half), leaf('title', 'e', full), leaf('title', 'end', half)] };
      expect(filter(shared)).toMatchObject({ type: 'or' });
      expect(errorOf(() => filter({ ...shared, conditions: [...shared.conditions, leaf('id', 'contains', 'x')] }))).toMatchObject({ field: 'filter.conditions.3.value' });
    });

    it.each([['start'], ['end'], ['contains']])('%s needs a non-null string value', (operator) => {
      expect(errorOf(() => filter(leaf('title', operator)))).toEqual({ field: 'filter.value', message: 'is required' });
      expect(errorOf(() => filter(leaf('title', operator, null)))).toEqual({ field: 'filter.value', message: 'is required' });
      expect(errorOf(() => filter(leaf('title', operator, false)))).toEqual({ field: 'filter.value', message: 'must be a string' });
    });

    it.each([['price'], ['active'], ['releasedAt'], ['author'], ['cover'], ['meta']])('text operators refuse the non-text field %s', (fieldKey) => {
      expect(errorOf(() => filter({ type: 'or', conditions: [leaf('title', 'e', 'a'), leaf(fieldKey, 'contains', 'x')] }))).toEqual({
        field: 'filter.conditions.1.operator',
        message: 'operator contains applies only to Text and RichText fields and id',
      });
    });
  });

  describe('field and shape errors', () => {
    it('names an unknown field key', () => {
      const error = errorOf(() => filter({ type: 'and', conditions: [leaf('price', 'e', 1), leaf('colour', 'e', 'red')] }));
      expect(error).toEqual({ field: 'filter.conditions.1.fieldKey', message: 'unknown field "colour"' });
    });

    it('looks keys up as field keys only, never as object properties', () => {
      expect(errorOf(() => filter(leaf('constructor', 'e', 1)))).toEqual({ field: 'filter.fieldKey', message: 'unknown field "constructor"' });
      expect(errorOf(() => filter(leaf('fields.price', 'e', 1)))).toEqual({ field: 'filter.fieldKey', message: 'unknown field "fields.price"' });
    });

    it('matches field keys and system fields case-sensitively', () => {
      expect(errorOf(() => filter(leaf('Price', 'e', 1))).message).toBe('unknown field "Price"');
      expect(errorOf(() => filter(leaf('ID', 'e', 1))).message).toBe('unknown field "ID"');
    });

    it('cuts a long unknown key short in the message', () => {
      const message = errorOf(() => filter(leaf('x'.repeat(5000), 'e', 1))).message;
      expect(message).toBe(`unknown field "${'x'.repeat(100)}…"`);
    });

    it('refuses to filter an Encrypted field', () => {
      expect(errorOf(() => filter(leaf('secret', 'e', 'x')))).toEqual({ field: 'filter.fieldKey', message: 'field "secret" of type Encrypted cannot be filtered' });
      expect(errorOf(() => filter(leaf('secret', 'noe')))).toEqual({ field: 'filter.fieldKey', message: 'field "secret" of type Encrypted cannot be filtered' });
    });

    it.each([
      [{ type: 'condition', operator: 'e', value: 1 }, 'filter.fieldKey', 'is required'],
      [leaf('', 'e', 1), 'filter.fieldKey', 'is required'],
      [{ ...leaf('price', 'e', 1), fieldKey: 7 }, 'filter.fieldKey', 'must be a string'],
      [{ type: 'condition', fieldKey: 'price', value: 1 }, 'filter.operator', 'is required'],
      [{ ...leaf('price', 'e', 1), operator: ['e'] }, 'filter.operator', 'must be a string'],
      [{ fieldKey: 'price', operator: 'e', value: 1 }, 'filter.type', 'is required'],
      [{ ...leaf('price', 'e', 1), type: 'xor' }, 'filter.type', 'must be one of and, or, not, condition'],
      [{ ...leaf('price', 'e', 1), type: 3 }, 'filter.type', 'must be a string'],
      ['price eq 1', 'filter', 'must be an object'],
      [[leaf('price', 'e', 1)], 'filter', 'must be an object'],
      [42, 'filter', 'must be an object'],
    ])('refuses %j at %s', (input, field, message) => {
      expect(errorOf(() => filter(input))).toEqual({ field, message });
    });

    it('names an unknown operator and its path', () => {
      const input = { type: 'and', conditions: [leaf('price', 'e', 1), leaf('price', 'between', [1, 2])] };
      expect(errorOf(() => filter(input))).toEqual({
        field: 'filter.conditions.1.operator',
        message: 'unknown operator "between"; expected one of e, ne, gt, gte, lt, lte, in, nin, start, end, contains, noe, nnoe',
      });
    });

    it('refuses a nested empty object or a non-object condition', () => {
      expect(errorOf(() => filter({ type: 'and', conditions: [{}] }))).toEqual({ field: 'filter.conditions.0.type', message: 'is required' });
      expect(errorOf(() => filter({ type: 'or', conditions: [leaf('price', 'e', 1), null] }))).toEqual({ field: 'filter.conditions.1', message: 'must be an object' });
    });

    it('uses the given root name in error paths', () => {
      expect(errorOf(() => translateContentFilter({ type: 'and', conditions: [leaf('nope', 'e', 1)] }, types, 'where'))).toEqual({
        field: 'where.conditions.0.fieldKey',
        message: 'unknown field "nope"',
      });
    });

    it('throws an invalid DomainError, which the HTTP layer answers as a 400 naming the field', () => {
      let thrown: unknown;
      try {
        filter(leaf('nope', 'e', 1));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ContentQueryError);
      expect(thrown).toBeInstanceOf(DomainError);
      expect(thrown).toMatchObject({ kind: 'invalid', field: 'filter.fieldKey', name: 'ContentQueryError' });
    });
  });

  describe('limits', () => {
    it(`accepts nesting ${MAX_FILTER_DEPTH} levels deep and refuses one more, naming the deepest node`, () => {
      const atLimit = nestedAnd(MAX_FILTER_DEPTH - 1, leaf('price', 'e', 1));
      expect(filter(atLimit)).toStrictEqual(nestedAnd(MAX_FILTER_DEPTH - 1, condition('fields.price', 'e', 1)));
      const tooDeep = nestedAnd(MAX_FILTER_DEPTH, leaf('price', 'e', 1));
      expect(errorOf(() => filter(tooDeep))).toEqual({
        field: `filter${'.conditions.0'.repeat(MAX_FILTER_DEPTH)}`,
        message: `nests deeper than ${MAX_FILTER_DEPTH} levels`,
      });
    });

    it('counts not as a level', () => {
      const tooDeep = nestedAnd(MAX_FILTER_DEPTH - 1, { type: 'not', condition: leaf('price', 'e', 1) });
      expect(errorOf(() => filter(tooDeep)).field).toBe(`filter${'.conditions.0'.repeat(MAX_FILTER_DEPTH - 1)}.condition`);
    });

    it(`accepts ${MAX_FILTER_CONDITIONS} conditions and refuses more, counted across groups`, () => {
      const conditions = (count: number) => Array.from({ length: count }, (_, index) => leaf('price', 'e', index));
      expect(filter({ type: 'or', conditions: conditions(MAX_FILTER_CONDITIONS) })).toMatchObject({ type: 'or' });
      expect(errorOf(() => filter({ type: 'or', conditions: conditions(MAX_FILTER_CONDITIONS + 1) }))).toEqual({
        field: 'filter',
        message: `has more than ${MAX_FILTER_CONDITIONS} conditions`,
      });
      const split = { type: 'and', conditions: [{ type: 'or', conditions: conditions(60) }, { type: 'not', conditions: [{ type: 'or', conditions: conditions(41) }] }] };
      expect(errorOf(() => translateContentFilter(split, types, 'q'))).toEqual({ field: 'q', message: `has more than ${MAX_FILTER_CONDITIONS} conditions` });
    });
  });
});

describe('translateContentOrder', () => {
  it.each([[undefined], [null], [{}], [[]]])('%j means no order', (input) => {
    expect(order(input)).toEqual([]);
  });

  it('translates one object, ascending by default', () => {
    expect(order({ type: 'condition', fieldKey: 'price' })).toStrictEqual([{ field: 'fields.price', direction: 'asc' }]);
    expect(order({ fieldKey: 'title', sortDir: null })).toStrictEqual([{ field: 'fields.title', direction: 'asc' }]);
  });

  it.each([
    ['Desc', 'desc'],
    ['DESC', 'desc'],
    ['desc', 'desc'],
    ['Asc', 'asc'],
    ['ASC', 'asc'],
  ])('reads sortDir %s as %s', (sortDir, direction) => {
    expect(order({ type: 'condition', fieldKey: 'price', sortDir })).toStrictEqual([{ field: 'fields.price', direction }]);
  });

  it('translates an array into several keys, in order', () => {
    expect(order([{ fieldKey: 'active', sortDir: 'Desc' }, { type: 'Condition', fieldKey: 'releasedAt' }, { fieldKey: 'id', sortDir: 'desc' }])).toStrictEqual([
      { field: 'fields.active', direction: 'desc' },
      { field: 'fields.releasedAt', direction: 'asc' },
      { field: 'itemId', direction: 'desc' },
    ]);
  });

  it('sorts by system fields and every sortable type', () => {
    expect(order([{ fieldKey: 'createdAt' }, { fieldKey: 'updatedAt' }, { fieldKey: 'publishedAt' }]).map((key) => key.field)).toEqual(['createdAt', 'updatedAt', 'publishedAt']);
    expect(order(['title', 'body', 'price', 'active', 'releasedAt', 'author', 'cover'].map((fieldKey) => ({ fieldKey }))).map((key) => key.field)).toEqual([
      'fields.title',
      'fields.body',
      'fields.price',
      'fields.active',
      'fields.releasedAt',
      'fields.author',
      'fields.cover',
    ]);
  });

  it.each([
    [{ fieldKey: 'colour' }, 'order.fieldKey', 'unknown field "colour"'],
    [[{ fieldKey: 'price' }, { fieldKey: 'colour' }], 'order.1.fieldKey', 'unknown field "colour"'],
    [{ fieldKey: 'secret' }, 'order.fieldKey', 'field "secret" of type Encrypted cannot be sorted'],
    [[{ fieldKey: 'meta' }], 'order.0.fieldKey', 'field "meta" of type Json cannot be sorted'],
    [{ sortDir: 'Desc' }, 'order.fieldKey', 'is required'],
    [{ fieldKey: 3 }, 'order.fieldKey', 'must be a string'],
    [{ fieldKey: 'price', sortDir: 'down' }, 'order.sortDir', 'must be Asc or Desc'],
    [[{ fieldKey: 'price', sortDir: 1 }], 'order.0.sortDir', 'must be Asc or Desc'],
    [{ type: 'and', fieldKey: 'price' }, 'order.type', 'must be condition when given'],
    [[{ fieldKey: 'price' }, {}], 'order.1.fieldKey', 'is required'],
    [['price'], 'order.0', 'must be an object'],
    ['price desc', 'order', 'must be an object'],
  ])('refuses %j at %s', (input, field, message) => {
    expect(errorOf(() => order(input))).toEqual({ field, message });
  });

  it(`accepts ${MAX_SORT_KEYS} keys and refuses more`, () => {
    const keys = (count: number) => Array.from({ length: count }, () => ({ fieldKey: 'price' }));
    expect(order(keys(MAX_SORT_KEYS))).toHaveLength(MAX_SORT_KEYS);
    expect(errorOf(() => order(keys(MAX_SORT_KEYS + 1)))).toEqual({ field: 'order', message: `must hold at most ${MAX_SORT_KEYS} sort keys` });
  });

  it('uses the given root name in error paths', () => {
    expect(errorOf(() => translateContentOrder([{ fieldKey: 'nope' }], types, 'sort'))).toEqual({ field: 'sort.0.fieldKey', message: 'unknown field "nope"' });
  });
});
