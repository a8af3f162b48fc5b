import type { ContentItemDocument } from '../projections/read-models/content-items';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import type { FieldDefinition } from '../src/domain/content-type/definition';
import { ownValue } from '../src/domain/own-value';

export interface ContentFieldV1 {
  readonly type: string;
  readonly key: string;
  readonly value: unknown;
}

export interface ContentItemV1 {
  readonly id: string;
  readonly contentType: string;
  readonly fields: ContentFieldV1[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ContentItemV2 {
  readonly id: string;
  readonly fields: Record<string, unknown>;
  readonly translations: Record<string, Record<string, unknown>>;
  /** Asked for with `meta`: when and at which version the item is as read, and from which stage. */
  readonly sys?: ItemMetadata;
}

export interface ItemMetadata {
  readonly createdAt: string;
  readonly updatedAt: string;
  /** When the item was last published; null for a draft never published. */
  readonly publishedAt: string | null;
  /** The item's version (its stream's) this answer reflects. */
  readonly version: number;
  readonly stage: ContentItemDocument['stage'];
}

export function itemMetadata(document: ContentItemDocument): ItemMetadata {
  return { createdAt: document.createdAt, updatedAt: document.updatedAt, publishedAt: document.publishedAt, version: document.version, stage: document.stage };
}

export interface ViewOptions {
  /** Locale codes to try in order (the locale, its fallbacks, the default); empty for untranslated values. */
  readonly localeChain: readonly string[];
  /** Targets of the relations to expand, by item id, with their content type (absent when missing). */
  readonly relations: ReadonlyMap<string, RelatedItem>;
  readonly expand: ReadonlySet<string>;
}

export interface RelatedItem {
  readonly document: ContentItemDocument;
  readonly type: ContentTypeDocument;
}

/** What the views read of an item. */
export type ContentValues = Pick<ContentItemDocument, 'itemId' | 'fields' | 'translations'>;

export const PLAIN_VIEW: ViewOptions = { localeChain: [], relations: new Map(), expand: new Set() };

/** The value of a field for a locale chain: the first translation found, else the field's own value. */
function resolvedValue(document: ContentValues, key: string, chain: readonly string[]): unknown {
  for (const code of chain) {
    const translations = ownValue(document.translations, key);
    const translated = translations && ownValue(translations, code);
    if (translated !== undefined && translated !== null) return translated;
  }
  return ownValue(document.fields, key) ?? null;
}

/** What rendering needs of a type, worked out once per type document: its visible fields in order, its encrypted field keys. */
interface TypeView {
  readonly visible: readonly FieldDefinition[];
  readonly encrypted: ReadonlySet<string>;
}

/** Type documents are shared and never changed (the read cache hands out the same object): one view each, however many items are rendered. */
const typeViews = new WeakMap<ContentTypeDocument, TypeView>();

function typeView(type: ContentTypeDocument): TypeView {
  let view = typeViews.get(type);
  if (!view) {
    const ordered = [...type.fields].sort((a, b) => a.sortIndex - b.sortIndex);
    view = {
      visible: ordered.filter((field) => field.type !== 'Encrypted'),
      encrypted: new Set(type.fields.filter((field) => field.type === 'Encrypted').map((field) => field.key)),
    };
    typeViews.set(type, view);
  }
  return view;
}

interface VisibleValue {
  readonly key: string;
  readonly type: string;
  readonly value: unknown;
}

/** Field values as the client sees them, in the type's field order: translated, relations expanded one level (never encrypted values). */
function visibleValues(document: ContentValues, type: ContentTypeDocument, options: ViewOptions, nested: (target: RelatedItem) => unknown): VisibleValue[] {
  const values: VisibleValue[] = [];
  for (const field of typeView(type).visible) {
    if (!(Object.hasOwn(document.fields, field.key) || Object.hasOwn(document.translations, field.key))) continue;
    let value = field.translatable ? resolvedValue(document, field.key, options.localeChain) : (ownValue(document.fields, field.key) ?? null);
    if (field.type === 'Relation' && options.expand.has(field.key) && typeof value === 'string') {
      const target = options.relations.get(value);
      value = target ? nested(target) : null;
    }
    if (field.type === 'References' && options.expand.has(field.key) && Array.isArray(value)) {
      // In the list's order; an item deleted since (or not in this stage) is left out.
      value = value.flatMap((id: unknown) => {
        const target = typeof id === 'string' ? options.relations.get(id) : undefined;
        return target ? [nested(target)] : [];
      });
    }
    values.push({ key: field.key, type: field.type, value });
  }
  return values;
}

export function toV1(document: ContentItemDocument, type: ContentTypeDocument, options: ViewOptions = PLAIN_VIEW): ContentItemV1 {
  const nested = ({ document: target, type: targetType }: RelatedItem) => {
    const { id, contentType, fields } = toV1(target, targetType, { ...PLAIN_VIEW, localeChain: options.localeChain });
    return { id, contentType, fields };
  };
  return {
    id: document.itemId,
    contentType: document.contentType,
    fields: visibleValues(document, type, options, nested).map(({ key, type: fieldType, value }) => ({ type: fieldType, key, value })),
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}

export function toV2(document: ContentValues, type: ContentTypeDocument, options: ViewOptions = PLAIN_VIEW): ContentItemV2 {
  const nested = ({ document: target, type: targetType }: RelatedItem) => toV2(target, targetType, { ...PLAIN_VIEW, localeChain: options.localeChain });
  const fields = Object.fromEntries(visibleValues(document, type, options, nested).map(({ key, value }) => [key, value]));
  const { encrypted } = typeView(type);
  const translations = Object.fromEntries(encrypted.size === 0 ? Object.entries(document.translations) : Object.entries(document.translations).filter(([key]) => !encrypted.has(key)));
  return { id: document.itemId, fields, translations };
}
