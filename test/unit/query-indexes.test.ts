import { FIELD_TYPES } from '../../src/domain/content-type/definition';
import { describeIndex, INDEXABLE_FIELD_TYPES, indexSignature, type QueryIndex, shapeProblems } from '../../src/domain/content-type/query-indexes';
import { queryIndexDefinitions } from '../../projections/content-tables/query-indexes';
import { tableGeneration, typedFields } from '../../projections/content-tables/schema';

const generation = tableGeneration('ws', 'Product', [
  { key: 'color', type: 'Text' },
  { key: 'price', type: 'Number' },
]);
const asc = (key: string) => ({ key, direction: 'asc' as const });
const desc = (key: string) => ({ key, direction: 'desc' as const });

describe('declared query indexes on a typed table', () => {
  it('may name exactly the field types that have a typed column', () => {
    const withColumn = typedFields(FIELD_TYPES.map((type) => ({ key: type, type }))).map((field) => field.type);
    expect([...INDEXABLE_FIELD_TYPES].sort()).toEqual([...withColumn].sort());
  });

  it('are b-trees within a stage, ending with id, each field descending where declared', () => {
    const declared: QueryIndex[] = [{ fields: [asc('color'), desc('price')] }, { fields: [asc('price')] }];
    expect(queryIndexDefinitions(declared, generation)).toEqual([
      { fields: ['stage', 'fields.color', 'fields.price', 'id'], descending: ['fields.price'] },
      { fields: ['stage', 'fields.price', 'id'] },
    ]);
  });

  it('name system fields by the keys queries use', () => {
    expect(queryIndexDefinitions([{ fields: [asc('color'), desc('publishedAt')] }], generation)).toEqual([
      { fields: ['stage', 'fields.color', 'publishedAt', 'id'], descending: ['publishedAt'] },
    ]);
  });

  it('place id, the final key of every order, where it is declared, and only there', () => {
    expect(queryIndexDefinitions([{ fields: [desc('price'), asc('id'), asc('color')] }, { fields: [asc('id')] }], generation)).toEqual([
      { fields: ['stage', 'fields.price', 'id', 'fields.color'], descending: ['fields.price'] },
      { fields: ['stage', 'id'] },
    ]);
  });

  it('are text indexes of the kind declared: prefix and folded prefix within a stage, trigrams over the whole table', () => {
    expect(queryIndexDefinitions([{ fields: [asc('color')], text: 'prefix' }, { fields: [asc('color')], text: 'prefix-folded' }, { fields: [asc('color')], text: 'substring' }], generation)).toEqual([
      { fields: ['stage', 'fields.color'], text: 'prefix' },
      { fields: ['stage', 'fields.color'], text: 'prefix-folded' },
      { fields: ['fields.color'], text: 'substring' },
    ]);
  });

  it('are covering b-trees where declared so, and a text index cannot be one', () => {
    expect(queryIndexDefinitions([{ fields: [asc('price'), asc('color')], covering: true }], generation)).toEqual([{ fields: ['stage', 'fields.price', 'fields.color', 'id'], covering: true }]);
    expect(shapeProblems({ fields: [asc('color')], text: 'prefix', covering: true }, 'indexes.0')).toEqual([
      { field: 'indexes.0.covering', message: 'a text index cannot be covering: covering is a kind of b-tree' },
    ]);
    expect(describeIndex({ fields: [asc('price'), desc('color')], covering: true })).toBe('price,color:desc@covering');
    expect(indexSignature({ fields: [asc('price')], covering: true })).not.toBe(indexSignature({ fields: [asc('price')] }));
  });

  it('leave out a declaration naming a field the table has no column for', () => {
    expect(queryIndexDefinitions([{ fields: [asc('color'), asc('rating')] }, { fields: [asc('constructor')] }, { fields: [desc('price')] }], generation)).toEqual([
      { fields: ['stage', 'fields.price', 'id'], descending: ['fields.price'] },
    ]);
  });
});
