import { RE2JS } from 're2js';
import { BreakingChangeScan, fieldsWithNewRules } from '../../src/domain/content-type/breaking-changes';
import { contentTypeDefinition } from '../../src/domain/content-type/definition';
import { MAX_PATTERN_WORK_PER_SAVE, PatternTests } from '../../src/domain/content/pattern';

const typeWith = (fields: unknown[]) => contentTypeDefinition.parse({ name: 'T', key: 'T', fields });

describe('field rules', () => {
  it('bounds the pattern work of one save: past the budget a value is not matched but reported', () => {
    const tests = new PatternTests();
    const value = 'a'.repeat(10_000);
    const size = RE2JS.compile('^[a-z]+$').programSize();
    const withinBudget = Math.floor(MAX_PATTERN_WORK_PER_SAVE / (size * (value.length + 1)));
    for (let check = 0; check < withinBudget; check++) expect(tests.test('^[a-z]+$', value)).toBe(true);
    expect(tests.test('^[a-z]+$', value)).toBe('over budget');
    expect(new PatternTests().test('^[a-z]+$', value)).toBe(true);
  });

  it('checks stored items only for fields whose rules change: not for a new field without rules, nor a retyped one', () => {
    const before = typeWith([{ key: 'code', type: 'Text' }, { key: 'price', type: 'Number', max: 5 }, { key: 'kind', type: 'Text' }]);
    const after = typeWith([
      { key: 'code', type: 'Text', required: true },
      { key: 'price', type: 'Number', max: 50 },
      { key: 'kind', type: 'Number', min: 0 },
      { key: 'note', type: 'Text' },
      { key: 'origin', type: 'Text', required: true },
    ]);
    expect(fieldsWithNewRules(before, after).map((field) => field.key)).toEqual(['code', 'price', 'origin']);
    expect(fieldsWithNewRules(after, after)).toEqual([]);
  });

  it('reports missing values, values a rule refuses (translations too) and values shared within a stage, in field order', () => {
    const fields = typeWith([
      { key: 'code', type: 'Text', required: true, unique: true },
      { key: 'name', type: 'Text', maxLength: 3, translatable: true },
    ]).fields;
    const scan = new BreakingChangeScan(fields);
    scan.add('draft', 'a', { fields: { code: 'X', name: 'long' }, translations: {} });
    scan.add('draft', 'b', { fields: { code: 'X', name: 'ok' }, translations: { name: { fr: 'trop long' } } });
    scan.add('published', 'a', { fields: { code: 'X' }, translations: {} });
    scan.add('draft', 'c', { fields: { name: '' }, translations: {} });
    expect(scan.report()).toEqual([
      { field: 'code', rule: 'required', stage: 'draft', items: 1, examples: ['c'] },
      { field: 'code', rule: 'unique', stage: 'draft', items: 2, examples: ['a', 'b'] },
      { field: 'name', rule: 'must be at most 3 characters', stage: 'draft', items: 2, examples: ['a', 'b'] },
    ]);
  });
});
