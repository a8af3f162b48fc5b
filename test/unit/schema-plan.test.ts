import { dependencyOrder } from '../../src/domain/schema/dependency-order';
import { schemaDocument, type SchemaDocumentInput } from '../../src/domain/schema/document';
import { planSchema, type WorkspaceSchema } from '../../src/domain/schema/plan';

const parse = (input: Omit<SchemaDocumentInput, 'format' | 'version'>) => schemaDocument.parse({ format: 'cms-schema', version: 1, ...input });
const current = (input: Omit<SchemaDocumentInput, 'format' | 'version'>): WorkspaceSchema => ({ contentTypes: [], locales: [], webhooks: [], ...parse(input) });
const noSecrets = { given: new Set<string>(), changed: new Set<string>() };
const rows = (plan: ReturnType<typeof planSchema>) => plan.changes.map((change) => `${change.kind} ${change.name} ${change.action}`);

const article = { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' as const }] };

describe('dependencyOrder', () => {
  const order = (items: [string, string[]][]) => dependencyOrder(items, ([name]) => name, ([, on]) => on).map(([name]) => name);

  it('puts each item after what it depends on, keeps the given order otherwise, and ignores names it does not hold', () => {
    expect(order([['a', ['c']], ['b', []], ['c', ['d', 'missing']], ['d', []]])).toEqual(['d', 'c', 'a', 'b']);
  });

  it('breaks a cycle where it closes, each item once', () => {
    expect(order([['a', ['b']], ['b', ['a']], ['c', ['c']]])).toEqual(['b', 'a', 'c']);
  });

  it('walks a chain of thousands without exhausting the stack', () => {
    const chain = Array.from({ length: 20_000 }, (_, index): [string, string[]] => [`n${index}`, index === 19_999 ? [] : [`n${index + 1}`]]);
    expect(order(chain)[0]).toBe('n19999');
  });
});

describe('planSchema', () => {
  it('leaves a section the schema leaves out alone', () => {
    const now = current({ contentTypes: [{ definition: article }], locales: [{ code: 'en', default: true }] });
    expect(planSchema(now, parse({ webhooks: [] }), noSecrets)).toEqual({ changes: [], problems: [] });
  });

  it('deletes a locale after those that fall back to it, after every save', () => {
    const now = current({ locales: [{ code: 'en', default: true }, { code: 'fr', fallbackCode: 'en' }, { code: 'fr-CA', fallbackCode: 'fr' }] });
    const plan = planSchema(now, parse({ locales: [{ code: 'de', default: true }, { code: 'EN', name: 'en', fallbackCode: 'de' }] }), noSecrets);
    expect(rows(plan)).toEqual(['locale de create', 'locale en update', 'locale fr-CA delete', 'locale fr delete']);
    expect(plan.changes[1]!.changes).toEqual(['fallbackCode: null -> de', 'default: true -> false']);
  });

  it('cannot remove every locale: the default one stays', () => {
    const plan = planSchema(current({ locales: [{ code: 'en', default: true }] }), parse({ locales: [] }), noSecrets);
    expect(plan.problems).toEqual([{ field: 'locales', message: 'cannot remove the default locale en: keep at least one locale' }]);
  });

  it('names query indexes that name no indexable field of the type as the schema defines it', () => {
    const desired = parse({ contentTypes: [{ definition: article, queryIndexes: { indexes: [{ fields: [{ key: 'price', direction: 'asc' }] }] } }] });
    expect(planSchema(current({}), desired, noSecrets).problems).toEqual([{ field: 'contentTypes.0.queryIndexes.indexes.0.fields.0', message: 'names no field of this content type: price' }]);
  });

  it('tells a webhook whose given secret differs from the stored one, and leaves one whose secret matches', () => {
    const hooks = { webhooks: [{ id: 'a', endpoint: 'https://a.example' }, { id: 'b', endpoint: 'https://b.example' }] };
    const plan = planSchema(current(hooks), parse(hooks), { given: new Set(['a', 'b']), changed: new Set(['b']) });
    expect(plan.changes.map((change) => [change.name, change.action, change.changes])).toEqual([
      ['a', 'unchanged', []],
      ['b', 'update', ['secret changed']],
    ]);
  });

  it('compares event types whatever their order, and a type whose relation points to another after it', () => {
    const category = { name: 'Category', key: 'Category', fields: [] };
    const withRelation = { ...article, fields: [...article.fields, { key: 'category', type: 'Relation' as const, relationContentType: 'Category' }] };
    const now = current({ contentTypes: [{ definition: withRelation }, { definition: category }], webhooks: [{ id: 'a', endpoint: 'https://a.example', eventTypes: { Article: [3, 0, 0] } }] });
    const plan = planSchema(now, parse({ contentTypes: [{ definition: withRelation }, { definition: category }], webhooks: [{ id: 'a', endpoint: 'https://a.example', eventTypes: { Article: [0, 3] } }] }), noSecrets);
    expect(rows(plan)).toEqual(['contentType Category unchanged', 'contentType Article unchanged', 'webhook a unchanged']);
  });
});
