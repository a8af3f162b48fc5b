import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { container as rootContainer, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { ActionCommands } from '../commands/actions';
import { CommandRunner, type ReadModelBarrier } from '../commands/aggregate';
import { AiAnswerSealing } from '../commands/ai-answer-sealing';
import { AiAssistantCommands } from '../commands/ai-assistant';
import { AppCommands } from '../commands/apps';
import { AssetCommands } from '../commands/assets';
import { PatternThread } from '../infra/regex/pattern-thread';
import { ContentCommands, type ContentReadSide } from '../commands/content';
import { UniqueWriteLock } from '../commands/unique-write-lock';
import { SecretReads } from '../commands/secret-reads';
import { ContentTypeCommands } from '../commands/content-types';
import { LocaleCommands } from '../commands/locales';
import { SchemaCommands, type SchemaReads } from '../commands/schema';
import { ScheduledJobCommands } from '../commands/scheduled-jobs';
import { ReleaseCommands } from '../commands/releases';
import { WebhookDeliveryCommands } from '../commands/webhook-deliveries';
import { WebhookCommands } from '../commands/webhooks';
import { WorkspaceCommands } from '../commands/workspaces';
import { WorkspaceKeyCommands } from '../commands/workspace-keys';
import { aiProviderFor } from '../infra/ai/select';
import { type Clock, systemClock } from '../infra/clock';
import { Metrics } from '../infra/metrics/metrics';
import { TimedEventStore } from '../infra/metrics/timed-event-store';
import { WorkspaceCipher } from '../infra/crypto/envelope';
import { ItemSealer } from '../infra/crypto/item-sealer';
import { UnsealingEventStore } from '../infra/eventstore/unsealing';
import type { ItemKeyStore } from '../infra/keys/item-port';
import type { BlobStore } from '../infra/blobs/port';
import type { EventStore } from '../infra/eventstore/port';
import type { DataKeyStore } from '../infra/keys/port';
import type { LeaseStore } from '../infra/lease/port';
import type { PostgresReadModelFence } from '../infra/readstore/fence-postgres';
import { LoggingMailer, type Mailer, SmtpMailer } from '../infra/mail/mailer';
import { loadMasterKey } from '../infra/master-key';
import { RenderQueue } from '../infra/images/render-queue';
import { RenderProcesses } from '../infra/images/render-processes';
import { probeImage } from '../infra/images/renderer';
import { Lru } from '../infra/lru';
import { OutboundHttp } from '../infra/outbound/http';
import { CachingReadStore } from '../infra/readstore/caching';
import { type Replica, ReplicaSet, type ReplicaStatus } from '../infra/readstore/replicas';
import type { ReadStore } from '../infra/readstore/port';
import type { SqlClient } from '../infra/sql/client';
import { ProjectionDaemon } from '../projections/daemon';
import { publishedVersionsProjector } from '../projections/read-models/published-versions-projector';
import { itemCountsProjector } from '../projections/read-models/item-counts';
import { projectionLag } from '../projections/lag';
import { ContentActions } from '../projections/processes/content-actions';
import { InterruptedActions } from '../projections/processes/interrupted-actions';
import { ExpiredUploads } from '../projections/processes/expired-uploads';
import { RETENTION_RULES, RetentionCleanup } from '../projections/processes/retention-cleanup';
import { ChainCheckpoints } from '../projections/processes/chain-checkpoints';
import { CheckpointWitnesses, DirectoryWitness, HttpsWitness } from '../projections/processes/checkpoint-witnesses';
import { EventLogAlarm } from '../projections/processes/event-log-alarm';
import { type ChainAudit, checkpointKey } from '../infra/eventstore/chain-audit';
import { eventMacKey, type MacMarker, macMarkerSignatureValid, trustedMarker } from '../infra/eventstore/event-mac';
import { EventMacCheck } from '../infra/eventstore/event-mac-check';
import { MacCheckedEventLog } from '../infra/eventstore/mac-checked';
import { quarantineForged } from '../projections/forged-events';
import { JobScheduler } from '../projections/processes/job-scheduler';
import { Leadership } from '../projections/processes/leadership';
import { ReleaseScheduler } from '../projections/processes/release-scheduler';
import { releasesProjector } from '../projections/read-models/releases';
import { ClusterRole } from '../projections/cluster-role';
import { type ForgetWritten, ReadModelFollower } from '../projections/read-model-follower';
import type { ReadModelFeed } from '../projections/read-model-moves';
import { ReadModelPublisher } from '../projections/read-model-publisher';
import { JobSeries } from '../projections/processes/job-series';
import { AiRuns } from '../projections/processes/ai-runs';
import { ProcessRunner } from '../projections/processes/process-runner';
import { WebhookDispatcher } from '../projections/processes/webhook-dispatcher';
import { WebhookQueue } from '../projections/processes/webhook-queue';
import { CallbackSender } from '../projections/processes/callback-sender';
import { readModelProjectors } from '../projections/read-models';
import { API_KEYS } from '../projections/read-models/api-keys';
import { APPS } from '../projections/read-models/apps';
import { ASSETS } from '../projections/read-models/assets';
import { CONTENT_ITEMS, type Stage } from '../projections/read-models/content-items';
import { CONTENT_TYPES } from '../projections/read-models/content-types';
import { CONTENT_TABLES, contentTablesProjector } from '../projections/read-models/content-tables';
import { ContentTableRoutes, ROUTE_MAX_AGE_MS } from '../queries/content-table-source';
import { QueryIndexQueries } from '../queries/query-indexes';
import { SchemaQueries } from '../queries/schema';
import { DEFAULT_RECORDER_LIMITS, QueryShapeRecorder } from '../queries/query-shape-recorder';
import { QueryIndexAdvisor } from '../projections/processes/query-index-advisor';
import { StageTotals } from '../queries/stage-totals';
import { CONTENT_TABLE_PREFIX } from '../projections/content-tables/schema';
import { LOCALES } from '../projections/read-models/locales';
import { SECRET_ATTEMPTS } from '../projections/read-models/secret-attempts';
import { SERVICE } from '../projections/read-models/service';
import { PROCESS_STATUS, WEBHOOK_DELIVERIES } from '../projections/read-models/webhook-deliveries';
import { WEBHOOKS } from '../projections/read-models/webhooks';
import { SCHEDULED_JOBS } from '../projections/read-models/scheduled-jobs';
import { WORKSPACES, type WorkspaceDocument } from '../projections/read-models/workspaces';
import { RebuildCoordinator } from '../projections/rebuild-coordinator';
import { ContentTableBuilder } from '../projections/content-tables/builder';
import { QuarantineCommands } from '../commands/projection-quarantine';
import { openQuarantine, quarantineCounts } from '../projections/quarantine';
import { AppQueries } from '../queries/apps';
import { ImageSigningKeys } from '../queries/image-signing-keys';
import { ActionQueries } from '../queries/actions';
import { AiAssistantQueries } from '../queries/ai-assistant';
import { AssetQueries } from '../queries/assets';
import { ContentQueries } from '../queries/content';
import { ContentHistoryQueries } from '../queries/content-history';
import { ContentAsOfQueries } from '../queries/content-as-of';
import { PublishedTotals } from '../queries/published-totals';
import { ActorNames } from '../queries/actor-names';
import { AuditFeedQueries } from '../queries/audit-feed';
import { ReadRecords } from '../commands/read-records';
import { ContentSecretQueries } from '../queries/content-secrets';
import { AttemptLimiter } from '../queries/secret-attempts';
import { ContentSearchQueries } from '../queries/content-search';
import { ContentTypeQueries } from '../queries/content-types';
import { CredentialQueries } from '../queries/credentials';
import { LocaleQueries } from '../queries/locales';
import { ScheduledJobQueries } from '../queries/scheduled-jobs';
import { ReleaseEntryDiffs } from '../queries/release-entries';
import { ReleasePreview } from '../queries/release-preview';
import { ReleasePreviewReads } from '../queries/release-preview-reads';
import { ReleaseHistoryQueries } from '../queries/release-history';
import { ReleaseQueries } from '../queries/releases';
import { WebhookQueries } from '../queries/webhooks';
import { WorkspaceQueries } from '../queries/workspaces';
import { type Config, ConfigError } from './config';
import type { HttpServices } from './http/app';
import type { ImageServices } from './http/routes/images';

export const TOKENS = {
  config: Symbol('Config') as InjectionToken<Config>,
  logger: Symbol('Logger') as InjectionToken<Logger>,
  clock: Symbol('Clock') as InjectionToken<Clock>,
  /** The log as stored: values of personal-data items sealed. Exports, verification and appends. */
  eventStore: Symbol('EventStore') as InjectionToken<EventStore>,
  /** The log as the service reads it: personal-data values opened while their item keys exist. */
  unsealedEventStore: Symbol('UnsealedEventStore') as InjectionToken<EventStore>,
  readStore: Symbol('ReadStore') as InjectionToken<ReadStore>,
  dataKeys: Symbol('DataKeyStore') as InjectionToken<DataKeyStore>,
  itemKeys: Symbol('ItemKeyStore') as InjectionToken<ItemKeyStore>,
  sealer: Symbol('ItemSealer') as InjectionToken<ItemSealer>,
  cipher: Symbol('WorkspaceCipher') as InjectionToken<WorkspaceCipher>,
  projections: Symbol('ProjectionDaemon') as InjectionToken<ProjectionDaemon>,
  rebuilds: Symbol('RebuildCoordinator') as InjectionToken<RebuildCoordinator>,
  contentTables: Symbol('ContentTableBuilder') as InjectionToken<ContentTableBuilder>,
  commandRunner: Symbol('CommandRunner') as InjectionToken<CommandRunner>,
  http: Symbol('HttpServices') as InjectionToken<HttpServices>,
  processes: Symbol('Processes') as InjectionToken<Processes>,
  closers: Symbol('Closers') as InjectionToken<(() => Promise<void>)[]>,
  /** The event log's checkpoints and their key; null on a store without them (EventStoreDB). */
  /** `key` signs checkpoints and the MAC marker; `macKey` the events' MACs; `macMarker` as read at the open. */
  chainAudit: Symbol('ChainAudit') as InjectionToken<{ audit: ChainAudit; key: Buffer; macKey: Buffer; macMarker: MacMarker | null } | null>,
} as const;

/** The projections and process managers: they run while this instance holds their lease; every instance follows the read models. */
export interface Processes {
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly isLeading: boolean;
}

interface Storage {
  readonly eventStore: EventStore;
  readonly chainAudit: ChainAudit | null;
  /** Where the events' MACs begin; null on a store that keeps no marker (EventStoreDB) or has none. */
  readonly macMarker: MacMarker | null;
  /** The event log's guards found wrong at the open: put back, or not (the role does not own the tables). */
  readonly guards: { readonly restored: readonly string[]; readonly notRestored: readonly string[] };
  readonly readStore: ReadStore;
  readonly dataKeys: DataKeyStore;
  readonly itemKeys: ItemKeyStore;
  readonly blobs: BlobStore;
  /** Leases among instances sharing the store; the projections and process managers run on the holder only. */
  readonly leases: LeaseStore;
  /** PostgreSQL with several instances: refuses the read-model writes of an instance that lost the lease (null: one process, nothing to fence). */
  readonly readModelFence: PostgresReadModelFence | null;
  /** How instances that do not project learn of the moves of the read models; null on the embedded store (one process). */
  readonly readModelFeed: ReadModelFeed | null;
  /** The read replicas the read store's queries go to (READ_REPLICA_URLS); null without. */
  readonly replicas: ReplicaSet | null;
  /** Where each read replica (a PostgreSQL standby or a MongoDB secondary) stands; null while queries go to the primary alone. */
  readonly replicaStatus: (() => ReplicaStatus[]) | null;
  readonly close: () => Promise<void>;
}

/** How long a clean stop waits for the witnesses to take the last checkpoints. */
const WITNESS_STOP_WAIT_MS = 5000;
/**
 * The lease of the instance that projects and runs the process managers. Its name is the one the
 * process managers' lease had before projections moved under it: during a rolling upgrade an older
 * holder keeps its place and the newer instances stand by.
 */
const LEADER_LEASE = 'process-managers';
/** How long a clean stop waits for the read models to take the last events before it stops them anyway. */
const DRAIN_ON_STOP_MS = 5_000;

/** How long a write that checks unique values waits for this instance's read models to reach the head of the log (as a write waits for its own). */
const UNIQUE_CATCH_UP_MS = 5000;

/** Memory for small image renditions, per instance. */
const RENDITION_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * Read models fetched by id on nearly every request: credentials, workspaces, content types, webhooks, assets (images),
 * and the wrong-guess counters every decrypt and check reads (so a guessing burst is refused from memory).
 */
const HOT_COLLECTIONS = new Set([API_KEYS, APPS, WORKSPACES, CONTENT_TYPES, SERVICE, WEBHOOKS, ASSETS, SECRET_ATTEMPTS]);
/** Read models whose query results are asked for again and again: content listings and aggregates, a workspace's webhooks. */
const QUERIED_COLLECTIONS = new Set([CONTENT_ITEMS, CONTENT_TYPES, LOCALES, WEBHOOKS]);

/**
 * Typed content tables are queried like content_items. Their registry (content_tables) is not in
 * the document cache: the leader's builder switches a type to a new table, and an instance serving
 * from a cached entry would query the old table after it is dropped. The query path keeps entries
 * for a second only (contentTableRoutes below).
 */
const isContentTable = (collection: string) => collection.startsWith(CONTENT_TABLE_PREFIX);

/** Opens the stores the configuration names; the only place that imports adapters. */
async function openStorage(config: Config, masterKey: Buffer, logger: Logger): Promise<Storage> {
  const closers: (() => Promise<void>)[] = [];
  const sqlClients = new Map<string, SqlClient>();
  const sql = async (kind: 'embedded' | 'postgres'): Promise<SqlClient> => {
    const existing = sqlClients.get(kind);
    if (existing) return existing;
    const client =
      kind === 'embedded'
        ? await (await import('../infra/sql/pglite-client')).PgliteSqlClient.open(join(config.dataDir, 'pglite'), { checkpointWalMb: config.embeddedCheckpointWalMb })
        : await (await import('../infra/sql/pg-client')).PgSqlClient.open(config.databaseUrl!, { readStatementTimeoutMs: config.readStatementTimeoutMs });
    sqlClients.set(kind, client);
    closers.push(() => client.close());
    return client;
  };

  let eventStore: EventStore;
  let chainAudit: ChainAudit | null = null;
  let macMarker: MacMarker | null = null;
  let guards: Storage['guards'] = { restored: [], notRestored: [] };
  if (config.eventStore === 'eventstoredb') {
    const { EventStoreDbEventStore } = await import('../infra/eventstore/eventstoredb');
    eventStore = await EventStoreDbEventStore.connect(config.eventStoreUrl!, eventMacKey(masterKey));
  } else {
    const { PostgresEventStore } = await import('../infra/eventstore/postgres');
    const client = await sql(config.eventStore);
    const postgres = await PostgresEventStore.create(client, { checkpointKey: checkpointKey(masterKey), macKey: eventMacKey(masterKey) });
    eventStore = postgres;
    chainAudit = postgres.audit;
    macMarker = postgres.macMarker;
    guards = { restored: postgres.guardsRestored, notRestored: postgres.guardsNotRestored };
  }

  let readStore: ReadStore;
  let dataKeys: DataKeyStore;
  let itemKeys: ItemKeyStore;
  let leases: LeaseStore;
  let readModelFence: PostgresReadModelFence | null = null;
  let readModelFeed: ReadModelFeed | null = null;
  let replicas: ReplicaSet | null = null;
  let replicaStatus: Storage['replicaStatus'] = null;
  if (config.readStore === 'mongodb') {
    const { MongoReadStore } = await import('../infra/readstore/mongodb');
    const { MongoDataKeyStore } = await import('../infra/keys/mongodb');
    const mongo = await MongoReadStore.connect(config.mongoUrl!, undefined, { readTimeoutMs: config.readStatementTimeoutMs, reads: config.mongoReads });
    readStore = mongo;
    const secondaries = mongo.secondaries;
    if (secondaries) replicaStatus = () => secondaries.status();
    dataKeys = new MongoDataKeyStore(mongo.database);
    itemKeys = new (await import('../infra/keys/item-mongodb')).MongoItemKeyStore(mongo.database);
    leases = new (await import('../infra/lease/mongodb')).MongoLeaseStore(mongo.database);
    readModelFeed = new (await import('../infra/readstore/feed-mongodb')).MongoReadModelFeed(mongo.database);
  } else {
    const { PostgresReadStore } = await import('../infra/readstore/postgres');
    const { PostgresDataKeyStore } = await import('../infra/keys/postgres');
    const client = await sql(config.readStore);
    if (config.readStore === 'postgres') readModelFence = await (await import('../infra/readstore/fence-postgres')).PostgresReadModelFence.open(client);
    readStore = await PostgresReadStore.open(client, readModelFence ? { fence: readModelFence } : {});
    dataKeys = await PostgresDataKeyStore.create(client);
    itemKeys = await (await import('../infra/keys/item-postgres')).PostgresItemKeyStore.create(client);
    leases =
      config.readStore === 'postgres'
        ? new (await import('../infra/lease/postgres')).PostgresLeaseStore(config.databaseUrl!)
        : new (await import('../infra/lease/in-process')).InProcessLeaseStore(config.dataDir);
    if (config.readStore === 'postgres') readModelFeed = new (await import('../infra/readstore/feed-postgres')).PostgresReadModelFeed(client);
    if (config.readStore === 'postgres' && config.readReplicas.urls.length > 0) {
      ({ readStore, replicas } = await onReplicas(readStore, client, config, logger));
      const set = replicas;
      replicaStatus = () => set.status();
      closers.push(() => set.stop());
    }
  }

  let blobs: BlobStore;
  if (config.blobStore === 's3') {
    const { S3BlobStore } = await import('../infra/blobs/s3');
    blobs = await S3BlobStore.connect({
      endPoint: config.s3.endpoint!,
      accessKey: config.s3.accessKey ?? '',
      secretKey: config.s3.secretKey ?? '',
      bucket: config.s3.bucket,
      ...(config.s3.region ? { region: config.s3.region } : {}),
    });
  } else {
    const { FsBlobStore } = await import('../infra/blobs/fs');
    blobs = await FsBlobStore.open(join(config.dataDir, 'blobs'));
  }

  return {
    eventStore,
    chainAudit,
    macMarker,
    guards,
    blobs,
    readStore: config.readCache
      ? new CachingReadStore(readStore, {
          cacheGets: (collection) => HOT_COLLECTIONS.has(collection),
          cacheQueries: (collection) => config.queryCache && (QUERIED_COLLECTIONS.has(collection) || isContentTable(collection)),
          // Their documents belong to one workspace for good: a workspace's writes retire only its own cached results.
          partitionField: (collection) => (QUERIED_COLLECTIONS.has(collection) ? 'workspaceId' : undefined),
        })
      : readStore,
    dataKeys,
    itemKeys,
    leases,
    readModelFence,
    readModelFeed,
    replicas,
    replicaStatus,
    close: async () => {
      await leases.close();
      await readModelFeed?.close();
      await blobs.close();
      await eventStore.close();
      await readStore.close();
      for (const close of closers.reverse()) await close();
    },
  };
}

/** Queries of `primary` go to the replicas (their connections opened as needed: a replica away at start joins when it answers). */
async function onReplicas(primary: ReadStore, primarySql: SqlClient, config: Config, logger: Logger): Promise<{ readStore: ReadStore; replicas: ReplicaSet }> {
  const { PgSqlClient } = await import('../infra/sql/pg-client');
  const { PostgresReadStore } = await import('../infra/readstore/postgres');
  const { ReplicaRoutedReadStore } = await import('../infra/readstore/replica-routed');
  const replicas = await Promise.all(
    config.readReplicas.urls.map(async (url): Promise<Replica> => ({
      name: new URL(url).host,
      sql: await PgSqlClient.open(url, { readStatementTimeoutMs: config.readStatementTimeoutMs, lazy: true }),
    })),
  );
  const set = new ReplicaSet(primarySql, replicas, config.readReplicas.maxLagMs, logger.child({ component: 'read-replicas' }));
  const stores = new Map(replicas.map((replica) => [replica, PostgresReadStore.readOnly(replica.sql)] as const));
  return { readStore: new ReplicaRoutedReadStore(primary, set, stores), replicas: set };
}

/**
 * Where content queries run: the typed-table registry is read once a second rather than by every
 * query, and forgotten at each write of this process to it. Without the read cache (READ_CACHE=false,
 * measuring the store itself) every query reads it.
 */
function contentTableRoutes(readStore: ReadStore, ready: () => boolean): ContentTableRoutes {
  if (!(readStore instanceof CachingReadStore)) return new ContentTableRoutes(readStore, { ready });
  const routes = new ContentTableRoutes(readStore, { maxAgeMs: ROUTE_MAX_AGE_MS, ready });
  readStore.onWrite(CONTENT_TABLES, () => routes.forget());
  return routes;
}

/** Wires the service for `config` into a child container of tsyringe's root. */
export async function buildContainer(config: Config, logger: Logger, clock: Clock = systemClock): Promise<DependencyContainer> {
  const container = rootContainer.createChildContainer();
  const metrics = new Metrics({
    projectionLag: () => projectionLag(storage.eventStore, storage.readStore, readModelProjectors, clock),
    replicaLag: () => storage.replicaStatus?.() ?? [],
    quarantinedEvents: async () => quarantineCounts(await openQuarantine(storage.readStore)),
    queueDepths: async () => ({
      webhookDeliveries: await storage.readStore.count(WEBHOOK_DELIVERIES, {
        filter: { type: 'condition', field: 'processStatus', operator: 'in', value: [PROCESS_STATUS.Waiting, PROCESS_STATUS.Processing] },
      }),
      scheduledJobs: await storage.readStore.count(SCHEDULED_JOBS, { filter: { type: 'condition', field: 'status', operator: 'in', value: ['Pending', 'Firing'] } }),
    }),
  });
  const masterKey = await loadMasterKey(config.encryptionKey, config.dataDir);
  const opened = await openStorage(config, masterKey, logger);
  const storage: Storage = { ...opened, eventStore: new TimedEventStore(opened.eventStore, metrics.appendDuration) };
  await storage.replicas?.start();
  storage.readModelFence?.onRefused(() => {
    metrics.readModelWritesFenced.inc();
    logger.warn({ component: 'projections' }, 'read-model write refused: another instance took the projection lease; this one stops projecting at its next lease check');
  });

  container.register(TOKENS.config, { useValue: config });
  container.register(TOKENS.logger, { useValue: logger });
  container.register(TOKENS.clock, { useValue: clock });
  container.register(TOKENS.eventStore, { useValue: storage.eventStore });
  container.register(TOKENS.readStore, { useValue: storage.readStore });
  container.register(TOKENS.dataKeys, { useValue: storage.dataKeys });
  container.register(TOKENS.itemKeys, { useValue: storage.itemKeys });
  const sealer = new ItemSealer(masterKey, storage.itemKeys);
  // Live subscribers never see an event whose MAC fails: it is quarantined and alerted on instead (EventStoreDB keeps no MAC marker: not checked there).
  const macKey = eventMacKey(masterKey);
  if (storage.macMarker && !macMarkerSignatureValid(storage.macMarker, checkpointKey(masterKey))) {
    // Started with a key of its own, this instance would take every event for a forgery, quarantine it as lease holder, and read none of the encrypted values.
    throw new ConfigError(
      'ENCRYPTION_KEY: this is not the key the event log was written with (the signature of its MAC marker does not verify). ' +
        'Every instance of one store needs the same ENCRYPTION_KEY; a key generated in DATA_DIR belongs to that instance alone. ' +
        "If the key is right, the marker was altered: run 'cms verify'.",
    );
  }
  const checked = storage.chainAudit
    ? new MacCheckedEventLog(storage.eventStore, new EventMacCheck(macKey, trustedMarker(storage.macMarker, checkpointKey(masterKey))), async (event, problem) => {
        await quarantineForged(storage.readStore, readModelProjectors, event, problem, clock.now());
        await alarm.raise({ reason: 'eventForged', checkpoint: null, problems: [problem] });
      })
    : storage.eventStore;
  // Every reader of content events reads through here; the raw store keeps only ciphertext.
  const readable = new UnsealingEventStore(checked, sealer);
  container.register(TOKENS.sealer, { useValue: sealer });
  container.register(TOKENS.unsealedEventStore, { useValue: readable });
  container.register(TOKENS.closers, { useValue: [storage.close] });
  container.register(TOKENS.chainAudit, {
    useValue: storage.chainAudit ? { audit: storage.chainAudit, key: checkpointKey(masterKey), macKey, macMarker: storage.macMarker } : null,
  });

  const cipher = new WorkspaceCipher(masterKey, storage.dataKeys);
  const projectionsLogger = logger.child({ component: 'projections' });
  const publisher = storage.readModelFeed ? new ReadModelPublisher(storage.readModelFeed, (collection) => HOT_COLLECTIONS.has(collection), projectionsLogger) : null;
  const projections = new ProjectionDaemon(readable, storage.readStore, readModelProjectors, projectionsLogger, publisher?.moved);
  const { readStore, replicas, replicaStatus } = storage;
  // Another instance's write: the queries after it wait for the replicas to replay it, then nothing cached is older.
  const forgetWritten: ForgetWritten = (collections, documents) => {
    replicas?.fence();
    if (readStore instanceof CachingReadStore) readStore.forget(collections, documents);
  };
  const follower = storage.readModelFeed ? new ReadModelFollower(storage.readModelFeed, projections, forgetWritten, projectionsLogger) : null;
  // Writes wait for the read models here whether this instance projects or follows the one that does, then for the replicas.
  const readModels: ReadModelBarrier = {
    waitFor: async (position, timeoutMs) => {
      const reached = await (projections.running || !follower ? projections.waitFor(position, timeoutMs) : follower.waitFor(position, timeoutMs));
      if (reached) await replicas?.caughtUp();
      return reached;
    },
  };
  const runner = new CommandRunner(readable, clock, readModels);
  container.register(TOKENS.cipher, { useValue: cipher });
  container.register(TOKENS.projections, { useValue: projections });
  // The embedded engine has one connection: one apply of a rebuild in flight, so live statements queue behind no more.
  const rebuildEngine = config.readStore === 'embedded' ? { writers: 1 } : {};
  const rebuilds = new RebuildCoordinator(readable, storage.readStore, projections, logger.child({ component: 'rebuild' }), rebuildEngine);
  container.register(TOKENS.rebuilds, { useValue: rebuilds });
  const contentTables = new ContentTableBuilder(
    readable,
    storage.readStore,
    projections,
    () => rebuilds.status?.state === 'running' || projections.awaitingBackfill.includes(contentTablesProjector),
    logger.child({ component: 'content-tables' }),
    metrics.contentTableBuilds,
  );
  container.register(TOKENS.contentTables, { useValue: contentTables });
  container.register(TOKENS.commandRunner, { useValue: runner });

  const contentTypeQueries = new ContentTypeQueries(storage.readStore);
  const localeQueries = new LocaleQueries(storage.readStore);
  const workspaceQueries = new WorkspaceQueries(storage.readStore);
  // While content_tables awaits its backfill the typed tables are not mirrored: queries read the untyped models.
  const routes = contentTableRoutes(storage.readStore, () => !projections.awaitingBackfill.includes(contentTablesProjector));
  const stageTotals = new StageTotals(storage.readStore, () => !projections.awaitingBackfill.includes(itemCountsProjector));
  // The shapes this instance serves; the advisor (leader only) reads them.
  const queryShapes = new QueryShapeRecorder({ ...DEFAULT_RECORDER_LIMITS, windowMs: config.queryAdvisor.windowMs }, () => clock.now().getTime());
  const contentQueries = new ContentQueries(storage.readStore, contentTypeQueries, localeQueries, routes, stageTotals, queryShapes);
  const releasePreview = new ReleasePreview(storage.readStore, readable, clock);

  const webhookQueries = new WebhookQueries(storage.readStore, cipher);
  const webhookCommands = new WebhookCommands(runner, cipher, {
    allowHttp: config.webhookAllowHttp,
    contentTypeExists: async (workspaceId, key) => (await contentTypeQueries.get(workspaceId, key)) !== null,
    quota: { limit: config.workspaceQuotas.webhooks, setting: 'WEBHOOKS_PER_WORKSPACE', count: (workspaceId) => webhookQueries.count(workspaceId) },
  });
  const deliveryCommands = new WebhookDeliveryCommands(runner, config.webhookRetryUnitMs);
  const outbound = new OutboundHttp({ allowPrivateTargets: config.allowPrivateTargets, extraCaCertificates: await extraCaCertificates(config) });
  const mailer: Mailer = config.smtpUrl ? new SmtpMailer(config.smtpUrl) : new LoggingMailer(logger.child({ component: 'mail' }));
  const callbacks = new CallbackSender(outbound, clock);
  const webhookLogger = logger.child({ component: 'webhooks' });
  const dispatcher = new WebhookDispatcher(storage.readStore, webhookQueries, webhookCommands, deliveryCommands, callbacks, mailer, clock, webhookLogger, {
    outcomes: metrics.webhookDeliveries,
    openSealed: async (delivery) => (await sealer.open({ workspaceId: delivery.workspaceId, itemId: delivery.contentId }, delivery.sealed)) as Record<string, unknown> | undefined,
  });
  const personalData = { sealer, isPersonal: async (workspaceId: string, key: string) => (await contentTypeQueries.get(workspaceId, key))?.personalData === true };
  const webhookQueue = new ProcessRunner(
    readable,
    storage.readStore,
    new WebhookQueue(webhookQueries, deliveryCommands, clock, (delivery) => dispatcher.deliverClaimed(delivery), personalData),
    webhookLogger,
  );
  // The commands wake the scheduler, which fires through them.
  let scheduler: JobScheduler | undefined = undefined;
  const jobCommands = new ScheduledJobCommands(runner, cipher, config.schedulerBackoffUnitMs, () => scheduler?.wake());
  const schedulerSecrets = {
    signingSecret: async (workspaceId: string) => {
      const workspace = await storage.readStore.get<WorkspaceDocument>(WORKSPACES, workspaceId);
      return workspace?.encryptedSchedulerSigningSecret ? cipher.decrypt(workspaceId, workspace.encryptedSchedulerSigningSecret) : null;
    },
    open: (workspaceId: string, sealed: string) => cipher.decrypt(workspaceId, sealed),
  };
  const schedulerLogger = logger.child({ component: 'scheduler' });
  const jobScheduler = new JobScheduler(storage.readStore, jobCommands, callbacks, schedulerSecrets, clock, schedulerLogger, { outcomes: metrics.scheduledJobs });
  scheduler = jobScheduler;
  const releaseCommands: ReleaseCommands = new ReleaseCommands(runner, readable, (workspaceId, key) => contentTypeQueries.get(workspaceId, key), () => releaseScheduler.wake());
  const releaseScheduler = new ReleaseScheduler(storage.readStore, releaseCommands, clock, logger.child({ component: 'releases' }));
  const jobSeries = new ProcessRunner(readable, storage.readStore, new JobSeries(readable, jobCommands, clock), schedulerLogger);
  const retentionCleanup = new RetentionCleanup(RETENTION_RULES, storage.readStore, clock, logger.child({ component: 'retention' }));
  const eventLogLogger = logger.child({ component: 'event-log' });
  const alarm = new EventLogAlarm(storage.eventStore, clock, eventLogLogger, (reason) => metrics.eventLogAlerts.inc({ reason }));
  if (storage.guards.notRestored.length > 0) await alarm.raise({ reason: 'guardsMissing', checkpoint: null, problems: [...storage.guards.notRestored] });
  else if (storage.guards.restored.length > 0) await alarm.raise({ reason: 'guardsRestored', checkpoint: null, problems: [...storage.guards.restored] });
  // The witness URL is operator configuration, like AI_BASE_URL: it may be on the local network.
  const witnessOutbound = new OutboundHttp({ allowPrivateTargets: true, extraCaCertificates: await extraCaCertificates(config) });
  const witnesses = new CheckpointWitnesses(
    [
      ...(config.checkpointWitness.dir ? [new DirectoryWitness(config.checkpointWitness.dir)] : []),
      ...(config.checkpointWitness.url ? [new HttpsWitness(config.checkpointWitness.url, config.checkpointWitness.secret!, witnessOutbound, clock)] : []),
    ],
    {
      published: (witness) => metrics.checkpointWitnessAttempts.inc({ witness, outcome: 'published' }),
      failed: (witness) => metrics.checkpointWitnessAttempts.inc({ witness, outcome: 'failed' }),
      pending: (witness, count) => metrics.checkpointWitnessPending.set({ witness }, count),
      differs: (error) => void alarm.raise({ reason: 'witnessDiffers', checkpoint: error.id, problems: [error.message] }),
    },
    eventLogLogger,
  );
  const checkpoints = storage.chainAudit
    ? new ChainCheckpoints(storage.chainAudit, checkpointKey(masterKey), storage.eventStore, eventLogLogger, config.chainCheckpointIntervalMs, {
        signed: (checkpoint) => {
          alarm.clear('checkpointRefused');
          witnesses.publish(checkpoint);
        },
        refused: (error) => void alarm.raise({ reason: 'checkpointRefused', checkpoint: error.latest, problems: [...error.problems] }),
      })
    : null;

  const aiAnswers = new AiAnswerSealing(sealer, personalData.isPersonal);
  const aiCommands = new AiAssistantCommands(runner, clock, aiAnswers);
  // AI_BASE_URL is operator configuration, not user input, and a model server on the local network is a real setup:
  // this sender may reach private addresses, unlike the one for user-given URLs.
  const aiOutbound = new OutboundHttp({ allowPrivateTargets: true, extraCaCertificates: await extraCaCertificates(config) });
  const aiLogger = logger.child({ component: 'ai' });
  const aiRuns = new AiRuns(aiCommands, aiAnswers, new ContentSearchQueries(storage.readStore, contentTypeQueries), aiProviderFor(config.ai, aiOutbound), aiLogger);
  // A few runs at once: each may hold a model for up to a minute.
  const aiRunner = new ProcessRunner(readable, storage.readStore, aiRuns, aiLogger, { maxInFlight: 8 });

  const actionCommands = new ActionCommands(runner, clock);
  const interruptedActions = new InterruptedActions(storage.readStore, actionCommands, clock, logger.child({ component: 'actions' }));

  const assetQueries = new AssetQueries(storage.readStore, storage.blobs, clock);
  const assetCommands = new AssetCommands(runner, storage.blobs, {
    findDuplicate: async (workspaceId, hash, size, exceptAssetId) => {
      const found = await assetQueries.byHash(workspaceId, hash, size);
      return found && found.assetId !== exceptAssetId ? found.assetId : null;
    },
    probeImage: async (file) => (await probeImage(file))?.format ?? null,
    usage: (workspaceId, assetId) => assetQueries.usage(workspaceId, assetId),
    uploadIdTakenElsewhere: (workspaceId, assetId, fileUploadId) => assetQueries.uploadIdTakenElsewhere(workspaceId, assetId, fileUploadId),
  }, config.uploadLimits);
  const expiredUploads = new ExpiredUploads(storage.readStore, assetCommands, config.uploadTtlMs, clock, logger.child({ component: 'assets' }));

  const contentTypeReadSide = {
    countItems: (workspaceId: string, key: string) => contentQueries.countItems(workspaceId, key),
    typeExists: async (workspaceId: string, key: string) => (await contentTypeQueries.get(workspaceId, key)) !== null,
    storedPage: (workspaceId: string, key: string, stage: Stage, offset: number, limit: number) => contentQueries.storedPage(workspaceId, key, stage, offset, limit),
  };
  const patternThread = new PatternThread();
  container.resolve(TOKENS.closers).push(() => patternThread.close());
  const contentTypeCommands = new ContentTypeCommands(
    runner,
    contentTypeReadSide,
    cipher,
    { limit: config.workspaceQuotas.contentTypes, setting: 'CONTENT_TYPES_PER_WORKSPACE', count: (workspaceId) => contentTypeQueries.count(workspaceId) },
    patternThread,
  );
  const advisor = config.queryAdvisor.enabled
    ? new QueryIndexAdvisor(queryShapes, storage.readStore, contentTypeCommands, clock, logger.child({ component: 'query-index-advisor' }), config.queryAdvisor)
    : null;

  const processWork = {
    start: async () => {
      // Builds typed content tables on one instance: it pauses the live projections to switch one in.
      contentTables.start();
      await webhookQueue.start();
      dispatcher.start();
      await jobSeries.start();
      await aiRunner.start();
      jobScheduler.start();
      releaseScheduler.start();
      retentionCleanup.start();
      interruptedActions.start();
      expiredUploads.start();
      checkpoints?.start();
      advisor?.start();
    },
    stop: async () => {
      await advisor?.stop();
      await contentTables.stop();
      await retentionCleanup.stop();
      await interruptedActions.stop();
      await expiredUploads.stop();
      await webhookQueue.stop();
      await dispatcher.stop();
      await jobScheduler.stop();
      await releaseScheduler.stop();
      await jobSeries.stop();
      const aiStopped = aiRunner.stop();
      aiRuns.interrupt();
      await aiStopped;
      // Last, after everything that appends: the final checkpoint covers what they wrote.
      await checkpoints?.stop();
      await witnesses.stop(WITNESS_STOP_WAIT_MS);
    },
  };
  // One lease for both: a typed table's switch and a rebuild's swap pause the live projections, so they run where those run.
  const leaderWork = {
    start: async () => {
      await storage.readModelFence?.take();
      await rebuilds.startProjections();
      await processWork.start();
    },
    stop: async () => {
      await processWork.stop();
      // A clean stop first projects what the process managers appended last; a lost lease stops at once, another instance goes on.
      const head = (await storage.leases.confirm(LEADER_LEASE)) ? await storage.eventStore.headPosition().catch(() => null) : null;
      if (head) await projections.waitFor(head, DRAIN_ON_STOP_MS);
      await projections.stop();
      await publisher?.settled();
    },
  };
  const role = new ClusterRole(new Leadership(storage.leases, LEADER_LEASE, leaderWork, logger.child({ component: 'leadership' }), config.leaseCheckMs), follower);
  container.register(TOKENS.processes, { useValue: role });
  if (follower && readStore instanceof CachingReadStore) readStore.awaitBeforeServing(() => (projections.running ? null : follower.caughtUp()));
  if (follower) container.resolve(TOKENS.closers).unshift(() => follower.stop());
  const renderProcesses = new RenderProcesses(config.imageRenderTimeoutMs);
  container.resolve(TOKENS.closers).push(async () => {
    renderProcesses.close();
    aiOutbound.close();
    witnessOutbound.close();
    outbound.close();
    mailer.close();
  });

  const uniqueWrites = new UniqueWriteLock(storage.leases, async () => readModels.waitFor(await storage.eventStore.headPosition(), UNIQUE_CATCH_UP_MS));
  const contentReadSide: ContentReadSide = {
    contentType: (workspaceId, key) => contentTypeQueries.get(workspaceId, key),
    localeCodes: async (workspaceId) => new Map((await localeQueries.list(workspaceId)).map((locale) => [locale.code.toLowerCase(), locale.code])),
    itemTypes: (workspaceId, itemIds) => contentQueries.itemTypes(workspaceId, itemIds),
    existingAssets: (workspaceId, assetIds) => assetQueries.existing(workspaceId, assetIds),
    holderOf: (workspaceId, type, stage, fieldKey, value, exceptItemId) => contentQueries.holderOf(workspaceId, type, stage, fieldKey, value, exceptItemId),
  };

  const actionQueries = new ActionQueries(storage.readStore, contentTypeQueries, clock);

  const queryIndexQueries = new QueryIndexQueries(storage.readStore, (entry) => contentTables.queryIndexState(entry), queryShapes, config.queryAdvisor);
  const localeCommands = new LocaleCommands(runner);
  const schemaQueries = new SchemaQueries(contentTypeQueries, queryIndexQueries, localeQueries, webhookQueries);
  const schemaReads: SchemaReads = {
    current: (workspaceId) => schemaQueries.export(workspaceId),
    webhookSecret: async (workspaceId, webhookId) => webhookQueries.signingSecret(await webhookQueries.document(workspaceId, webhookId)),
  };

  const actorNames = new ActorNames(storage.readStore);
  const releaseQueries = new ReleaseQueries(storage.readStore, new ReleaseEntryDiffs(storage.readStore, readable));
  const readRecords = new ReadRecords(runner, config.readAudit, (error) => logger.warn({ err: error }, 'a read was served but its audit record could not be appended (READ_AUDIT=best-effort)'));
  const workspaceCommands = new WorkspaceCommands(runner, clock, cipher);
  const images: ImageServices = { queries: assetQueries, blobs: storage.blobs, memory: new Lru<Buffer>(RENDITION_MEMORY_BYTES), renders: new RenderQueue(), renderPixels: renderProcesses.render };
  container.register(TOKENS.http, {
    useFactory: (): HttpServices => ({
      auditFeed: new AuditFeedQueries(storage.readStore, actorNames),
      logger,
      clock,
      metrics,
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy,
      rateLimitPerSecond: config.rateLimitPerSecond,
      readsPerWorkspace: config.readsPerWorkspace,
      healthProbes: [
        { name: 'eventStore', check: async () => (await storage.eventStore.headPosition(), true) },
        { name: 'readStore', check: () => storage.readStore.ping() },
        // A replica out of rotation costs the primary its reads, not the instance its answers.
        ...(replicaStatus ? [{ name: 'readReplicas', check: async () => (replicaStatus().every((replica) => replica.inRotation) ? true : ('degraded' as const)), detail: () => replicaStatus() }] : []),
        { name: 'projections', check: async () => projections.running || role.readModelsFollowed },
        { name: 'eventLog', check: async () => (alarm.degraded ? 'degraded' : true) },
      ],
      eventStore: storage.eventStore,
      unsealedEvents: readable,
      workspaceKeyCommands: new WorkspaceKeyCommands(runner, cipher),
      readStore: storage.readStore,
      projections,
      rebuilds,
      contentTables,
      quarantine: new QuarantineCommands(runner, storage.readStore, rebuilds),
      credentials: new CredentialQueries(storage.readStore, config.adminTokens),
      workspaceCommands,
      workspaceQueries,
      appCommands: new AppCommands(runner),
      appQueries: new AppQueries(storage.readStore, workspaceQueries),
      contentTypeCommands,
      contentTypeQueries,
      queryIndexQueries,
      localeCommands,
      localeQueries,
      schema: { queries: schemaQueries, commands: new SchemaCommands(schemaReads, contentTypeCommands, localeCommands, webhookCommands) },
      content: {
        commands: new ContentCommands(runner, contentReadSide, cipher, sealer, uniqueWrites, patternThread),
        queries: contentQueries,
        secretReads: new SecretReads(runner, new AttemptLimiter(storage.readStore, clock), new ContentSecretQueries(storage.readStore, cipher, workspaceQueries, clock), contentQueries, readRecords),
        history: new ContentHistoryQueries(readable, actorNames),
        asOf: {
          queries: new ContentAsOfQueries(storage.readStore, contentTypeQueries, clock, routes, new PublishedTotals(storage.readStore, () => !projections.awaitingBackfill.includes(itemCountsProjector)), queryShapes),
          ready: () => !projections.awaitingBackfill.includes(publishedVersionsProjector),
        },
        releasePreview,
        releasePreviewReads: new ReleasePreviewReads(storage.readStore, contentQueries, releasePreview),
      },
      assets: { commands: assetCommands, reads: readRecords, queries: assetQueries, clock, publicBaseUrl: config.publicBaseUrl, images },
      images,
      signedImages: { images, keys: new ImageSigningKeys(workspaceQueries, (workspaceId, info) => cipher.derivedKey(workspaceId, info), clock), workspaces: workspaceCommands, clock, publicBaseUrl: config.publicBaseUrl },
      aiAssistant: { commands: aiCommands, queries: new AiAssistantQueries(storage.readStore, aiAnswers) },
      actions: { actions: new ContentActions(actionQueries, actionCommands, callbacks, (workspaceId, sealed) => cipher.decrypt(workspaceId, sealed), config.publicBaseUrl), commands: actionCommands, queries: actionQueries },
      scheduler: { commands: jobCommands, queries: new ScheduledJobQueries(storage.readStore), clock },
      releases: {
        commands: releaseCommands,
        queries: releaseQueries,
        history: new ReleaseHistoryQueries(storage.eventStore, releaseQueries, actorNames),
        ready: () => !projections.awaitingBackfill.includes(releasesProjector),
      },
      webhooks: {
        commands: webhookCommands,
        queries: webhookQueries,
        deliveries: deliveryCommands,
        sender: callbacks,
        reads: readRecords,
        clock,
        wakeDispatcher: () => dispatcher.wake(),
      },
    }),
  });
  return container;
}

async function extraCaCertificates(config: Config): Promise<string | undefined> {
  if (!config.outboundCaFile) return undefined;
  try {
    return await readFile(config.outboundCaFile, 'utf8');
  } catch (error) {
    throw new ConfigError(`OUTBOUND_CA_FILE: cannot read ${config.outboundCaFile}: ${(error as Error).message}`);
  }
}
