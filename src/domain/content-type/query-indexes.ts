import { z } from 'zod';
import type { FieldProblem } from '../errors';
import type { ContentTypeDefinition, FieldType } from './definition';

/**
 * Query indexes an operator declares on a content type: each a composite index over 1-3
 * fields, for the filter and sort patterns a site uses (`color = X order by price desc`),
 * which one index per field cannot serve in a bounded read.
 */

/** Each declared index costs every write of the type's items an index update. */
export const MAX_QUERY_INDEXES = 8;
export const MAX_QUERY_INDEX_FIELDS = 3;

/**
 * System fields every item has; queries name them by these keys, before any content field of the
 * same key. In a declared index `id` places the final key of every order (projections/content-tables/query-indexes.ts).
 */
export const QUERY_INDEX_SYSTEM_FIELDS: readonly string[] = ['id', 'createdAt', 'updatedAt', 'publishedAt'];

/** Field types queried from a typed column of the type's table (projections/content-tables/schema.ts): Json and Encrypted are not. */
export const INDEXABLE_FIELD_TYPES: ReadonlySet<FieldType> = new Set(['Text', 'RichText', 'Number', 'Boolean', 'DateTime', 'Relation', 'Media']);

export const queryIndexField = z.object({
  key: z.string(),
  /** desc serves `sortDir: Desc` on this field exactly; asc serves Asc (and Desc through a backward read). */
  direction: z.enum(['asc', 'desc']),
});

/** As stored in events: limits are checked when declared, so an event never fails to replay. */
export const queryIndex = z.object({ fields: z.array(queryIndexField) });
export type QueryIndex = z.infer<typeof queryIndex>;

/** What is wrong with `indexes` for a type of this definition, by input path (`indexes.0.fields.1`); empty when nothing. */
export function queryIndexProblems(indexes: readonly QueryIndex[], definition: Pick<ContentTypeDefinition, 'fields'>): FieldProblem[] {
  const types = new Map(definition.fields.map((field) => [field.key, field.type]));
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  indexes.forEach((index, position) => {
    const keys = new Set<string>();
    index.fields.forEach((field, fieldPosition) => {
      const at = `indexes.${position}.fields.${fieldPosition}`;
      const type = types.get(field.key);
      if (keys.has(field.key)) problems.push({ field: at, message: `names ${field.key} twice` });
      keys.add(field.key);
      if (QUERY_INDEX_SYSTEM_FIELDS.includes(field.key)) return;
      if (type === undefined) problems.push({ field: at, message: `names no field of this content type: ${field.key}` });
      else if (!INDEXABLE_FIELD_TYPES.has(type)) problems.push({ field: at, message: `field ${field.key} is of type ${type}, which has no typed column to index` });
    });
    const signature = JSON.stringify(index.fields);
    if (seen.has(signature)) problems.push({ field: `indexes.${position}`, message: 'is declared twice' });
    seen.add(signature);
  });
  return problems;
}

export const sameQueryIndexes = (a: readonly QueryIndex[], b: readonly QueryIndex[]): boolean => JSON.stringify(a) === JSON.stringify(b);
