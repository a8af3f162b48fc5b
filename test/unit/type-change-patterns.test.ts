import { checkTypeChange, MAX_PATTERN_WORK_PER_CHECK, type StoredPage } from '../../commands/content-type-changes';
import { PatternThread } from '../../infra/regex/pattern-thread';
import { contentTypeDefinition } from '../../src/domain/content-type/definition';
import { patternWork } from '../../src/domain/content/pattern';
import { patternCases } from '../../src/domain/content/pattern-cases';

const HARD = '[ab]*a[ab]{20}$';
const FIELDS = 5;
const typeWith = (pattern?: string) =>
  contentTypeDefinition.parse({ name: 'Coded', key: 'Coded', fields: Array.from({ length: FIELDS }, (_, index) => ({ key: `code${index}`, type: 'Text', ...(pattern ? { pattern, maxLength: 7_000 } : {}) })) });
/** 7,000 characters that match HARD unless `matching` is false. */
const value = (matching: boolean) => `${'b'.repeat(6_979)}${matching ? 'a' : 'b'}${'b'.repeat(20)}`;
const item = (itemId: string, matching: boolean) => ({ itemId, fields: Object.fromEntries(Array.from({ length: FIELDS }, (_, index) => [`code${index}`, value(matching)])), translations: {} });

/** The draft stage holds `items`; the published stage holds nothing. */
const storedIn = (items: ReturnType<typeof item>[]): StoredPage => async (_workspaceId, _type, stage, offset, limit) => (stage === 'draft' ? items.slice(offset, offset + limit) : []);

describe('a type change checks stored values against a new pattern on the pattern thread, within a budget', () => {
  const thread = new PatternThread();
  afterAll(() => thread.close());

  it('finds the values a new pattern refuses', async () => {
    const report = await checkTypeChange(storedIn([item('ok', true), item('bad', false)]), thread, 'ws', typeWith(), typeWith(HARD));
    expect(report.complete).toBe(true);
    expect(report.checked).toBe(2);
    expect(report.problems.map((problem) => [problem.field, problem.examples])).toEqual(Array.from({ length: FIELDS }, (_, index) => [`code${index}`, ['bad']]));
  });

  it('stops, and says the check is not complete, before its pattern work passes the budget', async () => {
    const items = Array.from({ length: 200 }, (_, index) => item(`item-${index}`, true));
    expect(patternWork(items.flatMap((stored) => patternCases(stored, typeWith(HARD).fields)))).toBeGreaterThan(MAX_PATTERN_WORK_PER_CHECK);
    const report = await checkTypeChange(storedIn(items), thread, 'ws', typeWith(), typeWith(HARD));
    expect(report.complete).toBe(false);
    expect(report.breaking).toBe(true);
  });
});
