import { jsonParam, jsonParamInSlices } from '../../infra/sql/json-param';
import { largeJsonValue } from '../conformance/json-param.suite';

describe('jsonParam', () => {
  it('writes a small value at once, as JSON.stringify does, for either engine', () => {
    const value = { a: [1, 'two'], b: null };
    expect(jsonParam('postgres', value)).toBe(JSON.stringify(value));
    expect(jsonParam('pglite', value)).toBe(JSON.stringify(value));
  });

  it('writes a large value in slices, letting other work run between them: UTF-8 bytes for a PostgreSQL server, text for PGlite', async () => {
    // Four times the 450-field item: each call runs past one 4 ms slice whatever the machine's speed.
    const value = [largeJsonValue(), largeJsonValue(), largeJsonValue(), largeJsonValue()];
    let others = 0;
    const other = setInterval(() => others++, 0);
    try {
      const params = [];
      for (let round = 0; round < 3; round++) params.push(await jsonParam('postgres', value), await jsonParam('pglite', value));
      for (const [index, param] of params.entries()) {
        if (index % 2 === 0) expect(param).toBeInstanceOf(Buffer);
        else expect(typeof param).toBe('string');
        expect(JSON.parse(param.toString())).toEqual(value);
      }
    } finally {
      clearInterval(other);
    }
    expect(others).toBeGreaterThan(0);
  });

  it('writes any value in slices when asked: the caller knows it is large', async () => {
    expect((await jsonParamInSlices('postgres', { a: 1 })).toString()).toBe('{"a":1}');
  });
});
