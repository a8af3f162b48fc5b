import type { ContentTypeDefinition, FieldDefinition } from '../content-type/definition';
import { describeIndex, forbiddenIndex, normalizedIndex, type QueryIndex, shapeOf } from '../content-type/query-indexes';
import { sameJson } from './same-json';

export interface Difference {
  /** What differs, in words; empty when nothing does. */
  readonly changes: string[];
  /** Whether applying it loses stored values: a field removed or of another type. */
  readonly destructive: boolean;
}

/** How `desired` differs from `current`, attribute by attribute, field by field and action by action. */
export function contentTypeDifference(current: ContentTypeDefinition, desired: ContentTypeDefinition): Difference {
  const changes: string[] = [];
  let destructive = false;
  const attributes = new Set([...Object.keys(current), ...Object.keys(desired)].filter((name) => name !== 'fields' && name !== 'actions'));
  for (const name of attributes) {
    const [before, after] = [(current as Record<string, unknown>)[name], (desired as Record<string, unknown>)[name]];
    if (!sameJson(before, after)) changes.push(`${name}: ${shown(before)} -> ${shown(after)}`);
  }

  const currentFields = new Map(current.fields.map((field) => [field.key, field]));
  const desiredKeys = new Set(desired.fields.map((field) => field.key));
  for (const field of desired.fields) {
    const before = currentFields.get(field.key);
    if (!before) {
      changes.push(`field added: ${field.key} (${field.type})`);
      continue;
    }
    if (before.type !== field.type) {
      destructive = true;
      changes.push(`field ${field.key}: type ${before.type} -> ${field.type} (destructive: stored values of the field no longer apply)`);
    }
    const changed = changedAttributes(before, field).filter((name) => name !== 'type');
    if (changed.length > 0) changes.push(`field ${field.key}: ${changed.join(', ')} changed`);
  }
  for (const field of current.fields) {
    if (desiredKeys.has(field.key)) continue;
    destructive = true;
    changes.push(`field removed: ${field.key} (destructive: its values are no longer served)`);
  }
  const kept = (fields: readonly FieldDefinition[]) => fields.map((field) => field.key).filter((key) => currentFields.has(key) && desiredKeys.has(key));
  if (!sameJson(kept(current.fields), kept(desired.fields))) changes.push('fields reordered');

  const currentActions = new Map(current.actions.map((action) => [action.id, action]));
  const desiredActions = new Set(desired.actions.map((action) => action.id));
  for (const action of desired.actions) {
    const before = currentActions.get(action.id);
    if (!before) changes.push(`action added: ${action.id}`);
    else if (!sameJson(before, action)) changes.push(`action ${action.id}: ${changedAttributes(before, action).join(', ')} changed`);
  }
  for (const action of current.actions) if (!desiredActions.has(action.id)) changes.push(`action removed: ${action.id}`);
  return { changes, destructive };
}

/** The operator's indexes (declared and pinned) and the forbidden ones, as the content type's events keep them. */
export interface OperatorIndexes {
  readonly indexes: readonly QueryIndex[];
  readonly forbidden: readonly QueryIndex[];
}

/** Kept indexes without when the advisor declared them (that differs from one environment to another). */
export const operatorIndexes = (indexes: readonly QueryIndex[], forbidden: readonly QueryIndex[]): OperatorIndexes => ({
  indexes: indexes.map((index) => normalizedIndex({ ...shapeOf(index), ...(index.origin ? { origin: index.origin } : {}) })),
  forbidden: forbidden.map(forbiddenIndex),
});

export function queryIndexDifference(current: OperatorIndexes, desired: OperatorIndexes): Difference {
  const changes = [...listDifference('', current.indexes, desired.indexes), ...listDifference('forbidden ', current.forbidden, desired.forbidden)];
  return { changes, destructive: false };
}

function listDifference(prefix: string, current: readonly QueryIndex[], desired: readonly QueryIndex[]): string[] {
  if (sameJson(current, desired)) return [];
  const written = (index: QueryIndex) => (index.origin === 'pinned' ? `${describeIndex(index)} (pinned)` : describeIndex(index));
  const before = new Set(current.map(written));
  const after = new Set(desired.map(written));
  const added = [...after].filter((index) => !before.has(index)).map((index) => `${prefix}+ ${index}`);
  const dropped = [...before].filter((index) => !after.has(index)).map((index) => `${prefix}- ${index}`);
  return added.length + dropped.length > 0 ? [...added, ...dropped] : [`${prefix}reordered`];
}

function changedAttributes(before: object, after: object): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => !sameJson((before as Record<string, unknown>)[name], (after as Record<string, unknown>)[name]));
}

/** A value in a change line: short ones as JSON, long ones cut. */
function shown(value: unknown): string {
  const text = value === undefined ? 'absent' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
