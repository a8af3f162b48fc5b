import type { QueryIndexState } from '../../projections/content-tables/query-indexes';
import type { QueryIndex } from '../domain/content-type/query-indexes';
import type { AdminClient } from './admin-client';
import type { CliOutput } from './output';

/**
 * `query-indexes list|set|clear <workspaceId> <type> [index ...]`: a content type's declared
 * query indexes through the admin API (docs/operations.md "Query indexes"). An index is written
 * `color,price:desc`: its fields in order, each `:asc` (the default) or `:desc`.
 */
export async function queryIndexesCommand(admin: AdminClient, action: string | undefined, args: readonly string[], json: boolean, output: CliOutput): Promise<void> {
  const [workspaceId, contentType, ...written] = args;
  if (!workspaceId || !contentType) throw new Error('query-indexes needs a workspace id and a content type key');
  const path = `/workspaces/${encodeURIComponent(workspaceId)}/content-types/${encodeURIComponent(contentType)}/query-indexes`;
  let answer: DeclaredIndexes;
  switch (action) {
    case 'list':
      if (written.length > 0) throw new Error('query-indexes list takes no indexes');
      answer = await admin.call<DeclaredIndexes>('GET', path);
      break;
    case 'set':
      if (written.length === 0) throw new Error('query-indexes set needs at least one index, e.g. color,price:desc (clear drops them all)');
      answer = await admin.call<DeclaredIndexes>('PUT', path, { indexes: written.map(parseIndex) });
      break;
    case 'clear':
      if (written.length > 0) throw new Error('query-indexes clear takes no indexes');
      answer = await admin.call<DeclaredIndexes>('PUT', path, { indexes: [] });
      break;
    default:
      throw new Error(`unknown query-indexes command: ${action ?? '(none)'}; list, set or clear`);
  }
  if (json) return output.log(JSON.stringify(answer, null, 2));
  if (answer.indexes.length === 0) output.log(`${contentType} has no declared query indexes`);
  for (const index of answer.indexes) output.log(formatIndex(index));
  if (answer.state !== 'none') output.log(`state: ${answer.state}${STATE_NOTES[answer.state] ?? ''}`);
}

interface DeclaredIndexes {
  readonly indexes: QueryIndex[];
  readonly state: QueryIndexState;
}

const STATE_NOTES: Partial<Record<QueryIndexState, string>> = {
  waiting: " (the type's typed table is being built; they follow its load)",
  building: ' (the service brings the table in line within seconds; list again to see)',
  failed: ' (the service log says why; tried again a minute after the failure)',
};

/** `color,price:desc` as the admin API's index. */
export function parseIndex(written: string): QueryIndex {
  const fields = written.split(',').map((part) => {
    const [key, direction = 'asc', extra] = part.split(':');
    if (!key || extra !== undefined || (direction !== 'asc' && direction !== 'desc')) {
      throw new Error(`cannot read the index ${written}: write its fields as key or key:desc, separated by commas (color,price:desc)`);
    }
    return { key, direction: direction as 'asc' | 'desc' };
  });
  return { fields };
}

const formatIndex = (index: QueryIndex) => index.fields.map((field) => (field.direction === 'desc' ? `${field.key}:desc` : field.key)).join(',');
