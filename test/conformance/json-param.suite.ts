import type { SqlClient } from '../../infra/sql/client';
import { jsonParam } from '../../infra/sql/json-param';

/** A value of about 1.3 MB of UTF-8, four-byte characters included: the 450-field item. */
export function largeJsonValue(): { fields: Record<string, { en: string }> } {
  return { fields: Object.fromEntries(Array.from({ length: 450 }, (_, index) => [`f${index}`, { en: `${'\ud83c\udf0d'.repeat(150)}${'prose '.repeat(200)}${index}` }])) };
}

/** What every engine's SqlClient must take as a JSON parameter (`$n::text::jsonb`), as jsonParam writes it for that engine. */
export function jsonParamSuite(open: () => SqlClient): void {
  it('reads a large JSON parameter written in slices as the value, in a prepared statement and in a transaction too', async () => {
    const sql = open();
    const value = largeJsonValue();
    const statement = 'select $1::text::jsonb = $2::jsonb as same, $1::text::jsonb #>> $3::text[] as member';
    const path = ['fields', 'f449', 'en'];
    const expected = [{ same: true, member: value.fields.f449!.en }];
    expect(await sql.query(statement, [await jsonParam(sql.engine, value), JSON.stringify(value), path])).toEqual(expected);
    expect(await sql.query(statement, [await jsonParam(sql.engine, value), JSON.stringify(value), path], { prepare: true })).toEqual(expected);
    expect(await sql.transaction(async (tx) => tx.query(statement, [await jsonParam(sql.engine, value), JSON.stringify(value), path]))).toEqual(expected);
  });

  it('reads a small JSON parameter as JSON text', async () => {
    const sql = open();
    const value = { title: 'x \ud83c\udf0d', n: [1, 2.5, null] };
    const param = jsonParam(sql.engine, value);
    expect(param).toBe(JSON.stringify(value));
    expect(await sql.query('select $1::text::jsonb as v', [param])).toEqual([{ v: value }]);
  });
}
