import type { SchemaChange } from '../domain/schema/plan';
import type { CliOutput } from './output';
import { table } from './table';

const KINDS: Record<SchemaChange['kind'], string> = { locale: 'locale', contentType: 'content type', queryIndexes: 'query indexes', webhook: 'webhook' };

/** The plan as a table, one row per object, a count per action, and where the secrets of new webhooks are read. */
export function printSchemaPlan(changes: readonly SchemaChange[], applied: boolean, output: CliOutput): void {
  if (changes.length === 0) return output.log('the schema names nothing and removes nothing');
  const rows = changes.map((change) => [KINDS[change.kind], change.name, change.destructive ? `${change.action} (destructive)` : change.action, change.changes.join('; ')]);
  for (const line of table(['KIND', 'NAME', 'ACTION', 'CHANGES'], rows)) output.log(line);
  const count = (action: SchemaChange['action']) => changes.filter((change) => change.action === action).length;
  const destructive = changes.filter((change) => change.destructive).length;
  const [created, updated, deleted, unchanged] = [count('create'), count('update'), count('delete'), count('unchanged')];
  output.log(
    applied
      ? `applied: ${created} created, ${updated} updated, ${deleted} deleted (${destructive} destructive); ${unchanged} unchanged`
      : `plan: ${created} to create, ${updated} to update, ${deleted} to delete (${destructive} destructive); ${unchanged} unchanged`,
  );
  for (const change of changes) {
    if (change.kind !== 'webhook' || change.action !== 'create' || !change.changes.includes('secret: generated')) continue;
    output.log(
      `webhook ${change.name} ${applied ? 'was' : 'will be'} created with a generated secret: read it with GET /webhooks/${change.name} (a ReadAccess key of the workspace), ` +
        `or give one through the webhook's secretFromEnv in the schema`,
    );
  }
}
