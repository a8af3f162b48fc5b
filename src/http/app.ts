import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { Metrics } from '../../infra/metrics/metrics';
import type { AppCommands } from '../../commands/apps';
import type { AppQueries } from '../../queries/apps';
import type { ContentTypeCommands } from '../../commands/content-types';
import type { LocaleCommands } from '../../commands/locales';
import type { WorkspaceCommands } from '../../commands/workspaces';
import type { Clock } from '../../infra/clock';
import type { ContentTypeQueries } from '../../queries/content-types';
import type { QueryIndexQueries } from '../../queries/query-indexes';
import type { CredentialQueries } from '../../queries/credentials';
import type { LocaleQueries } from '../../queries/locales';
import type { WorkspaceQueries } from '../../queries/workspaces';
import type { EventStore } from '../../infra/eventstore/port';
import type { ReadStore } from '../../infra/readstore/port';
import type { ProjectionDaemon } from '../../projections/daemon';
import type { RebuildCoordinator } from '../../projections/rebuild-coordinator';
import type { WorkspaceKeyCommands } from '../../commands/workspace-keys';
import { accessGuard, adminOnly } from './auth';
import { jsonBody } from './body-shape';
import { errorHandler, unknownRoute } from './problem';
import { concurrencyGate } from './concurrency-gate';
import { conditionalGet, noStore } from './conditional-get';
import { largeJsonAnswers } from './large-json-answers';
import { corsPolicy } from './cors';
import { observeRequests } from './observe-requests';
import { keepRawBody } from './raw-body';
import { chunkBodyOnArrival } from './chunk-body-on-arrival';
import { rateLimitPerCredential } from './rate-limit';
import { requestId } from './request-id';
import { wrongMethod } from './wrong-method';
import { type WorkspaceReadLimits, workspaceReads } from './workspace-reads';
import { buildOpenApiDocument } from './openapi/build-document';
import { referenceRouter } from './openapi/reference-router';
import { metricsRouter } from './routes/metrics';
import { type ActionServices, actionsRouter } from './routes/actions';
import { adminDataKeyRouter } from './routes/admin-data-key';
import { adminEraseRouter } from './routes/admin-erase';
import { adminRouter } from './routes/admin';
import { adminAuditRouter, auditRouter, serviceAuditRouter } from './routes/audit';
import type { AuditFeedQueries } from '../../queries/audit-feed';
import { type AiAssistantServices, aiAssistantRouter } from './routes/ai-assistant';
import { adminContentRouter } from './routes/admin-content';
import { adminProjectionsRouter } from './routes/admin-projections';
import type { QuarantineCommands } from '../../commands/projection-quarantine';
import { adminQueryIndexesRouter } from './routes/admin-query-indexes';
import { adminSchemaRouter, SCHEMA_BODY_LIMIT } from './routes/admin-schema';
import type { SchemaQueries } from '../../queries/schema';
import type { SchemaCommands } from '../../commands/schema';
import type { ContentTableBuilder } from '../../projections/content-tables/builder';
import { appsRouter } from './routes/apps';
import { contentTypesRouter } from './routes/content-types';
import { type ContentServices, contentsRouter } from './routes/contents';
import { MERGE_PATCH_TYPE } from './routes/content-write';
import { healthRouter, type HealthProbe } from './routes/health';
import { localesRouter } from './routes/locales';
import { utilityRouter } from './routes/utility';
import { type AssetServices, assetsRouter, UPLOAD_BODY_LIMIT } from './routes/assets';
import { type ImageServices, imagesRouter } from './routes/images';
import { type SignedImageServices, signedImagesRouter } from './routes/signed-images';
import { type SchedulerServices, scheduledJobsRouter } from './routes/scheduled-jobs';
import { type ReleaseServices, releasesRouter } from './routes/releases';
import { type WebhookServices, webhooksRouter } from './routes/webhooks';

export interface HttpServices {
  readonly logger: Logger;
  readonly clock: Clock;
  /** Browser origins allowed to call the API; `*` for any. */
  readonly corsOrigins: '*' | readonly string[];
  /** The reverse proxies whose X-Forwarded-For gives the client address (rate limits per address). */
  readonly trustProxy: number | readonly string[] | false;
  readonly metrics: Metrics;
  /** Requests per second per credential; 0 for no limit. */
  readonly rateLimitPerSecond: number;
  readonly healthProbes: readonly HealthProbe[];
  readonly eventStore: EventStore;
  /** The log with the values of personal-data items unsealed: operators' content history and bulk undo read it. */
  readonly unsealedEvents: EventStore;
  readonly workspaceKeyCommands: WorkspaceKeyCommands;
  readonly readStore: ReadStore;
  readonly projections: ProjectionDaemon;
  readonly rebuilds: RebuildCoordinator;
  readonly quarantine: QuarantineCommands;
  readonly contentTables: ContentTableBuilder;
  readonly credentials: CredentialQueries;
  readonly workspaceCommands: WorkspaceCommands;
  readonly workspaceQueries: WorkspaceQueries;
  readonly appCommands: AppCommands;
  readonly appQueries: AppQueries;
  readonly contentTypeCommands: ContentTypeCommands;
  readonly contentTypeQueries: ContentTypeQueries;
  readonly queryIndexQueries: QueryIndexQueries;
  readonly localeCommands: LocaleCommands;
  readonly localeQueries: LocaleQueries;
  readonly schema: { readonly queries: SchemaQueries; readonly commands: SchemaCommands };
  readonly content: ContentServices;
  readonly webhooks: WebhookServices;
  readonly scheduler: SchedulerServices;
  readonly releases: ReleaseServices;
  readonly assets: AssetServices;
  readonly images: ImageServices;
  readonly signedImages: SignedImageServices;
  readonly aiAssistant: AiAssistantServices;
  readonly actions: ActionServices;
  readonly auditFeed: AuditFeedQueries;
  /** Costly reads of one workspace at once (READS_PER_WORKSPACE and its queue). */
  readonly readsPerWorkspace: WorkspaceReadLimits;
}

const JSON_BODY_LIMIT = '1mb';
/** Upload chunks handled at once (each holds its decoded bytes, up to about 18 MB; a body without a Content-Length also its raw text). */
const UPLOADS_AT_ONCE = 2;

export function createApp(services: HttpServices): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', typeof services.trustProxy === 'object' ? [...services.trustProxy] : services.trustProxy);
  app.use(requestId);
  app.use(observeRequests(services.logger.child({ component: 'http' }), services.metrics.httpRequestDuration));
  app.use(corsPolicy(services.corsOrigins));
  app.use(rateLimitPerCredential(services.rateLimitPerSecond));
  app.use(conditionalGet);
  app.use(largeJsonAnswers);
  // Webhooks answer their signing secrets, apps their parameters (which may hold credentials); a GET on an action runs it.
  app.use(['/webhooks', '/apps', '/actions'], noStore);
  const access = accessGuard(services.credentials);
  // Upload chunks carry up to MAX_CHUNK_BYTES as base64 and are read raw (src/http/chunk-body.ts), only for a
  // write key and two at a time; every other body stays small.
  app.use('/assets/uploadAsset', access('WriteAccess'), concurrencyGate(UPLOADS_AT_ONCE), chunkBodyOnArrival(UPLOAD_BODY_LIMIT), express.raw({ type: () => true, limit: UPLOAD_BODY_LIMIT }));
  // A scheduled job's payload is sent as the client wrote it, so that body's text is kept too.
  app.use('/scheduled-jobs', jsonBody({ limit: JSON_BODY_LIMIT, verify: keepRawBody }));
  // A schema may be larger than other bodies: only the admin token gets it read.
  app.use('/admin/workspaces/:workspaceId/schema', adminOnly(services.credentials), jsonBody({ limit: SCHEMA_BODY_LIMIT }));
  app.use(jsonBody({ limit: JSON_BODY_LIMIT, type: ['application/json', MERGE_PATCH_TYPE] }));

  app.use(healthRouter(services.healthProbes));
  app.use(metricsRouter(services.metrics.registry));
  app.use(utilityRouter(services.clock));
  const reference = buildOpenApiDocument();
  app.use(referenceRouter(reference));
  app.use(
    '/admin',
    adminOnly(services.credentials),
    adminRouter(services.workspaceCommands, services.workspaceQueries, services.appCommands),
    adminProjectionsRouter(services.eventStore, services.readStore, services.projections, services.rebuilds, services.contentTables, services.quarantine, services.clock),
    adminEraseRouter(services.content.commands, services.workspaceQueries),
    adminDataKeyRouter(services.workspaceKeyCommands, services.workspaceQueries),
    adminContentRouter(services.unsealedEvents, services.content.commands, services.workspaceQueries, services.projections),
    adminAuditRouter(services.auditFeed, services.workspaceQueries),
    serviceAuditRouter(services.auditFeed),
    adminQueryIndexesRouter(services.contentTypeCommands, services.queryIndexQueries, services.workspaceQueries),
    adminSchemaRouter(services.schema.queries, services.schema.commands, services.workspaceQueries),
  );
  const reads = workspaceReads(services.readsPerWorkspace);
  app.use(auditRouter(access, reads, services.auditFeed));
  app.use(contentTypesRouter(access, services.contentTypeCommands, services.contentTypeQueries));
  app.use(localesRouter(access, services.localeCommands, services.localeQueries));
  app.use(contentsRouter(access, reads, services.content));
  app.use(webhooksRouter(access, services.webhooks));
  app.use(scheduledJobsRouter(access, services.scheduler));
  app.use(releasesRouter(access, services.releases));
  app.use(assetsRouter(access, services.assets));
  app.use(signedImagesRouter(access, services.signedImages));
  app.use(imagesRouter(access, services.images));
  app.use(aiAssistantRouter(access, services.aiAssistant));
  app.use(actionsRouter(access, services.actions));
  app.use(appsRouter(access, { commands: services.appCommands, queries: services.appQueries }));

  app.use(wrongMethod(reference));
  app.use(unknownRoute);
  app.use(errorHandler(services.logger));
  return app;
}
