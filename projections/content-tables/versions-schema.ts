import type { ColumnDefinition, IndexDefinition } from '../../infra/readstore/port';
import { PUBLISHED_VERSION_COLUMNS, VALIDITY } from '../read-models/published-versions';
import { fieldColumns, indexedPaths, searchedPaths, type TableGeneration } from './schema';

/**
 * The shape of a typed versions table: a content type's rows of published_versions (one per
 * item and published version, with the interval it was served in) with a typed column per
 * field as its content table has, so that as-of filters, orders and aggregates on content
 * fields compare columns and walk b-trees instead of reading the JSON of every version.
 */

/** published_versions' own columns but the scope ones: a versions table holds one type of one workspace. */
const VERSION_SYSTEM_COLUMNS = PUBLISHED_VERSION_COLUMNS.filter((column) => column.path !== 'scope' && column.path !== 'workspaceId');

export function versionColumns(generation: TableGeneration): ColumnDefinition[] {
  return [...VERSION_SYSTEM_COLUMNS, ...fieldColumns(generation)];
}

/**
 * Every query is "served at T" (`validFromMs <= T < validUntilMs`) and the table holds one type
 * of one workspace, so no scope column leads. Totals and aggregates range over one validity
 * index (the versions published by T, or those not ended by T, whichever is smaller). Each
 * sortable column leads a b-tree that ends in id and the validity: a page in that order (id the
 * final key) walks it and tests validity in the index, fetching only the rows it answers, and an
 * equality or range on the column is an index range with the validity test read alongside.
 * Searched text gets the content tables' prefix, folded prefix and trigram indexes.
 */
export function versionIndexes(generation: TableGeneration): IndexDefinition[] {
  const sorted = [...VERSION_SYSTEM_COLUMNS.filter((column) => !VALIDITY.includes(column.path)).map((column) => column.path), ...indexedPaths(generation)];
  const indexes: IndexDefinition[] = [{ fields: VALIDITY }, { fields: ['validUntilMs', 'validFromMs'] }, { fields: ['id', ...VALIDITY] }, ...sorted.map((path) => ({ fields: [path, 'id', ...VALIDITY] }))];
  for (const path of searchedPaths(generation)) {
    indexes.push({ fields: [path], text: 'prefix' }, { fields: [path], text: 'prefix-folded' }, { fields: [path], text: 'substring' });
  }
  indexes.push({ fields: ['itemId'], text: 'prefix' });
  return indexes;
}
