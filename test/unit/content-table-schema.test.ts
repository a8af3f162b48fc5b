import { answersAlike, typedFields } from '../../projections/content-tables/schema';

describe('which typed table may answer a content type', () => {
  const built = typedFields([
    { key: 'title', type: 'Text' },
    { key: 'price', type: 'Number' },
    { key: 'meta', type: 'Json' },
  ]);

  it('answers for the fields it was built for', () => {
    expect(answersAlike(built, [{ key: 'title', type: 'Text' }, { key: 'price', type: 'Number' }, { key: 'meta', type: 'Json' }])).toBe(true);
  });

  it('keeps answering while a table for an added or removed field is built (a new field is read from the document)', () => {
    expect(answersAlike(built, [{ key: 'title', type: 'Text' }, { key: 'price', type: 'Number' }, { key: 'rating', type: 'Number' }])).toBe(true);
    expect(answersAlike(built, [{ key: 'title', type: 'Text' }])).toBe(true);
  });

  it('keeps answering when a field without a column is retyped', () => {
    expect(answersAlike(built, [{ key: 'title', type: 'Text' }, { key: 'price', type: 'Number' }, { key: 'meta', type: 'Text' }])).toBe(true);
  });

  it('stops answering when a field with a column is retyped, even to a type stored in the same column type', () => {
    expect(answersAlike(built, [{ key: 'title', type: 'Text' }, { key: 'price', type: 'Text' }])).toBe(false);
    expect(answersAlike(built, [{ key: 'title', type: 'RichText' }, { key: 'price', type: 'Number' }])).toBe(false);
    expect(answersAlike(built, [{ key: 'title', type: 'Text' }, { key: 'price', type: 'Json' }])).toBe(false);
  });
});
