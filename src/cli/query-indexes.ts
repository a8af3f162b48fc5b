import type { QueryIndexState } from '../../projections/content-tables/query-indexes';
import type { DeclaredQueryIndexes, ListedQueryIndex, RecordedShapes } from '../../queries/query-indexes';
import { describeShape } from '../../queries/query-shape';
import { COVERING, describeIndex, indexSignature, type QueryIndex, shapeOf, TEXT_INDEX_KINDS, type TextIndexKind } from '../domain/content-type/query-indexes';
import type { AdminClient } from './admin-client';
import type { CliOutput } from './output';

/**
 * `query-indexes list|shapes|set|pin|forbid|allow|clear <workspaceId> <type> [index ...]`: a
 * content type's query indexes and the query shapes served for it, through the admin API
 * (docs/operations.md "Query indexes"). An index is written `color,price:desc`: its fields in
 * order, each `:asc` (the default) or `:desc`; a text index `title@prefix` (prefix,
 * prefix-folded or substring).
 */
export async function queryIndexesCommand(admin: AdminClient, action: string | undefined, args: readonly string[], json: boolean, output: CliOutput): Promise<void> {
  const [workspaceId, contentType, ...written] = args;
  if (!workspaceId || !contentType) throw new Error('query-indexes needs a workspace id and a content type key');
  const base = `/workspaces/${encodeURIComponent(workspaceId)}/content-types/${encodeURIComponent(contentType)}`;
  const path = `${base}/query-indexes`;
  const current = () => admin.call<DeclaredQueryIndexes>('GET', path);
  const put = (indexes: readonly QueryIndex[], forbidden?: readonly QueryIndex[]) => admin.call<DeclaredQueryIndexes>('PUT', path, { indexes, ...(forbidden ? { forbidden } : {}) });
  const none = (what: string) => {
    if (written.length > 0) throw new Error(`query-indexes ${what} takes no indexes`);
  };
  const some = (what: string) => {
    if (written.length === 0) throw new Error(`query-indexes ${what} needs at least one index, e.g. color,price:desc or title@prefix`);
    return written.map(parseIndex);
  };
  let answer: DeclaredQueryIndexes;
  let shapes: RecordedShapes | null = null;
  switch (action) {
    case 'list':
      none('list');
      [answer, shapes] = await Promise.all([current(), admin.call<RecordedShapes>('GET', `${base}/query-shapes`)]);
      break;
    case 'shapes': {
      none('shapes');
      const recorded = await admin.call<RecordedShapes>('GET', `${base}/query-shapes`);
      if (json) return output.log(JSON.stringify(recorded, null, 2));
      return printShapes(recorded, contentType, output);
    }
    case 'set': {
      // The declared list; pinned indexes stay.
      const given = some('set');
      answer = await put([...given, ...(await current()).indexes.filter((index) => index.origin === 'pinned')]);
      break;
    }
    case 'pin': {
      const pinned = some('pin');
      const signatures = new Set(pinned.map(indexSignature));
      const kept = operatorIndexes((await current()).indexes).filter((index) => !signatures.has(indexSignature(index)));
      answer = await put([...kept, ...pinned.map((index) => ({ ...index, origin: 'pinned' as const }))]);
      break;
    }
    case 'forbid':
    case 'allow': {
      const named = some(action);
      const signatures = new Set(named.map(indexSignature));
      const now = await current();
      const others = now.forbidden.filter((index) => !signatures.has(indexSignature(index)));
      answer = await put(operatorIndexes(now.indexes), action === 'forbid' ? [...others, ...named] : others);
      break;
    }
    case 'clear':
      none('clear');
      answer = await put([]);
      break;
    default:
      throw new Error(`unknown query-indexes command: ${action ?? '(none)'}; list, shapes, set, pin, forbid, allow or clear`);
  }
  if (json) return output.log(JSON.stringify(shapes ? { ...answer, shapes: shapes.shapes } : answer, null, 2));
  if (answer.indexes.length === 0) output.log(`${contentType} has no query indexes`);
  for (const index of answer.indexes) output.log(index.origin === 'declared' ? describeIndex(index) : `${describeIndex(index)} (${index.origin})`);
  if (answer.forbidden.length > 0) output.log(`forbidden: ${answer.forbidden.map(describeIndex).join(' ')}`);
  if (answer.state !== 'none') output.log(`state: ${answer.state}${STATE_NOTES[answer.state] ?? ''}`);
  if (shapes && shapes.shapes.length > 0) printShapes(shapes, contentType, output);
}

/** The operator's part of a listed set (declared and pinned), as PUT takes it back. */
const operatorIndexes = (listed: readonly ListedQueryIndex[]): QueryIndex[] =>
  listed.filter((index) => index.origin !== 'advised').map((index) => ({ ...shapeOf(index), origin: index.origin }));

function printShapes(recorded: RecordedShapes, contentType: string, output: CliOutput): void {
  if (recorded.shapes.length === 0) return output.log(`this instance has served no query of ${contentType} yet`);
  const advisor = recorded.advisor.enabled ? `advisor on: ${recorded.advisor.minCount} queries at ${recorded.advisor.minMeanMs} ms on average, ${recorded.advisor.budget} indexes per type` : 'advisor off';
  output.log(`query shapes served by this instance, most recent first (${advisor}):`);
  for (const shape of recorded.shapes) {
    const index = shape.index ? ` -> ${describeIndex(shape.index)}` : '';
    output.log(`  ${shape.recentCount} recent (${shape.count} in all), ${shape.recentMeanMs} ms mean: ${describeShape(shape)}${index} [${shape.status}${shape.servedBy ? `: ${shape.servedBy}` : ''}]`);
  }
}

const STATE_NOTES: Partial<Record<QueryIndexState, string>> = {
  waiting: " (the type's typed table is being built; they follow its load)",
  building: ' (the service brings the table in line within seconds; list again to see)',
  failed: ' (the service log says why; tried again a minute after the failure)',
};

/** `color,price:desc`, `title@prefix` or `price,category@covering` as the admin API's index. */
export function parseIndex(written: string): QueryIndex {
  const [fieldsText = '', kind, extraKind] = written.split('@');
  if (extraKind !== undefined || (kind !== undefined && kind !== COVERING && !TEXT_INDEX_KINDS.includes(kind as TextIndexKind))) {
    throw new Error(`cannot read the index ${written}: a text index is one field and its kind, e.g. title@prefix (${TEXT_INDEX_KINDS.join(', ')}); a covering b-tree is its fields and @${COVERING}`);
  }
  const fields = fieldsText.split(',').map((part) => {
    const [key, direction = 'asc', extra] = part.split(':');
    if (!key || extra !== undefined || (direction !== 'asc' && direction !== 'desc')) {
      throw new Error(`cannot read the index ${written}: write its fields as key or key:desc, separated by commas (color,price:desc)`);
    }
    return { key, direction: direction as 'asc' | 'desc' };
  });
  if (kind === COVERING) return { fields, covering: true };
  return { fields, ...(kind ? { text: kind as TextIndexKind } : {}) };
}
