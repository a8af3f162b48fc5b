import { systemClock } from '../../infra/clock';
import { LAG_COUNT_LIMIT } from '../../projections/lag';
import { readModelProjectors } from '../../projections/read-models';
import type { RebuildStatus } from '../../projections/rebuild-coordinator';
import { type ProjectionStatus, projectionStatuses } from '../../projections/status';
import type { TableBuildStatus } from '../../projections/content-tables/builder';
import { type ContentTableStatus, contentTableStatuses } from '../../projections/content-tables/status';
import type { Config } from '../config';
import type { AdminClient } from './admin-client';
import type { CliOutput } from './output';
import { POSITION_NOTE } from './positions';
import { withStores } from './stores';
import { table } from './table';

/** The answer of GET /admin/projections, or the same read from the stores when no service answers. */
interface ProjectionsReport {
  readonly head: string;
  readonly running: boolean;
  readonly projections: ProjectionStatus[];
  readonly rebuild: RebuildStatus | null;
  readonly contentTables: { readonly tables: ContentTableStatus[]; readonly build: TableBuildStatus | null };
}

/** `projections status`: from the running service, else from the stores directly (the service is stopped). */
export async function showProjectionStatus(config: Config, admin: AdminClient, json: boolean, output: CliOutput): Promise<void> {
  const serviceAnswers = await admin.reachable();
  const report = serviceAnswers
    ? await admin.call<ProjectionsReport>('GET', '/projections')
    : await withStores(config, 'projections status', async (stores): Promise<ProjectionsReport> => ({
        ...(await projectionStatuses(stores.events, stores.readStore, readModelProjectors, systemClock)),
        running: false,
        rebuild: null,
        contentTables: { tables: await contentTableStatuses(stores.readStore), build: null },
      }));
  if (json) return output.log(JSON.stringify(report, null, 2));
  output.log(serviceAnswers ? 'read from the running service' : 'no service answers: read from the stores directly');
  output.log(`head of the log (its last event): position ${report.head}`);
  output.log(POSITION_NOTE);
  const rows = report.projections.map((projection) => [projection.name, projection.checkpoint ?? '-', lag(projection), state(projection, report)]);
  for (const line of table(['READ MODEL', 'POSITION', 'LAG', 'STATE'], rows)) output.log(line);
  showContentTables(report.contentTables, output);
}

/** Each content type's typed table, and the build in progress (content queries of a type being built use content_items). */
function showContentTables(contentTables: ProjectionsReport['contentTables'], output: CliOutput): void {
  if (contentTables.tables.length === 0) return;
  output.log('');
  const build = contentTables.build;
  const building = (entry: ContentTableStatus) =>
    build?.state === 'running' && build.contentTypes.includes(`${entry.workspaceId}:${entry.contentType}`) ? ` (${build.phase}, ${Math.round(build.fraction * 100)}%)` : '';
  const rows = contentTables.tables.map((entry) => [entry.contentType, entry.workspaceId, entry.servingTable ?? '-', `${entry.state}${building(entry)}`, entry.queryIndexes ?? '-']);
  // QUERY INDEXES: the declared query indexes' state, known to a running service only.
  for (const line of table(['CONTENT TYPE', 'WORKSPACE', 'TYPED TABLE', 'STATE', 'QUERY INDEXES'], rows)) output.log(line);
  if (build?.state === 'failed') output.log(`the last typed table build failed: ${build.error ?? 'unknown error'}`);
}

function lag(projection: ProjectionStatus): string {
  if (projection.lagEvents === 0) return '0 events';
  const events = `${projection.lagEvents}${projection.lagEvents >= LAG_COUNT_LIMIT ? '+' : ''} event${projection.lagEvents === 1 ? '' : 's'}`;
  return `${events}, ${projection.lagSeconds} s`;
}

function state(projection: ProjectionStatus, report: ProjectionsReport): string {
  const rebuild = report.rebuild;
  if (rebuild?.state === 'running' && rebuild.projections.includes(projection.name)) return `rebuilding (${rebuild.phase}, ${Math.round(rebuild.fraction * 100)}%)`;
  if (projection.atHead || projection.lagEvents === 0) return 'at head';
  if (projection.checkpoint === null && projection.storedVersion !== null) {
    return `built by version ${projection.storedVersion}: ${report.running ? 'rebuilding' : 'rebuilt at the next start'} as version ${projection.version}`;
  }
  if (projection.checkpoint === null) return report.running ? 'building' : 'not built';
  return report.running ? 'catching up' : 'behind (projections not running)';
}
