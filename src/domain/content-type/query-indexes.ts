import { z } from 'zod';
import type { FieldProblem } from '../errors';
import type { ContentTypeDefinition, FieldType } from './definition';

/**
 * Query indexes of a content type: each a composite index over 1-3 fields for the filter and
 * sort patterns a site uses (`color = X order by price desc`), or a text index on one Text field
 * (start, contains), which the type's lean table (projections/content-tables/schema.ts) does not
 * have. Operators declare them; the query index advisor (projections/processes/query-index-advisor.ts)
 * declares the ones the observed workload needs, within a budget, and drops those left unused.
 */

/** Indexes an operator keeps (declared and pinned) per type: each costs every write of the type's items an index update. */
export const MAX_QUERY_INDEXES = 8;
/** The most the advisor's budget per type may be set to (QUERY_ADVISOR_BUDGET). */
export const MAX_ADVISED_INDEXES = 8;
/** Indexes an operator forbids the advisor per type. */
export const MAX_FORBIDDEN_INDEXES = 32;
export const MAX_QUERY_INDEX_FIELDS = 3;
/** The audit feed shows a reason up to 200 characters. */
export const MAX_ADVICE_REASON = 200;

/**
 * System fields every item has; queries name them by these keys, before any content field of the
 * same key. In a declared index `id` places the final key of every order (projections/content-tables/query-indexes.ts).
 */
export const QUERY_INDEX_SYSTEM_FIELDS: readonly string[] = ['id', 'createdAt', 'updatedAt', 'publishedAt'];

/** Field types queried from a typed column of the type's table (projections/content-tables/schema.ts): Json and Encrypted are not. */
export const INDEXABLE_FIELD_TYPES: ReadonlySet<FieldType> = new Set(['Text', 'RichText', 'Number', 'Boolean', 'DateTime', 'Relation', 'Media']);
/** The fields the text operators (start, end, contains) search, so the only ones a text index may name. */
export const TEXT_INDEXED_FIELD_TYPES: ReadonlySet<FieldType> = new Set(['Text', 'RichText']);

export const queryIndexField = z.object({
  key: z.string(),
  /** desc serves `sortDir: Desc` on this field exactly; asc serves Asc (and Desc through a backward read). */
  direction: z.enum(['asc', 'desc']),
});

export const TEXT_INDEX_KINDS = ['prefix', 'prefix-folded', 'substring'] as const;
export type TextIndexKind = (typeof TEXT_INDEX_KINDS)[number];

/**
 * Who keeps an index: an operator declared it, an operator pinned one the advisor had declared
 * (both stay until an operator says otherwise), or the advisor declared it (dropped by the advisor
 * when unused, or by a forbid).
 */
export const QUERY_INDEX_ORIGINS = ['declared', 'pinned', 'advised'] as const;
export type QueryIndexOrigin = (typeof QUERY_INDEX_ORIGINS)[number];

/** As stored in events: limits are checked when declared, so an event never fails to replay. */
export const queryIndex = z.object({
  fields: z.array(queryIndexField),
  /** A text index on its one field: prefix (start), prefix-folded (start, caseInsensitive), substring (contains, end). Absent: a b-tree. */
  text: z.enum(TEXT_INDEX_KINDS).optional(),
  /**
   * A b-tree an aggregate reads alone, without the rows: it holds its Text, RichText, Relation and
   * Media fields whole where an ordinary b-tree keys them on a prefix of each value, so a grouped
   * aggregate reads the groups from it. Absent in every event before it existed: an ordinary b-tree.
   */
  covering: z.literal(true).optional(),
  /** Absent in every event before the advisor, and for declared indexes since: declared. */
  origin: z.enum(QUERY_INDEX_ORIGINS).optional(),
  /** When the advisor declared it (advised and pinned indexes). */
  advisedAt: z.string().optional(),
});
export type QueryIndex = z.infer<typeof queryIndex>;

export const originOf = (index: QueryIndex): QueryIndexOrigin => index.origin ?? 'declared';

/** What an index is, apart from who keeps it: its fields in order with directions, and its kind. */
export type IndexShape = Pick<QueryIndex, 'fields' | 'text' | 'covering'>;

/** The shape of `index`, its kind only where it has one. */
export const shapeOf = (index: IndexShape): IndexShape => ({ fields: index.fields, ...(index.text ? { text: index.text } : {}), ...(index.covering ? { covering: true as const } : {}) });

/** What tells two indexes apart: their kind and fields in order with directions, not who keeps them. An index that is not covering keeps the signature it had before covering ones existed. */
export const indexSignature = (index: IndexShape): string =>
  JSON.stringify([index.text ?? null, index.fields.map((field) => [field.key, field.direction]), ...(index.covering ? ['covering'] : [])]);

/** The index as an event and the registry keep it: origin only when not declared, a text index's one field ascending. */
export function normalizedIndex(index: QueryIndex): QueryIndex {
  const fields = index.text ? index.fields.map((field) => ({ key: field.key, direction: 'asc' as const })) : index.fields.map((field) => ({ key: field.key, direction: field.direction }));
  const origin = originOf(index);
  return {
    fields,
    ...(index.text ? { text: index.text } : {}),
    ...(index.covering && !index.text ? { covering: true as const } : {}),
    ...(origin === 'declared' ? {} : { origin }),
    ...(origin !== 'declared' && index.advisedAt ? { advisedAt: index.advisedAt } : {}),
  };
}

/** The CLI's and the schema plan's word for a covering b-tree: `price,category@covering`. */
export const COVERING = 'covering';

/** An index as the CLI and the schema plan write it: `color,price:desc`, `title@prefix` for a text index, `price,category@covering` for a covering one. */
export function describeIndex(index: IndexShape): string {
  if (index.text) return `${index.fields[0]!.key}@${index.text}`;
  const fields = index.fields.map((field) => (field.direction === 'desc' ? `${field.key}:desc` : field.key)).join(',');
  return index.covering ? `${fields}@${COVERING}` : fields;
}

/** A forbidden index: its signature only. */
export const forbiddenIndex = (index: IndexShape): QueryIndex => {
  const { origin: _origin, advisedAt: _at, ...shape } = normalizedIndex(shapeOf(index));
  return shape;
};

/** What is wrong with `indexes` for a type of this definition, by input path (`indexes.0.fields.1`); empty when nothing. */
export function queryIndexProblems(indexes: readonly QueryIndex[], definition: Pick<ContentTypeDefinition, 'fields'>, root = 'indexes'): FieldProblem[] {
  const types = new Map(definition.fields.map((field) => [field.key, field.type]));
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  indexes.forEach((index, position) => {
    const at = `${root}.${position}`;
    problems.push(...shapeProblems(index, at));
    const keys = new Set<string>();
    index.fields.forEach((field, fieldPosition) => {
      const fieldAt = `${at}.fields.${fieldPosition}`;
      const type = types.get(field.key);
      if (keys.has(field.key)) problems.push({ field: fieldAt, message: `names ${field.key} twice` });
      keys.add(field.key);
      if (QUERY_INDEX_SYSTEM_FIELDS.includes(field.key)) {
        if (index.text) problems.push({ field: fieldAt, message: `a text index takes a Text or RichText field, not the system field ${field.key}` });
        return;
      }
      if (type === undefined) problems.push({ field: fieldAt, message: `names no field of this content type: ${field.key}` });
      else if (!INDEXABLE_FIELD_TYPES.has(type)) problems.push({ field: fieldAt, message: `field ${field.key} is of type ${type}, which has no typed column to index` });
      else if (index.text && !TEXT_INDEXED_FIELD_TYPES.has(type)) problems.push({ field: fieldAt, message: `a text index takes a Text or RichText field; ${field.key} is ${type}` });
    });
    const signature = indexSignature(index);
    if (seen.has(signature)) problems.push({ field: at, message: 'is declared twice' });
    seen.add(signature);
  });
  return problems;
}

/** Field counts and the text kind's one field: what any index must satisfy, whatever its fields name. */
export function shapeProblems(index: QueryIndex, at: string): FieldProblem[] {
  if (index.fields.length === 0) return [{ field: `${at}.fields`, message: 'must name at least one field' }];
  if (index.fields.length > MAX_QUERY_INDEX_FIELDS) return [{ field: `${at}.fields`, message: `must name at most ${MAX_QUERY_INDEX_FIELDS} fields` }];
  if (index.text && index.fields.length !== 1) return [{ field: `${at}.fields`, message: 'a text index names exactly one field' }];
  if (index.text && index.covering) return [{ field: `${at}.covering`, message: 'a text index cannot be covering: covering is a kind of b-tree' }];
  return [];
}

export const sameQueryIndexes = (a: readonly QueryIndex[], b: readonly QueryIndex[]): boolean => JSON.stringify(a) === JSON.stringify(b);
