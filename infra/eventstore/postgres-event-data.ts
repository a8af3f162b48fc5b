import type { SqlClient, SqlQueryable } from '../sql/client';
import { apartColumns, type ValuesSource, withValuesApart } from '../sql/json-apart';

/** The events' data, read apart when large (json-apart.ts); positions are given as text. */
const EVENT_DATA: ValuesSource = { from: 'es_events e', value: 'e.data', key: 'e.position::text', keyed: 'e.position = any($1::bigint[])' };

/** The select list's data columns for events `e` (data, data_apart) on `engine`. */
export function dataColumns(engine: SqlClient['engine']): string {
  return apartColumns(engine, EVENT_DATA.value, 'data');
}

/** Fills in the data of the rows read without it (dataColumns). An event is never deleted, so one missing is an error. */
export function withDataApart<Row extends { readonly position: string }>(sql: SqlQueryable, rows: Row[]): Promise<Row[]> {
  return withValuesApart(sql, rows, { source: EVENT_DATA, name: 'data', keyOf: (row) => row.position, gone: 'fail' });
}
