import { availableParallelism } from 'node:os';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { MAX_ADVISED_INDEXES } from './domain/content-type/query-indexes';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

const positiveInteger = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be positive');

/** A per-workspace quota: 0 is none. */
const workspaceQuota = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 (no limit) or more');

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** `*`, or a browser's Origin header: scheme://host[:port] with nothing after it (a trailing slash is dropped). */
const corsOrigin = z.string().transform((value, context) => {
  if (value === '*') return value;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const bare = url && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if (bare) return url.origin;
  context.addIssue({ code: 'custom', input: value, message: `"${value}" is not an origin: write scheme://host[:port], like https://app.example.com` });
  return z.NEVER;
});

/** Comma-separated origins, or `*` alone for any origin; none by default. */
const corsOrigins = z
  .string()
  .default('')
  .transform((value) => value.split(',').map((origin) => origin.trim()).filter((origin) => origin !== ''))
  .pipe(z.array(corsOrigin))
  .refine((origins) => !origins.includes('*') || origins.length === 1, '"*" (any origin) stands alone')
  .transform((origins): '*' | string[] => (origins.includes('*') ? '*' : origins));

/** Comma-separated postgres:// URLs of read-only standbys; none by default. */
const replicaUrls = z
  .string()
  .default('')
  .transform((value) => value.split(',').map((url) => url.trim()).filter((url) => url !== ''))
  .pipe(z.array(z.url({ protocol: /^postgres(ql)?$/, error: 'must be postgres:// URLs, separated by commas' })).max(16, 'at most 16 replicas'));

/**
 * Where the MongoDB read store's queries may go. Set here, not in MONGODB_URL: the URL's option
 * would send every read of the client there (the leases, keys and checkpoints too), outside the
 * causally consistent sessions that keep read-your-writes (infra/readstore/mongodb-secondary-reads.ts).
 */
export const MONGODB_READ_PREFERENCES = ['primary', 'secondaryPreferred', 'nearest'] as const;
export type MongoReadPreference = (typeof MONGODB_READ_PREFERENCES)[number];

/** Whether a mongodb:// URL sets `option` in its query string (option names are case-insensitive). */
function mongoUrlSets(url: string, option: string): boolean {
  const query = url.indexOf('?');
  if (query < 0) return false;
  return [...new URLSearchParams(url.slice(query + 1)).keys()].some((key) => key.toLowerCase() === option.toLowerCase());
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const isAddressOrRange = (value: string) =>
  PROXY_RANGE_NAMES.includes(value) || ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value) || ipaddr.IPv4.isValidCIDRFourPartDecimal(value) || ipaddr.IPv6.isValidCIDR(value);

/** The reverse proxies whose X-Forwarded-For is believed: a number of hops, or addresses, ranges and range names; none by default. */
const trustedProxies = optionalText.transform((value, context): number | string[] | false => {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const bad = entries.find((entry) => !isAddressOrRange(entry));
  if (bad === undefined) return entries;
  context.addIssue({ code: 'custom', input: value, message: `"${bad}" is not a number of proxies, an IP address, a CIDR range or one of ${PROXY_RANGE_NAMES.join(', ')}` });
  return z.NEVER;
});

/** An admin token's name: what the log records as the admin who acted. */
const ADMIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
const MIN_ADMIN_TOKEN = 16;

/**
 * `name=token` pairs separated by commas, for several named admins. Messages name the pair
 * by its position or name, never echo a token.
 */
const namedAdminTokens = z
  .string()
  .default('')
  .transform((value, context): NamedAdminToken[] => {
    const pairs = value.split(',').map((pair) => pair.trim()).filter((pair) => pair !== '');
    const tokens: NamedAdminToken[] = [];
    pairs.forEach((pair, index) => {
      const separator = pair.indexOf('=');
      const name = separator < 0 ? '' : pair.slice(0, separator).trim();
      const token = separator < 0 ? '' : pair.slice(separator + 1).trim();
      const problem = !ADMIN_NAME.test(name)
        ? `pair ${index + 1} is not name=token with a name of letters, digits and _.@- (at most 64)`
        : token.length < MIN_ADMIN_TOKEN
          ? `the token of "${name}" must be at least ${MIN_ADMIN_TOKEN} characters`
          : tokens.some((known) => known.name === name)
            ? `"${name}" is named twice`
            : tokens.some((known) => known.token === token)
              ? `the token of "${name}" is also another admin's token`
              : null;
      if (problem) context.addIssue({ code: 'custom', input: `pair ${index + 1}`, message: problem });
      else tokens.push({ name, token });
    });
    return tokens;
  });

const environmentSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_BASE_URL: z.url({ error: 'must be an absolute URL' }).optional(),
  EVENT_STORE: z.enum(['embedded', 'postgres', 'eventstoredb']).optional(),
  READ_STORE: z.enum(['embedded', 'postgres', 'mongodb']).optional(),
  BLOB_STORE: z.enum(['fs', 's3']).optional(),
  DATABASE_URL: optionalText,
  EVENTSTORE_URL: optionalText,
  MONGODB_URL: optionalText.refine((url) => url === undefined || !mongoUrlSets(url, 'readPreference'), 'must not set readPreference: set MONGODB_READ_PREFERENCE instead'),
  MONGODB_READ_PREFERENCE: z.enum(MONGODB_READ_PREFERENCES).default('primary'),
  S3_ENDPOINT: optionalText,
  S3_ACCESS_KEY: optionalText,
  S3_SECRET_KEY: optionalText,
  S3_BUCKET: z.string().min(1).default('assets'),
  S3_REGION: optionalText,
  ADMIN_TOKEN: z.string().min(MIN_ADMIN_TOKEN, 'must be at least 16 characters').optional(),
  ADMIN_TOKENS: namedAdminTokens,
  READ_AUDIT: z.enum(['required', 'best-effort']).default('required'),
  CHAIN_CHECKPOINT_INTERVAL_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1000, 'must be at least 1000 (a checkpoint reads every stream head)')
    .max(3_600_000, 'must be at most 3600000 (an hour)')
    .default(10_000),
  CHECKPOINT_WITNESS_DIR: optionalText,
  CHECKPOINT_WITNESS_URL: optionalText.pipe(z.url({ protocol: /^https$/, error: 'must be an absolute https URL' }).max(2000, 'must be at most 2000 characters').optional()),
  CHECKPOINT_WITNESS_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').max(512, 'must be at most 512 characters').optional()),
  ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  EXPORT_SIGNING_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length >= 32, 'must be at least 32 bytes, base64-encoded')
    .optional(),
  ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
  WEBHOOK_ALLOW_HTTP: booleanFlag.default(false),
  SCHEDULER_BACKOFF_UNIT_MS: positiveInteger.default(60_000),
  WEBHOOK_RETRY_UNIT_MS: positiveInteger.default(60_000),
  AI_PROVIDER: z.enum(['builtin', 'openai']).default('builtin'),
  AI_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' }).optional()),
  AI_API_KEY: optionalText,
  AI_MODEL: optionalText,
  SMTP_URL: optionalText,
  OUTBOUND_CA_FILE: optionalText,
  CORS_ORIGINS: corsOrigins,
  TRUST_PROXY: trustedProxies,
  READ_CACHE: booleanFlag.default(true),
  QUERY_CACHE: booleanFlag.default(true),
  EMBEDDED_CHECKPOINT_WAL_MB: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(32, 'must be at least 32 (two WAL files)')
    .max(4096, 'must be at most 4096')
    // As the embedded client's own default (infra/sql/pglite-client.ts, DEFAULT_CHECKPOINT_WAL_MB).
    .default(64),
  READ_REPLICA_URLS: replicaUrls,
  READ_REPLICA_MAX_LAG_MS: positiveInteger.default(5000),
  LEASE_CHECK_MS: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(100, 'must be 100 or more').default(2000),
  READ_STATEMENT_TIMEOUT_MS: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 (off) or more').default(5000),
  // A workspace's costly reads are mostly CPU in the database: more at once than cores only delays everyone else's.
  READS_PER_WORKSPACE: positiveInteger.default(Math.max(2, availableParallelism())),
  // A site's page views arrive many at once; the wait (READ_QUEUE_WAIT_MS) bounds their latency, so the queue need not refuse early.
  READ_QUEUE_PER_WORKSPACE: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 (no queue) or more').default(200),
  READ_QUEUE_WAIT_MS: positiveInteger.default(5000),
  IMAGE_RENDER_TIMEOUT_MS: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(100, 'must be at least 100').default(30_000),
  CONTENT_TYPES_PER_WORKSPACE: workspaceQuota.default(100),
  WEBHOOKS_PER_WORKSPACE: workspaceQuota.default(50),
  RATE_LIMIT_PER_SECOND: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 (off) or more').default(1000),
  UPLOAD_TTL_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(60_000, 'must be at least 60000 (a minute)')
    .default(86_400_000),
  PENDING_UPLOADS_LIMIT: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 (no limit) or more').default(100),
  ASSET_QUOTA_BYTES: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 (no limit) or more').default(10 * 1024 ** 3),
  QUERY_ADVISOR: booleanFlag.default(true),
  QUERY_ADVISOR_MIN_COUNT: positiveInteger.default(100),
  QUERY_ADVISOR_MIN_MEAN_MS: z.coerce.number({ error: 'must be a number' }).min(0, 'must be 0 or more').default(10),
  QUERY_ADVISOR_WINDOW_MS: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1000, 'must be at least 1000 (a second)').default(600_000),
  QUERY_ADVISOR_INTERVAL_MS: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(100, 'must be at least 100').default(30_000),
  QUERY_ADVISOR_BUDGET: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(MAX_ADVISED_INDEXES, `must be at most ${MAX_ADVISED_INDEXES} (each index costs every write of the type an entry)`)
    .default(6),
  QUERY_ADVISOR_DROP_UNUSED_MS: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1000, 'must be at least 1000 (a second)').default(7 * 86_400_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** One admin credential of ADMIN_TOKENS; ADMIN_TOKEN is the one named `admin`. */
export interface NamedAdminToken {
  readonly name: string;
  readonly token: string;
}

/** The name ADMIN_TOKEN (and the token generated at the first start) acts under. */
export const DEFAULT_ADMIN_NAME = 'admin';

export type EventStoreKind = 'embedded' | 'postgres' | 'eventstoredb';
export type ReadStoreKind = 'embedded' | 'postgres' | 'mongodb';

export interface Config {
  readonly port: number;
  readonly dataDir: string;
  readonly publicBaseUrl: string;
  readonly eventStore: EventStoreKind;
  readonly readStore: ReadStoreKind;
  readonly blobStore: 'fs' | 's3';
  readonly databaseUrl?: string;
  /** Read-only standbys of DATABASE_URL that serve read-model queries, and the lag past which one is out of rotation. */
  readonly readReplicas: { readonly urls: readonly string[]; readonly maxLagMs: number };
  readonly eventStoreUrl?: string;
  readonly mongoUrl?: string;
  /**
   * Where the MongoDB read store's queries go: `primary`, or secondaries too, each read in a
   * causally consistent session after every acknowledged write; `maxLagMs` (READ_REPLICA_MAX_LAG_MS)
   * is the lag past which the secondaries are out of rotation.
   */
  readonly mongoReads: { readonly preference: MongoReadPreference; readonly maxLagMs: number };
  readonly s3: {
    readonly endpoint?: string;
    readonly accessKey?: string;
    readonly secretKey?: string;
    readonly bucket: string;
    readonly region?: string;
  };
  readonly adminToken?: string;
  /** Every configured admin token with its name: ADMIN_TOKEN (as `admin`) and ADMIN_TOKENS. */
  readonly adminTokens: readonly NamedAdminToken[];
  /** Whether a recorded read (decrypt, check, shared-access download) waits for its audit record: see ReadRecords. */
  readonly readAudit: 'required' | 'best-effort';
  /** How often the event log's stream heads are signed when it has grown: the longest window in which its end can be cut unseen. */
  readonly chainCheckpointIntervalMs: number;
  /**
   * Where each signed checkpoint is published as it is signed, outside the database: a directory
   * (one JSON file per checkpoint) and/or an HTTPS endpoint (a POST signed with `secret`).
   */
  readonly checkpointWitness: { readonly dir?: string; readonly url?: string; readonly secret?: string };
  readonly encryptionKey?: Buffer;
  /** Signs exports (`cms export`) and is required to import a signed one; HMAC-SHA-256. */
  readonly exportSigningKey?: Buffer;
  readonly allowPrivateTargets: boolean;
  readonly webhookAllowHttp: boolean;
  readonly schedulerBackoffUnitMs: number;
  readonly webhookRetryUnitMs: number;
  readonly ai: { readonly provider: 'builtin' | 'openai'; readonly baseUrl?: string; readonly apiKey?: string; readonly model?: string };
  readonly smtpUrl?: string;
  /** PEM file of extra certificate authorities trusted by outbound HTTPS calls. */
  readonly outboundCaFile?: string;
  /** Browser origins allowed to call the API (CORS); `*` for any. */
  readonly corsOrigins: '*' | readonly string[];
  /** Express's `trust proxy`: the client address comes from X-Forwarded-For as these proxies wrote it. */
  readonly trustProxy: number | readonly string[] | false;
  /** Requests per second per credential (per client address without one); 0 turns the limit off. */
  readonly rateLimitPerSecond: number;
  /**
   * The most content types and webhooks one workspace may have (0: no limit). Each type costs every
   * workspace index builds on the shared store, each webhook a delivery per matching event.
   */
  /** A rendition still rendering after this long is stopped (its render process killed) and answered 503. */
  readonly imageRenderTimeoutMs: number;
  readonly workspaceQuotas: { readonly contentTypes: number; readonly webhooks: number };
  /** Serve hot read-model documents and repeated query results from memory (CachingReadStore); off to measure the store itself. */
  readonly readCache: boolean;
  /** With the read cache on, also serve repeated query results (listings, totals, aggregates) from memory; off, only documents by id are. */
  readonly queryCache: boolean;
  /** The embedded engine (PGlite) checkpoints after this much WAL, in MB, recycling the WAL files before it. */
  readonly embeddedCheckpointWalMb: number;
  /** PostgreSQL cancels a read-model query running longer (0: never); PGlite cannot. */
  readonly readStatementTimeoutMs: number;
  /** How often a standby tries to take the projection lease, and its holder confirms it (projections/processes/leadership.ts). */
  readonly leaseCheckMs: number;
  /** An upload with no chunk for this long is ended and its chunks removed. */
  readonly uploadTtlMs: number;
  /** Per workspace, 0 for no limit: unfinished uploads, and bytes of asset files plus unfinished uploads' declared sizes. */
  readonly uploadLimits: { readonly pendingUploads: number; readonly storedBytes: number };
  /**
   * One workspace's costly reads (content queries, audit, history) served at once, how many
   * more wait, and for how long, before one is refused (503): its share of the read pool.
   */
  readonly readsPerWorkspace: { readonly max: number; readonly queue: number; readonly maxWaitMs: number };
  /**
   * The query index advisor (projections/processes/query-index-advisor.ts): on (`enabled`), it
   * declares the index of a query shape served `minCount` times in the recent window (one to two
   * `windowMs`) at `minMeanMs` or more on average, at most `budget` per type, looking every
   * `intervalMs`, and drops one no query read for `dropUnusedAfterMs`.
   */
  readonly queryAdvisor: {
    readonly enabled: boolean;
    readonly minCount: number;
    readonly minMeanMs: number;
    readonly windowMs: number;
    readonly intervalMs: number;
    readonly budget: number;
    readonly dropUnusedAfterMs: number;
  };
  readonly logLevel: string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; the only place that reads process.env. Throws ConfigError naming the first bad variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${String(issue.path[0])}: ${issue.message}`);
  }
  const env = parsed.data;
  const eventStore: EventStoreKind = env.EVENT_STORE ?? (env.DATABASE_URL ? 'postgres' : 'embedded');
  const readStore: ReadStoreKind = env.READ_STORE ?? (eventStore === 'eventstoredb' ? 'mongodb' : eventStore);
  const blobStore = env.BLOB_STORE ?? (env.S3_ENDPOINT ? 's3' : 'fs');

  requireWhen(eventStore === 'postgres' || readStore === 'postgres', 'DATABASE_URL', env.DATABASE_URL, 'postgres');
  if (env.READ_REPLICA_URLS.length > 0 && readStore !== 'postgres') throw new ConfigError('READ_REPLICA_URLS: needs READ_STORE=postgres (replicas of DATABASE_URL)');
  requireWhen(eventStore === 'eventstoredb', 'EVENTSTORE_URL', env.EVENTSTORE_URL, 'EVENT_STORE=eventstoredb');
  requireWhen(readStore === 'mongodb', 'MONGODB_URL', env.MONGODB_URL, 'READ_STORE=mongodb');
  if (env.MONGODB_READ_PREFERENCE !== 'primary' && readStore !== 'mongodb') throw new ConfigError('MONGODB_READ_PREFERENCE: needs READ_STORE=mongodb');
  requireWhen(blobStore === 's3', 'S3_ENDPOINT', env.S3_ENDPOINT, 'BLOB_STORE=s3');
  requireWhen(env.AI_PROVIDER === 'openai', 'AI_BASE_URL', env.AI_BASE_URL, 'AI_PROVIDER=openai');
  requireWhen(env.AI_PROVIDER === 'openai', 'AI_MODEL', env.AI_MODEL, 'AI_PROVIDER=openai');
  requireWhen(env.CHECKPOINT_WITNESS_URL !== undefined, 'CHECKPOINT_WITNESS_SECRET', env.CHECKPOINT_WITNESS_SECRET, 'CHECKPOINT_WITNESS_URL');
  const adminTokens = [...(env.ADMIN_TOKEN ? [{ name: DEFAULT_ADMIN_NAME, token: env.ADMIN_TOKEN }] : []), ...env.ADMIN_TOKENS];
  if (env.ADMIN_TOKEN && env.ADMIN_TOKENS.some((named) => named.name === DEFAULT_ADMIN_NAME || named.token === env.ADMIN_TOKEN)) {
    throw new ConfigError(`ADMIN_TOKENS: "${DEFAULT_ADMIN_NAME}" and ADMIN_TOKEN's token belong to ADMIN_TOKEN`);
  }

  return {
    port: env.PORT,
    dataDir: env.DATA_DIR,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    eventStore,
    readStore,
    blobStore,
    databaseUrl: env.DATABASE_URL,
    readReplicas: { urls: env.READ_REPLICA_URLS, maxLagMs: env.READ_REPLICA_MAX_LAG_MS },
    eventStoreUrl: env.EVENTSTORE_URL,
    mongoUrl: env.MONGODB_URL,
    mongoReads: { preference: env.MONGODB_READ_PREFERENCE, maxLagMs: env.READ_REPLICA_MAX_LAG_MS },
    s3: {
      endpoint: env.S3_ENDPOINT,
      accessKey: env.S3_ACCESS_KEY,
      secretKey: env.S3_SECRET_KEY,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
    },
    adminToken: env.ADMIN_TOKEN,
    adminTokens,
    readAudit: env.READ_AUDIT,
    chainCheckpointIntervalMs: env.CHAIN_CHECKPOINT_INTERVAL_MS,
    checkpointWitness: { dir: env.CHECKPOINT_WITNESS_DIR, url: env.CHECKPOINT_WITNESS_URL, secret: env.CHECKPOINT_WITNESS_SECRET },
    encryptionKey: env.ENCRYPTION_KEY ? Buffer.from(env.ENCRYPTION_KEY, 'base64') : undefined,
    exportSigningKey: env.EXPORT_SIGNING_KEY ? Buffer.from(env.EXPORT_SIGNING_KEY, 'base64') : undefined,
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    webhookAllowHttp: env.WEBHOOK_ALLOW_HTTP,
    schedulerBackoffUnitMs: env.SCHEDULER_BACKOFF_UNIT_MS,
    webhookRetryUnitMs: env.WEBHOOK_RETRY_UNIT_MS,
    ai: { provider: env.AI_PROVIDER, baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL },
    smtpUrl: env.SMTP_URL,
    outboundCaFile: env.OUTBOUND_CA_FILE,
    corsOrigins: env.CORS_ORIGINS,
    trustProxy: env.TRUST_PROXY,
    rateLimitPerSecond: env.RATE_LIMIT_PER_SECOND,
    imageRenderTimeoutMs: env.IMAGE_RENDER_TIMEOUT_MS,
    workspaceQuotas: { contentTypes: env.CONTENT_TYPES_PER_WORKSPACE, webhooks: env.WEBHOOKS_PER_WORKSPACE },
    embeddedCheckpointWalMb: env.EMBEDDED_CHECKPOINT_WAL_MB,
    readStatementTimeoutMs: env.READ_STATEMENT_TIMEOUT_MS,
    leaseCheckMs: env.LEASE_CHECK_MS,
    readsPerWorkspace: { max: env.READS_PER_WORKSPACE, queue: env.READ_QUEUE_PER_WORKSPACE, maxWaitMs: env.READ_QUEUE_WAIT_MS },
    readCache: env.READ_CACHE,
    queryCache: env.QUERY_CACHE,
    uploadTtlMs: env.UPLOAD_TTL_MS,
    uploadLimits: { pendingUploads: env.PENDING_UPLOADS_LIMIT, storedBytes: env.ASSET_QUOTA_BYTES },
    queryAdvisor: {
      enabled: env.QUERY_ADVISOR,
      minCount: env.QUERY_ADVISOR_MIN_COUNT,
      minMeanMs: env.QUERY_ADVISOR_MIN_MEAN_MS,
      windowMs: env.QUERY_ADVISOR_WINDOW_MS,
      intervalMs: env.QUERY_ADVISOR_INTERVAL_MS,
      budget: env.QUERY_ADVISOR_BUDGET,
      dropUnusedAfterMs: env.QUERY_ADVISOR_DROP_UNUSED_MS,
    },
    logLevel: env.LOG_LEVEL,
  };
}

function requireWhen(condition: boolean, variable: string, value: string | undefined, because: string): void {
  if (condition && !value) throw new ConfigError(`${variable}: required with ${because}`);
}
