import type { ColumnDefinition, IndexDefinition } from '../../infra/readstore/port';
import { fieldColumns, type TableGeneration } from './schema';

/**
 * The shape of a typed versions table: a content type's published versions (one row per item
 * and published version, with the interval it was served in: published-versions.ts) with a typed column per
 * field as its content table has, so that as-of filters, orders and aggregates on content
 * fields compare columns and walk b-trees instead of reading the JSON of every version.
 */

/** No scope columns: a versions table holds one type of one workspace. */
const VERSION_SYSTEM_COLUMNS: readonly ColumnDefinition[] = [
  { path: 'itemId', type: 'text' },
  { path: 'validFromMs', type: 'number' },
  { path: 'validUntilMs', type: 'number' },
  { path: 'createdAt', type: 'datetime' },
  { path: 'updatedAt', type: 'datetime' },
  { path: 'publishedAt', type: 'datetime' },
];

/** The columns of a version's validity, in the order every index that tests it ends with. */
const VALIDITY = ['validFromMs', 'validUntilMs'];

export function versionColumns(generation: TableGeneration): ColumnDefinition[] {
  return [...VERSION_SYSTEM_COLUMNS, ...fieldColumns(generation)];
}

/**
 * Every query is "served at T" (`validFromMs <= T < validUntilMs`) and the table holds one type
 * of one workspace, so no scope column leads. Totals and aggregates range over one validity
 * index (the versions published by T, or those not ended by T, whichever is smaller); a page in
 * the default order (id, the final key of every order) walks `(id, validity)` testing validity
 * in the index and fetching only the rows it answers. Nothing per field: an as-of filter or sort
 * on a content field reads the validity range and tests the rest on each row (as-of lists are
 * rarer than current ones, and every index here costs each publish two entries: the new row and
 * the closed one).
 */
export function versionIndexes(): IndexDefinition[] {
  return [{ fields: VALIDITY }, { fields: ['validUntilMs', 'validFromMs'] }, { fields: ['id', ...VALIDITY] }];
}
