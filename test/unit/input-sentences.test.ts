import { z } from 'zod';
import { ProblemError } from '../../src/http/problem';
import { parseInput } from '../../src/http/validate';

const schema = z.strictObject({
  name: z.string().min(1).max(5),
  tags: z.array(z.string()).min(1).max(2),
  count: z.number().int().min(1).max(10),
  kind: z.enum(['a', 'b']),
  exact: z.literal('x').optional(),
  own: z.string({ error: 'is what the schema says' }).optional(),
});

function errorsOf(input: unknown, what?: string) {
  try {
    parseInput(schema, input, what);
  } catch (error) {
    if (error instanceof ProblemError) return { detail: error.detail, errors: error.errors };
  }
  throw new Error('parsed');
}

describe('validator issues as sentences that say what to send', () => {
  it('names each field with its bound, its type or its options, and never echoes the value', () => {
    const { errors } = errorsOf({ name: 'far too long', tags: [], count: 1.5, kind: 'c', exact: 'y', own: 7 });
    expect(errors).toEqual([
      { field: 'name', message: 'must be at most 5 characters long' },
      { field: 'tags', message: 'must hold at least 1 item' },
      { field: 'count', message: 'must be a whole number' },
      { field: 'kind', message: 'must be one of "a", "b"' },
      { field: 'exact', message: 'must be "x"' },
      { field: 'own', message: 'is what the schema says' },
    ]);
    expect(errorsOf({ name: '', tags: ['a', 'b', 'c'], count: 11, kind: true }).errors).toEqual([
      { field: 'name', message: 'must not be empty' },
      { field: 'tags', message: 'must hold at most 2 items' },
      { field: 'count', message: 'must be at most 10' },
      { field: 'kind', message: 'must be one of "a", "b"' },
    ]);
  });

  it('lists every unknown member on its own, with the member it probably meant', () => {
    const { detail, errors } = errorsOf({ name: 'a', tags: ['a'], count: 1, kind: 'a', Count: 2, colour: 'red' });
    expect(errors).toEqual([
      { field: 'Count', message: 'is not accepted here: did you mean count? (send only name, tags, count, kind, exact, own)' },
      { field: 'colour', message: 'is not accepted here: send only name, tags, count, kind, exact, own' },
    ]);
    expect(detail).toMatch(/^invalid body: Count is not accepted here: did you mean count\?/);
    expect(errorsOf({ name: 'a', tags: ['a'], count: 1, kind: 'a', ['x'.repeat(5000)]: 1 }).errors![0]!.field).toBe(`${'x'.repeat(100)}…`);
  });

  it('says a missing body is missing and how to send one; missing members are required', () => {
    expect(errorsOf(undefined).errors).toEqual([{ field: 'body', message: 'is missing: send a JSON object with Content-Type: application/json' }]);
    expect(errorsOf({}, 'query').errors).toEqual([
      ...['name', 'tags', 'count'].map((field) => ({ field, message: 'is required' })),
      { field: 'kind', message: 'is required: send one of "a", "b"' },
    ]);
  });
});
