// Generated from the service's OpenAPI document by scripts/generate-api-types.ts: do not edit.
// test/unit/sdk-openapi.test.ts fails when this file no longer matches the document.

export interface Problem {
  /** a URI naming the kind of problem */
  type: string;
  title: string;
  status: number;
  /** what went wrong, for people */
  detail: string;
  /** present on validation failures: one entry per offending field */
  errors?: Array<{
    /** dotted path of the offending input, e.g. fields.0.key, or body / query / path */
    field: string;
    message: string;
  }>;
}

export interface Success {
  success: boolean;
}

export type StringMap = Record<string, string>;

export interface WorkspaceInfo {
  id: string;
  name: string;
  ownerUserId: string | null;
  planType: string | null;
  planRecords: number | null;
  /** ISO 8601, UTC */
  activationDate: string;
  expirationDate: string | null;
}

export type WorkspaceInfoList = WorkspaceInfo[];

export interface ActionExecution {
  operationId: string;
  /** 0 Running, 1 Succeeded, -1 Failed */
  status: 0 | 1 | -1;
  /** when Succeeded */
  result: string | null;
  /** 0-100, as reported by the external service */
  progress: number | null;
  message: string | null;
  /** when Failed */
  error: string | null;
  /** ISO 8601, UTC */
  updatedAt: string;
}

export type ActionExecutionStarted = {
  /** synchronous mode: the external service answered 2xx */
  success: boolean;
  /** 0 when it could not be reached */
  statusCode: number;
  /** its answer, on success */
  result: string | null;
  /** why it failed */
  error: string | null;
  durationMs: number;
} | {
  /** callback mode: poll GET .../status */
  operationId: string;
  /** {PUBLIC_BASE_URL}/actions/callback/{workspaceId}/{operationId} */
  callbackUrl: string;
};

export interface ActionNavigateUrl {
  url: string;
}

export interface ActionCallbackRequest {
  success: boolean;
  result?: string | null;
  error?: string | null;
  message?: string | null;
  progress?: number | null;
}

/** where the declared indexes stand on the type's typed table: none (nothing declared), waiting (no typed table serves yet: they are built after its load), building (being created or dropped, or on the next pass within a second), built, failed (the last build failed; the service log says why, and it is tried again a minute later) */
export type QueryIndexState = 'none' | 'waiting' | 'building' | 'built' | 'failed';

export interface QueryIndex {
  /** in index order */
  fields: Array<{
    key: string;
    direction: 'asc' | 'desc';
  }>;
  /** a text index (prefix, prefix-folded, substring) on its one field; absent: a b-tree */
  text?: 'prefix' | 'prefix-folded' | 'substring';
  /** a b-tree an aggregate reads alone, holding text fields whole (see the request body) */
  covering?: true;
  /** declared by an operator, pinned (advised, then kept by an operator), or advised (declared by the advisor, which drops it when unused) */
  origin: 'declared' | 'pinned' | 'advised';
  /** when the advisor declared it */
  advisedAt?: string;
}

export interface ForbiddenQueryIndex {
  /** in index order */
  fields: Array<{
    key: string;
    direction: 'asc' | 'desc';
  }>;
  /** a text index (prefix, prefix-folded, substring) on its one field; absent: a b-tree */
  text?: 'prefix' | 'prefix-folded' | 'substring';
  /** a b-tree an aggregate reads alone, holding text fields whole (see the request body) */
  covering?: true;
}

export interface QueryIndexList {
  indexes: QueryIndex[];
  /** indexes the advisor may not declare */
  forbidden: ForbiddenQueryIndex[];
  state: QueryIndexState;
  /** indexes each write of one of the type's rows updates in its typed table (its primary key, its two own, the built query indexes; a substring index adds an entry per distinct trigram); null while no typed table serves */
  indexesPerWrite: number | null;
}

export interface QueryShape {
  /** tells shapes apart */
  key: string;
  /** a list or its ids, an aggregate, a grouped aggregate */
  kind: 'list' | 'aggregate' | 'group';
  /** asked with asOf (read from the versions table, which the advisor leaves lean) */
  asOf: boolean;
  /** the filter without its values, e.g. "category e and price gte"; empty for none */
  filter: string;
  order: Array<{
    fieldKey: string;
    direction: 'asc' | 'desc';
  }>;
  aggregate?: {
    fieldKey: string;
    operation: 'sum' | 'avg' | 'min' | 'max' | 'count';
    groupByFieldKey?: string;
  };
  /** queries of this shape since this instance first saw it */
  count: number;
  meanMs: number;
  totalMs: number;
  /** queries in the recent window (between one and two QUERY_ADVISOR_WINDOW_MS) */
  recentCount: number;
  recentMeanMs: number;
  firstSeen: string;
  lastSeen: string;
  /** the index that serves it, or that the advisor would declare; null when no index would serve it */
  index: {
    /** in index order */
    fields: Array<{
      key: string;
      direction: 'asc' | 'desc';
    }>;
    /** a text index (prefix, prefix-folded, substring) on its one field; absent: a b-tree */
    text?: 'prefix' | 'prefix-folded' | 'substring';
    /** a b-tree an aggregate reads alone, holding text fields whole (see the request body) */
    covering?: true;
  } | null;
  /** who keeps the index that serves it */
  servedBy: 'declared' | 'pinned' | 'advised' | null;
  /** indexed; candidate (declared at the advisor's next pass); below-threshold; forbidden; over-budget (the type has its budget of advised indexes); unindexable; advisor-off */
  status: 'indexed' | 'candidate' | 'below-threshold' | 'forbidden' | 'over-budget' | 'unindexable' | 'advisor-off';
}

export interface QueryShapeList {
  /** the advisor settings (QUERY_ADVISOR_*, docs/operations.md) */
  advisor: {
    enabled: boolean;
    minCount: number;
    minMeanMs: number;
    windowMs: number;
    intervalMs: number;
    budget: number;
    dropUnusedAfterMs: number;
  };
  shapes: QueryShape[];
}

export interface DeclareQueryIndexesRequest {
  /** the operator's whole list (declared and pinned): those not in it are dropped; advised ones stay unless forbidden */
  indexes: Array<{
    /** equality-filtered fields first, the sorted (or range-filtered) field last, or the sorted field, id, then the range-filtered one (id, the final key of every order, placed there); keys of typed fields or id, createdAt, updatedAt, publishedAt; a text index names one Text or RichText field */
    fields: Array<string | {
      key: string;
      /** desc serves `sortDir: Desc` on this field without a sort step Default: "asc". */
      direction?: 'asc' | 'desc';
    }>;
    /** a text index instead of a b-tree: prefix serves start, prefix-folded start with caseInsensitive, substring (trigrams) contains and end */
    text?: 'prefix' | 'prefix-folded' | 'substring';
    /** a b-tree an aggregate reads alone: it holds Text, RichText, Relation and Media fields whole (an ordinary b-tree keys them on a prefix), so a grouped aggregate reads its groups from the index; an item whose value there is 200 characters or longer is found through a small companion index */
    covering?: true;
    /** declared (the default) or pinned (an advised index the operator keeps: the advisor never drops it); an index sent as advised is left to the advisor, so a list read and written back changes nothing Default: "declared". */
    origin?: 'declared' | 'pinned' | 'advised';
  }>;
  /** indexes the advisor may never declare (the whole list; an advised one among them is dropped); omitted, the list stays as it is */
  forbidden?: Array<{
    /** equality-filtered fields first, the sorted (or range-filtered) field last, or the sorted field, id, then the range-filtered one (id, the final key of every order, placed there); keys of typed fields or id, createdAt, updatedAt, publishedAt; a text index names one Text or RichText field */
    fields: Array<string | {
      key: string;
      /** desc serves `sortDir: Desc` on this field without a sort step Default: "asc". */
      direction?: 'asc' | 'desc';
    }>;
    /** a text index instead of a b-tree: prefix serves start, prefix-folded start with caseInsensitive, substring (trigrams) contains and end */
    text?: 'prefix' | 'prefix-folded' | 'substring';
    /** a b-tree an aggregate reads alone: it holds Text, RichText, Relation and Media fields whole (an ordinary b-tree keys them on a prefix), so a grouped aggregate reads its groups from the index; an item whose value there is 200 characters or longer is found through a small companion index */
    covering?: true;
  }>;
}

export type WorkspacePolicy = 'ReadAccess' | 'WriteAccess' | 'AuditAccess';

export interface IssuedApiKey {
  id: string;
  /** shown once: only its hash is stored */
  key: string;
  policies: WorkspacePolicy[];
}

export interface ListedApiKey {
  id: string;
  name: string | null;
  policies: WorkspacePolicy[];
  /** ISO 8601, UTC */
  createdAt: string;
  /** null while the key works */
  revokedAt: string | null;
}

export type ApiKeyList = ListedApiKey[];

export interface TotpSecret {
  /** base32 */
  secret: string;
  otpauthUrl: string;
}

export interface RegisteredApp {
  id: string;
  /** the app's credential, shown once */
  key: string;
}

export interface RebuildStatus {
  id: string;
  /** the read models rebuilt: those asked for, with every read model they read while projecting (replayed with them) */
  projections: string[];
  state: 'running' | 'succeeded' | 'failed';
  phase: 'replaying' | 'indexing' | 'catching-up' | 'switching' | 'done';
  eventsProcessed: number;
  position: string;
  head: string;
  /** 0 to 1, by log position */
  fraction: number;
  /** ISO 8601, UTC */
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

export interface ContentTablesStatus {
  tables: Array<{
    workspaceId: string;
    contentType: string;
    /** building: content queries of the type use the JSONB read model until its new table is switched in */
    state: 'serving' | 'building' | 'removing';
    servingTable: string | null;
    wantedTable: string | null;
    queryIndexes: QueryIndexState;
  }>;
  /** the latest build of typed content tables since the service started */
  build: {
    /** workspaceId:contentType of each table the pass builds */
    contentTypes: string[];
    tables: string[];
    state: 'running' | 'succeeded' | 'failed';
    phase: 'replaying' | 'indexing' | 'catching-up' | 'switching' | 'done';
    eventsRead: number;
    /** events of the types built */
    eventsApplied: number;
    position: string;
    head: string;
    /** 0 to 1, by log position */
    fraction: number;
    /** ISO 8601, UTC */
    startedAt: string;
    finishedAt: string | null;
    error: string | null;
  } | null;
  /** content types whose table failed to build on its own (others' tables are built meanwhile); their queries read the JSONB read model until it is built */
  failures: Array<{
    /** workspaceId:contentType */
    contentType: string;
    table: string | null;
    attempts: number;
    error: string;
    /** ISO 8601, UTC */
    retryAt: string;
  }>;
}

export interface QuarantinedEvent {
  /** projection@position */
  id: string;
  /** the read model that could not apply the event */
  projection: string;
  eventId: string;
  position: string;
  stream: string;
  eventType: string;
  workspaceId: string | null;
  /** the store's or projector's message (it names the limit hit, never a value) */
  error: string;
  /** ISO 8601, UTC */
  quarantinedAt: string;
  /** null while the read model lacks the event; skipped by an operator, or applied by a rebuild */
  resolution: {
    outcome: 'skipped' | 'rebuilt';
    /** ISO 8601, UTC */
    at: string;
  } | null;
}

export interface ProjectionsStatus {
  /** position of the last event in the log */
  head: string;
  running: boolean;
  projections: Array<{
    name: string;
    collections: string[];
    /** the log position up to which the read model has applied events */
    checkpoint: string | null;
    atHead: boolean;
    /** events after the checkpoint, counted up to 1,000 */
    lagEvents: number;
    /** age of the oldest event not yet applied; 0 at the head */
    lagSeconds: number;
    /** the version of the read model this service builds */
    version: number;
    /** the version that built the read model the store holds: another than `version` after an upgrade that changed it, until its backfill is switched in; null when none was built */
    storedVersion: number | null;
  }>;
  /** the latest rebuild since the service started */
  rebuild: RebuildStatus | null;
  /** the typed read model of each content type */
  contentTables: ContentTablesStatus;
}

export interface CreateWorkspaceRequest {
  name: string;
  ownerUserId?: string | null;
  planType?: string | null;
  planRecords?: number | null;
  expirationDate?: string | null;
}

export interface IssueApiKeyRequest {
  name?: string | null;
  policies: WorkspacePolicy[];
}

export interface DataKeyActionRequest {
  reason: string;
}

export interface SchedulerSigningSecretRequest {
  secret: string;
}

export interface RegisterAppRequest {
  name: string;
  /** Default: {}. */
  parameters?: StringMap;
  /** Default: {}. */
  fieldMapping?: StringMap;
}

export interface InstallAppRequest {
  userId: string;
  /** Default: {}. */
  parameters?: StringMap;
  /** Default: {}. */
  fieldMapping?: StringMap;
}

export interface RebuildRequest {
  /** Default: []. */
  projections?: string[];
  /** rebuild even from a log whose hash chain is broken (by default a rebuild checks every event's chain hash and fails at the first break) Default: false. */
  skipChainCheck?: boolean;
}

export interface QuarantinedEventList {
  entries: QuarantinedEvent[];
}

export interface SkipQuarantinedEvent {
  reason: string;
}

export interface OperatorContentHistoryEntry {
  /** 1-based */
  version: number;
  type: string;
  /** ISO 8601, UTC */
  at: string;
  actor: string;
  clientInfo: string | null;
  /** the request id the event was written under (the client's X-Request-Id when it sent one) */
  correlationId: string;
  /** the server's own id of that request (X-Server-Request-Id, never chosen by a client); null for events written before it was recorded or not caused by a request */
  serverRequestId: string | null;
  contentType: string;
}

export type OperatorContentHistory = OperatorContentHistoryEntry[];

export interface ContentUndoItem {
  itemId: string;
  contentType: string;
  /** the item's version when planned */
  currentVersion: number;
  /** the version of the first matching change */
  firstChange: number;
  /** the version restored (the one before firstChange); null when the item is deleted or left alone */
  restoreVersion: number | null;
  action: 'restore' | 'delete' | 'unchanged' | 'conflict';
  /** what a restore does to the published stage, put back as it was before the first matching change: publish the content published then (a ContentPublished), unpublish (nothing was published then), or none (already as it was; always none for delete, unchanged and conflict) */
  publishedAction: 'publish' | 'unpublish' | 'none';
  /** changes by others after the first matching change (a conflict) */
  laterChanges: Array<{
    version: number;
    type: string;
    /** ISO 8601, UTC */
    at: string;
    actor: string;
  }>;
  /** what was done (absent in a dry run) */
  outcome?: 'restored' | 'deleted' | 'unchanged' | 'conflict' | 'failed';
  /** why it failed */
  detail?: string;
}

export interface ContentUndoRequest {
  selector: {
    /** the actor of the events: key:<keyId>, app:<appId> or admin (see history) */
    actor?: string;
    /** the server's id of the request the changes were made under (X-Server-Request-Id, serverRequestId in history and the audit feed); events written before it was recorded are selected by their X-Request-Id */
    requestId?: string;
    /** the client's X-Request-Id (requestId in history and the audit feed), which may span several requests; only with actor, since any client can send any value */
    correlationId?: string;
    /** changes at or after this time */
    from?: string;
    /** changes before this time */
    to?: string;
  };
  /** only answer what would be done Default: false. */
  dryRun?: boolean;
  /** required unless dryRun; kept in every event appended */
  reason?: string;
  /** revert only these items (the CLI sends the planned items in batches); without it the log is scanned for them */
  itemIds?: string[];
}

export interface ContentUndoResult {
  dryRun: boolean;
  items: ContentUndoItem[];
}

export interface WorkspaceSchema {
  format: 'cms-schema';
  version: 1;
  contentTypes?: Array<{
    /** the id a type created gets (kept from the environment exported); an existing type keeps its own */
    id?: string;
    definition: ContentTypeDefinition;
    /** Default: {"indexes":[],"forbidden":[]}. */
    queryIndexes?: {
      /** Default: []. */
      indexes?: Array<{
        fields: Array<{
          key: string;
          direction: 'asc' | 'desc';
        }>;
        text?: 'prefix' | 'prefix-folded' | 'substring';
        covering?: true;
        origin?: 'declared' | 'pinned';
      }>;
      /** Default: []. */
      forbidden?: Array<{
        fields: Array<{
          key: string;
          direction: 'asc' | 'desc';
        }>;
        text?: 'prefix' | 'prefix-folded' | 'substring';
        covering?: true;
      }>;
    };
    /** action id to header name to the environment variable the CLI reads its value from (the export shows (hidden)); never exported */
    actionHeadersFromEnv?: Record<string, Record<string, string>>;
  }>;
  locales?: Array<{
    code: string;
    name?: string;
    /** Default: null. */
    fallbackCode?: string | null;
    /** Default: false. */
    default?: boolean;
  }>;
  webhooks?: Array<{
    id: string;
    endpoint: string;
    /** Default: {}. */
    eventTypes?: Record<string, WebhookEventType[]>;
    /** Default: false. */
    useCustomPayload?: boolean;
    /** Default: null. */
    customPayload?: Record<string, unknown> | null;
    /** Default: "". */
    description?: string;
    /** Default: "". */
    errorEmailTo?: string;
    /** Default: true. */
    enabled?: boolean;
    /** the environment variable the CLI reads the signing secret from; never exported */
    secretFromEnv?: string;
  }>;
}

export interface SchemaChange {
  kind: 'locale' | 'contentType' | 'queryIndexes' | 'webhook';
  /** the content type key, locale code or webhook id */
  name: string;
  action: 'create' | 'update' | 'delete' | 'unchanged';
  /** what differs, in words */
  changes: string[];
  /** a deletion, a field removed or of another type: applied only with allowDestructive */
  destructive: boolean;
}

export interface SchemaPlan {
  workspaceId: string;
  /** true when the answer is of an apply, which made these changes */
  applied: boolean;
  /** in the order an apply takes them: locales, content types and their query indexes, webhooks, then deletions */
  changes: SchemaChange[];
  /** why the schema cannot be applied as it is; an apply refuses it with 400 while there is one */
  problems: Array<{
    field: string;
    message: string;
  }>;
}

export interface SchemaPlanRequest {
  schema: WorkspaceSchema;
  /** webhook id to its signing secret, for webhooks of the schema; a webhook created without one gets a generated secret, an existing one keeps its own Default: {}. */
  webhookSecrets?: Record<string, string>;
}

export interface SchemaApplyRequest {
  schema: WorkspaceSchema;
  /** webhook id to its signing secret, for webhooks of the schema; a webhook created without one gets a generated secret, an existing one keeps its own Default: {}. */
  webhookSecrets?: Record<string, string>;
  /** apply deletions, removed fields and changed field types too; without it a schema that makes one is refused (409) Default: false. */
  allowDestructive?: boolean;
}

export interface AiRunStarted {
  threadId: string;
  runId: string;
}

export type AiRunStatus = {
  status: 'in_progress' | 'completed';
} | {
  status: 'failed';
  /** why the run ended without an answer */
  error: string;
};

export interface AiAnswer {
  /** Markdown */
  response: string;
}

export interface AiPromptRequest {
  threadId?: string | null;
  prompt: string;
}

export interface AppSettings {
  parameters: StringMap;
  fieldMapping: StringMap;
}

export interface FileInfo {
  /** media type */
  contentType: string;
  /** MD5 of the content, hex */
  hash: string;
  fileSize: number;
  fileName: string;
}

export type AssetType = 'Image' | 'Video' | 'Audio' | 'Document' | 'Archive' | 'Other';

export interface Asset {
  id: string;
  title: string;
  description: string;
  fileInfo: FileInfo;
  assetType: AssetType;
  /** ISO 8601, UTC */
  lastUpdate: string;
}

export interface UploadStarted {
  id: string;
  title: string;
  description: string;
  fileInfo: FileInfo;
  /** null until the last chunk has arrived */
  assetType: AssetType | null;
  /** null until the last chunk has arrived */
  lastUpdate: string | null;
}

export interface AssetByHash {
  id: string;
  title: string;
  fileInfo: FileInfo;
}

export interface AssetPage {
  items: Asset[];
  page: number;
  pageSize: number;
  total: number;
}

export interface IssuedSharedAccessKey {
  /** shown once */
  sharedAccessKey: string;
  /** null: never expires */
  expiresAt: string | null;
  /** the anonymous download address */
  url: string;
}

export interface UploadChunkRequest {
  assetId: string;
  fileUploadId: string;
  originalFileName: string;
  chunkIndex: number;
  chunkSize: number;
  totalChunkCount: number;
  chunkByteOffset: number;
  totalFileSize: number;
  title?: string | null;
  description?: string | null;
  contentMD5?: string | null;
  ignoreCheckDuplicates?: boolean | null;
  clientInfo?: string | null;
  /** the bytes of this chunk, base64 */
  stream: string;
}

export type AssetId = string;

export interface AssetByHashRequest {
  hash: string;
  size: number;
}

export type NoAsset = null;

export interface AssetSearchRequest {
  /** Default: 1. */
  page?: number;
  /** Default: 20. */
  pageSize?: number;
  assetType?: 'Image' | 'Video' | 'Audio' | 'Document' | 'Archive' | 'Other' | null;
  text?: string | null;
}

export interface UpdateAssetRequest {
  title?: string | null;
  description?: string | null;
}

export type SharedAccessKeyRequest = {
  expiresInSeconds?: number | null;
} | null;

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  /** a JSON Pointer (RFC 6901) into the item */
  path: string;
  from?: string;
  value?: unknown;
}

export type JsonPatch = JsonPatchOperation[];

export interface ContentFieldV1 {
  /** the field type of the content type */
  type: string;
  key: string;
  /** depends on the type; an expanded Relation is a nested item (id, contentType, fields) */
  value: unknown;
}

export interface ContentItemV1 {
  id: string;
  contentType: string;
  fields: ContentFieldV1[];
  /** ISO 8601, UTC */
  createdAt: string;
  /** ISO 8601, UTC */
  updatedAt: string;
}

export interface ItemMetadata {
  /** ISO 8601, UTC */
  createdAt: string;
  /** ISO 8601, UTC */
  updatedAt: string;
  /** when last published; null for a draft never published */
  publishedAt: string | null;
  /** the item's version this answer reflects */
  version: number;
  stage: 'draft' | 'published';
}

export interface ContentItemV2 {
  id: string;
  /** field key to value; encrypted fields are never shown */
  fields: Record<string, unknown>;
  /** field key to locale code to value */
  translations: Record<string, Record<string, unknown>>;
  /** only when asked for: meta=true on an item read (not with asOf), meta: true in a list query */
  sys?: ItemMetadata;
}

export interface ContentIds {
  ids: string[];
  total: number;
}

export interface AggregateResult {
  /** null when nothing could be aggregated */
  value: number | null;
}

export interface AggregateGroupItem {
  groupValue: unknown;
  aggregateValue: number | null;
}

export interface AggregateGroups {
  items: AggregateGroupItem[];
}

export interface ContentPageV2 {
  items: ContentItemV2[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
  hasMorePages: boolean;
}

export interface ContentHistoryEntry {
  /** 1-based */
  version: number;
  /** the event type, e.g. ContentDraftSaved */
  type: string;
  /** ISO 8601, UTC */
  at: string;
  /** key:<keyId>, app:<appId> or admin; never a key */
  actor: string;
  actorKind: 'apiKey' | 'app' | 'admin' | 'system' | 'sharedAccessKey' | 'other';
  /** the key or app id, the admin token's name, or system */
  actorId: string;
  /** the key's, app's or admin's name when the event was written (for older events: the key's or app's name now) */
  actorName: string | null;
  clientInfo: string | null;
  /** the X-Request-Id of the request that wrote the event */
  requestId: string | null;
  /** the server's own id of that request (X-Server-Request-Id, never chosen by a client); null for events written before it was recorded or not caused by a request */
  serverRequestId: string | null;
  /** the content release whose publish or revert wrote it (docs/releases.md); absent otherwise */
  releaseId?: string;
}

export type ContentHistory = ContentHistoryEntry[];

export interface ContentIdsRequest {
  filter?: unknown;
  order?: unknown;
  /** Default: 1. */
  page?: number;
  /** Default: 100. */
  pageSize?: number;
  locale?: string | null;
  includeRelations?: string[] | null;
}

export interface AggregateRequest {
  fieldKey: string;
  aggregateType: string;
  filter?: unknown;
  /** ignored: the spec's examples carry "type": "condition" beside the other members */
  type?: string;
}

export interface AggregateGroupRequest {
  fieldKey: string;
  aggregateType: string;
  filter?: unknown;
  /** ignored: the spec's examples carry "type": "condition" beside the other members */
  type?: string;
  groupByFieldKey: string;
}

export interface ClientInfoRequest {
  clientInfo?: string | null;
}

export interface ContentVersion {
  /** the version asked for */
  version: number;
  /** when that version was written */
  at: string;
  /** the path's stage */
  stage: 'published' | 'draft';
  /** when the published content became what it was at that version */
  updatedAt: string;
  /** when the published content of that version was published; null when nothing was published then */
  publishedAt: string | null;
  item: ContentItemV1;
}

export interface ContentRestoreResult {
  /** the version the restore wrote */
  version: number;
  restoredFrom: number;
  /** the new draft */
  item: ContentItemV1;
}

export interface RestoreContentRequest {
  reason?: string | null;
  clientInfo?: string | null;
}

export interface EraseContentRequest {
  reason: string;
  clientInfo?: string | null;
}

export interface SaveContentV1Request {
  id?: string | null;
  contentType: string;
  fields: Array<{
    key: string;
    type?: string;
    value: unknown;
  }>;
  clientInfo?: string | null;
  /** ignored: when the item was created, as a read answers it */
  createdAt?: string | null;
  /** ignored: when it was last saved, as a read answers it */
  updatedAt?: string | null;
}

export interface ContentViewRequest {
  locale?: string | null;
  includeRelations?: string[] | null;
}

export interface PreviewContentVersion {
  /** the version asked for */
  version: number;
  /** when that version was written */
  at: string;
  /** the path's stage */
  stage: 'published' | 'draft';
  /** when the draft became what it was at that version */
  updatedAt: string;
  /** when the published content of that version was published; null when nothing was published then */
  publishedAt: string | null;
  item: ContentItemV1;
}

export interface PreviewContentRestoreResult {
  /** the version the restore wrote */
  version: number;
  restoredFrom: number;
  /** the new draft */
  item: ContentItemV1;
}

export interface ContentV2Version {
  /** the version asked for */
  version: number;
  /** when that version was written */
  at: string;
  /** the path's stage */
  stage: 'published' | 'draft';
  /** when the published content became what it was at that version */
  updatedAt: string;
  /** when the published content of that version was published; null when nothing was published then */
  publishedAt: string | null;
  item: ContentItemV2;
}

export interface ContentV2RestoreResult {
  /** the version the restore wrote */
  version: number;
  restoredFrom: number;
  /** the new draft */
  item: ContentItemV2;
}

export interface SaveContentV2Request {
  id?: string | null;
  fields: Record<string, unknown>;
  translations?: Record<string, unknown>;
  clientInfo?: string | null;
}

export interface ContentMergePatchV2Request {
  id?: string | null;
  fields?: Record<string, unknown> | null;
  translations?: Record<string, unknown> | null;
  clientInfo?: string | null;
}

export interface ContentSearchRequest {
  filter?: unknown;
  order?: unknown;
  /** Default: 1. */
  page?: number;
  /** Default: 20. */
  pageSize?: number;
  locale?: string | null;
  includeRelations?: string[] | null;
  meta?: boolean;
}

export interface PreviewContentV2Version {
  /** the version asked for */
  version: number;
  /** when that version was written */
  at: string;
  /** the path's stage */
  stage: 'published' | 'draft';
  /** when the draft became what it was at that version */
  updatedAt: string;
  /** when the published content of that version was published; null when nothing was published then */
  publishedAt: string | null;
  item: ContentItemV2;
}

export interface PreviewContentV2RestoreResult {
  /** the version the restore wrote */
  version: number;
  restoredFrom: number;
  /** the new draft */
  item: ContentItemV2;
}

export interface AuditEntry {
  eventId: string;
  /** the log position, commit/prepare: pass it as `after` to continue after this entry */
  position: string;
  stream: string;
  /** 0-based, within the stream */
  revision: number;
  /** the event type, e.g. ContentPublished, SecretAccessAttempted */
  type: string;
  /** ISO 8601, UTC */
  at: string;
  /** key:<keyId>, app:<appId>, admin or system, as stored */
  actor: string;
  actorKind: 'apiKey' | 'app' | 'admin' | 'system' | 'sharedAccessKey' | 'other';
  /** the key or app id, the admin token's name, or system */
  actorId: string;
  /** the key's, app's or admin's name when the event was written (for older events: the key's or app's name now) */
  actorName: string | null;
  /** the X-Request-Id of the request that caused it */
  requestId: string | null;
  /** the server's own id of that request (X-Server-Request-Id, never chosen by a client); null for events written before it was recorded or not caused by a request */
  serverRequestId: string | null;
  clientInfo: string | null;
  /** the content item or asset the event is about */
  itemId: string | null;
  /** allow-listed members of the event data (ids, names, field keys, outcomes); never values, secrets, hashes or URLs */
  summary: Record<string, string | number | boolean | null | Array<string | number>>;
}

export interface AuditPage {
  items: AuditEntry[];
  /** the position after which the next page starts; keep it to poll for newer entries */
  next: string | null;
  /** true when entries after this page already match */
  hasMore: boolean;
}

export interface EncryptFieldsRequest {
  id: string;
  encryptFields: Record<string, string>;
  clientInfo?: string | null;
}

export interface CheckEncryptedFieldsRequest {
  id: string;
  encryptFields: Record<string, string>;
}

export interface EncryptedFieldsMatch {
  match: boolean;
}

export interface DecryptFieldsRequest {
  id: string;
  encryptFieldKeys: string[];
  totpCode: string;
}

export interface DecryptedFields {
  /** null for a field with no stored value */
  fields: Record<string, string | null>;
}

export interface FieldDefinition {
  key: string;
  type: 'Text' | 'RichText' | 'Number' | 'Boolean' | 'DateTime' | 'Relation' | 'References' | 'Media' | 'Json' | 'Encrypted';
  name: string;
  required: boolean;
  translatable: boolean;
  sortIndex: number;
  /** Relation and References fields: the content type the relation points to, when restricted; must name a content type of the workspace (or this one) */
  relationContentType: string | null;
  /** extension (Text, Number, DateTime, Relation, Media): no two items of the type hold the same value in one stage (draft, published) */
  unique?: boolean;
  /** extension (Text, RichText, Number, Boolean, DateTime, Json): the value a new item gets when its save leaves the field out */
  default?: unknown;
  /** extension (Number: a number; DateTime: a date-time): the smallest value allowed */
  min?: number | string;
  /** extension (Number, DateTime): the largest value allowed */
  max?: number | string;
  /** extension (Text, RichText): the fewest characters a value may have */
  minLength?: number;
  /** extension (Text, RichText): the most characters a value may have */
  maxLength?: number;
  /** extension (Text): an RE2 regular expression a value must contain a match of (anchor with ^ and $); at most 200 characters and 100 program instructions */
  pattern?: string;
  /** extension (Text, Number): the values allowed, 1 to 100 */
  enum?: Array<string | number>;
}

export interface BreakingProblem {
  field: string;
  /** required, unique, or what the rule says of the value (must be at most 5) */
  rule: string;
  stage: 'draft' | 'published';
  /** how many items of the stage break it */
  items: number;
  /** ids of up to 5 of them */
  examples: string[];
}

export interface ContentTypeChangeReport {
  contentType: string;
  /** fields whose rules change (new fields included): only their stored values are checked */
  changedFields: string[];
  /** draft and published documents read */
  checked: number;
  /** false when a stage holds more than 10,000 items: the rest were not read */
  complete: boolean;
  problems: BreakingProblem[];
  /** a save needs ?confirmBreakingChanges=true: stored items break, or the check was not complete */
  breaking: boolean;
}

export interface ActionDefinition {
  id: string;
  name: string;
  url: string;
  method: string;
  useCallback: boolean;
  payloadMode: 'None' | 'IdOnly' | 'FullEntity' | 'CustomTemplate';
  /** JSON template with {{id}}, {{contentType}}, {{workspaceId}}, {{callbackUrl}}, {{fields.KEY}}; null unless payloadMode is CustomTemplate */
  customTemplate: unknown;
  /** values show as (hidden); sending (hidden) keeps the stored value only while url is unchanged */
  headers: Record<string, string>;
  navigateUrl: string | null;
}

export interface ContentType {
  id: string;
  name: string;
  key: string;
  icon: string | null;
  groupName: string | null;
  fieldTitleKey: string | null;
  sortIndex: number;
  versioningDisabled: boolean;
  /** extension: the items hold personal data; their values are stored sealed under a key per item, so an item can be erased (POST .../erase) */
  personalData: boolean;
  fields: FieldDefinition[];
  actions: ActionDefinition[];
  /** ISO 8601, UTC */
  createdAt: string;
  /** ISO 8601, UTC */
  updatedAt: string;
}

export type ContentTypeList = ContentType[];

export interface ContentTypeDefinition {
  name: string;
  key: string;
  icon?: string | null;
  groupName?: string | null;
  fieldTitleKey?: string | null;
  /** Default: 0. */
  sortIndex?: number;
  /** Default: false. */
  versioningDisabled?: boolean;
  /** Default: false. */
  personalData?: boolean;
  fields: Array<{
    key: string;
    type: 'Text' | 'RichText' | 'Number' | 'Boolean' | 'DateTime' | 'Relation' | 'References' | 'Media' | 'Json' | 'Encrypted';
    name?: string | null;
    /** Default: false. */
    required?: boolean;
    /** Default: false. */
    translatable?: boolean;
    /** Default: 0. */
    sortIndex?: number;
    relationContentType?: string | null;
    unique?: boolean | null;
    default?: unknown | null;
    min?: number | string | null;
    max?: number | string | null;
    minLength?: number | null;
    maxLength?: number | null;
    pattern?: string | null;
    enum?: Array<string | number> | null;
  }>;
  actions?: Array<{
    id: string;
    /** Default: "". */
    name?: string;
    url: string;
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    /** Default: false. */
    useCallback?: boolean;
    /** Default: "IdOnly". */
    payloadMode?: 'None' | 'IdOnly' | 'FullEntity' | 'CustomTemplate';
    customTemplate?: unknown;
    /** Default: {}. */
    headers?: Record<string, string>;
    navigateUrl?: string | null;
  }>;
  /** ignored: a type may be sent back as a read shows it */
  id?: unknown;
  /** ignored: a type may be sent back as a read shows it */
  createdAt?: unknown;
  /** ignored: a type may be sent back as a read shows it */
  updatedAt?: unknown;
}

export interface SignedImageUrl {
  /** the address to put in <img src>: no credential needed */
  url: string;
  /** when the URL stops working (rounded up to the hour) */
  expiresAt: string;
  /** the file version the URL names: a new upload needs a new URL */
  assetVersion: number;
}

export interface RotatedImageSigningKey {
  /** the number of the key now signing (1 before any rotation) */
  generation: number;
  /** URLs signed with the key before are accepted until then */
  previousKeyValidUntil: string;
}

export interface SignImageUrlRequest {
  width?: number;
  height?: number;
  quality?: number;
  format?: 'jpeg' | 'png' | 'webp' | 'avif';
  enlarge?: boolean;
  expiresInSeconds?: number;
}

export interface RotateImageSigningKeyRequest {
  previousKeyGraceSeconds?: number;
}

export interface Locale {
  code: string;
  name: string;
  fallbackCode: string | null;
  default: boolean;
}

export type LocaleList = Locale[];

export interface SaveLocaleRequest {
  code: string;
  name?: string | null;
  fallbackCode?: string | null;
  default?: boolean;
}

export interface Liveness {
  status: 'ok';
}

export interface Readiness {
  /** unavailable: a check is down; degraded: a check needs an operator while the instance serves */
  status: 'ok' | 'degraded' | 'unavailable';
  /** each store by name, the projections, and eventLog (degraded while the log fails a tamper check: see the service audit feed, GET /admin/audit) */
  checks: Record<string, 'up' | 'down' | 'degraded'>;
}

export interface ServerTime {
  /** Unix time in milliseconds */
  value: number;
}

export interface ReleaseEntry {
  itemId: string;
  contentType: string;
  action: 'publish' | 'unpublish' | 'delete';
  /** the item's version when added, or the pinned version */
  version: number;
  /** publishes the draft of `version` even if the item changed since; unpinned entries are refused when it changed */
  pinned: boolean;
  /** Open releases: why the entry could not be published now, or null */
  problem?: string | null;
  /** Open releases: RFC 6902 operations from the published content now to what the release publishes (null when it has a problem or `diffLeftOut`) */
  diff?: Array<{
    op: 'add' | 'replace' | 'remove';
    path: string;
    value?: unknown;
  }> | null;
  /** why this answer left out the entry's diff (its diff budget was spent, or a pinned draft lies far back in the item's history); getReleaseEntry answers it */
  diffLeftOut?: string;
}

export interface Release {
  id: string;
  name: string;
  status: 'Open' | 'Published' | 'Failed' | 'Cancelled' | 'Reverted';
  /** ISO 8601, UTC */
  createdAtUtc: string;
  /** ISO 8601, UTC */
  updatedAtUtc: string;
  /** Open: when it publishes itself, or null */
  publishAtUtc: string | null;
  publishedAtUtc: string | null;
  /** Failed: why its scheduled publish was refused (nothing was published) */
  problems: string[];
  revertedAtUtc: string | null;
  revertReason: string | null;
  /** how many entries the release holds */
  itemCount: number;
  /** the page of entries in `items` */
  page: number;
  pageSize: number;
  /** more entries follow this page */
  hasMore: boolean;
  /** one page of entries, in the order first added */
  items: ReleaseEntry[];
}

export interface ReleasePage {
  items: Array<{
    id: string;
    name: string;
    status: 'Open' | 'Published' | 'Failed' | 'Cancelled' | 'Reverted';
    /** ISO 8601, UTC */
    createdAtUtc: string;
    /** ISO 8601, UTC */
    updatedAtUtc: string;
    /** Open: when it publishes itself, or null */
    publishAtUtc: string | null;
    publishedAtUtc: string | null;
    /** Failed: why its scheduled publish was refused (nothing was published) */
    problems: string[];
    revertedAtUtc: string | null;
    revertReason: string | null;
    itemCount: number;
  }>;
  page: number;
  pageSize: number;
  hasMore: boolean;
}

export interface ReleaseValidation {
  valid: boolean;
  problems: Array<{
    itemId: string;
    problem: string;
  }>;
}

export interface CreateReleaseRequest {
  name: string;
}

export interface ItemScheduleRequest {
  itemId: string;
  contentType: string;
  /** publishes the draft as it is now at this time */
  publishAt?: string | null;
  /** unpublishes the item at this time */
  unpublishAt?: string | null;
}

export interface ItemSchedule {
  releases: Release[];
}

export interface ReleaseHistory {
  page: number;
  pageSize: number;
  hasMore: boolean;
  items: Array<{
    /** 1 for the creation, then one per event */
    revision: number;
    type: 'ReleaseCreated' | 'ReleaseItemSet' | 'ReleaseItemRemoved' | 'ReleaseScheduled' | 'ReleasePublished' | 'ReleaseFailed' | 'ReleaseCancelled' | 'ReleaseReverted';
    /** ISO 8601, UTC */
    at: string;
    actorKind: 'apiKey' | 'app' | 'admin' | 'system' | 'sharedAccessKey' | 'other';
    actorId: string;
    actorName: string | null;
    requestId: string | null;
    serverRequestId: string | null;
    /** what the event recorded: the entry (itemId, contentType, action, version, pinned), publishAt, problems, items, reason */
    change: Record<string, unknown>;
  }>;
}

export interface ReleaseItemRequest {
  contentType: string;
  action: 'publish' | 'unpublish' | 'delete';
  /** pins the release to the draft of this version; absent: the item as it is now, refused at publish if it changes */
  version?: number;
}

export interface ReleaseItemsRequest {
  items: Array<{
    contentType: string;
    action: 'publish' | 'unpublish' | 'delete';
    /** pins the release to the draft of this version; absent: the item as it is now, refused at publish if it changes */
    version?: number;
    itemId: string;
  }>;
}

export interface ScheduleReleaseRequest {
  /** when the release publishes itself (sub-second precision); null clears the schedule */
  publishAt: string | null;
}

export interface RevertReleaseRequest {
  reason: string;
}

export interface ScheduledJob {
  id: string;
  name: string | null;
  status: 'Pending' | 'Firing' | 'Done' | 'DeadLetter' | 'Cancelled';
  /** shared by every occurrence of a recurring job */
  seriesId: string;
  /** 1, 2, ... per occurrence */
  occurrenceNumber: number;
  /** when this occurrence is planned */
  fireAtUtc: string;
  /** Pending only: the planned time or the retry time */
  nextAttemptAtUtc: string | null;
  callbackUrl: string;
  method: string;
  /** names only: every value shows as (hidden) */
  headers: Record<string, string>;
  /** sent byte for byte as the client wrote it */
  payload: unknown;
  maxRetries: number;
  /** sent as Svc-Idempotency-Key */
  idempotencyKey: string;
  correlationId: string | null;
  recurrenceSeconds: number | null;
  scheduleTimes: string[] | null;
  scheduleDaysOfWeek: number[] | null;
  endAtUtc: string | null;
  maxOccurrences: number | null;
  attempts: number;
  lastAttemptAtUtc: string | null;
  lastStatusCode: number | null;
  lastMessage: string | null;
  /** ISO 8601, UTC */
  createdAtUtc: string;
  /** ISO 8601, UTC */
  updatedAtUtc: string;
  /** when it reached Done, DeadLetter or Cancelled; removed 30 days later */
  completedAtUtc: string | null;
}

export interface ScheduledJobPage {
  items: ScheduledJob[];
  page: number;
  pageSize: number;
  /** another page follows (no total: counting a busy workspace would cost more than the page) */
  hasMore: boolean;
}

export interface ScheduleJobRequest {
  name?: string | null;
  delaySeconds?: number | null;
  fireAtUtc?: string | null;
  callbackUrl: string;
  method?: string | null;
  headers?: Record<string, string> | null;
  payload?: unknown;
  maxRetries?: number | null;
  idempotencyKey?: string | null;
  correlationId?: string | null;
  recurrenceSeconds?: number | null;
  scheduleTimes?: string[] | null;
  scheduleDaysOfWeek?: number[] | null;
  endAtUtc?: string | null;
  maxOccurrences?: number | null;
}

export type WebhookEventType = 0 | 1 | 2 | 3 | 4 | 5;

/** -1 Error, 0 Waiting, 1 Processing, 2 Sent */
export type WebhookProcessStatus = -1 | 0 | 1 | 2;

export interface Webhook {
  id: string;
  endpoint: string;
  /** signs every delivery: Svc-Signature t={unix seconds},s={hex HMAC-SHA256 of "{t}.{body}"} */
  secret: string;
  /** content type key to the event types that fire: 0 Published, 1 Unpublished, 2 Deleted, 3 PublishedCreated, 4 PublishedUpdated */
  eventTypes: Record<string, WebhookEventType[]>;
  useCustomPayload: boolean;
  customPayload: Record<string, unknown> | null;
  description: string;
  /** comma-separated e-mail addresses told about repeated failures */
  errorEmailTo: string;
  enabled: boolean;
}

export interface WebhookDelivery {
  id: string;
  webhookId: string;
  /** ISO 8601, UTC */
  dateInsert: string;
  /** ISO 8601, UTC */
  lastUpdate: string;
  eventType: WebhookEventType;
  contentId: string;
  contentType: string;
  fields: Record<string, unknown>;
  translations: Record<string, Record<string, unknown>>;
  customPayload: Record<string, unknown> | null;
  processStatus: WebhookProcessStatus;
  responseStatusCode: number;
  isResponseSuccessStatusCode: boolean;
  responseMessage: string;
}

export interface WebhookDeliveryDetail {
  id: string;
  webhookId: string;
  /** ISO 8601, UTC */
  dateInsert: string;
  /** ISO 8601, UTC */
  lastUpdate: string;
  eventType: WebhookEventType;
  contentId: string;
  contentType: string;
  fields: Record<string, unknown>;
  translations: Record<string, Record<string, unknown>>;
  customPayload: Record<string, unknown> | null;
  processStatus: WebhookProcessStatus;
  responseStatusCode: number;
  isResponseSuccessStatusCode: boolean;
  responseMessage: string;
  attempts: Array<{
    attempt: number;
    /** ISO 8601, UTC */
    at: string;
    /** 0: never reached the server */
    statusCode: number;
    message: string;
    durationMs: number;
  }>;
  /** when a Waiting entry is due */
  nextAttemptAt: string | null;
}

export interface WebhookDeliveryPage {
  items: WebhookDelivery[];
  page: number;
  pageSize: number;
  total: number;
}

export interface WebhookTestResult {
  isSuccessStatusCode: boolean;
  /** 0 when the request never reached the server */
  statusCode: number;
  /** the response body, at most 2000 characters, or the client-side error */
  message: string;
  durationMs: number;
}

export type WebhookList = Webhook[];

export interface SaveWebhookRequest {
  id?: string | null;
  endpoint: string;
  secret?: string | null;
  eventTypes?: Record<string, WebhookEventType[]> | null;
  useCustomPayload?: boolean | null;
  customPayload?: Record<string, unknown> | null;
  description?: string | null;
  errorEmailTo?: string | null;
  enabled?: boolean | null;
}

/** Every operation of the document, by operationId. */
export interface Operations {
  /** GET /content-types: List content types with their field schemas */
  listContentTypes: {
    method: 'get';
    path: '/content-types';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: ContentTypeList;
  };
  /** PUT /content-types: Create or update a content type (matched by key) */
  saveContentType: {
    method: 'put';
    path: '/content-types';
    pathParams: never;
    query: {
      /** true: save a change of field rules that stored items break (they keep their values until their next save) */
      confirmBreakingChanges?: 'true' | 'false';
    };
    headers: never;
    body: ContentTypeDefinition;
    response: ContentType;
  };
  /** GET /content-types/{key}: Get a content type */
  getContentType: {
    method: 'get';
    path: '/content-types/{key}';
    pathParams: {
      /** the content type key */
      key: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ContentType;
  };
  /** DELETE /content-types/{key}: Delete an empty content type */
  deleteContentType: {
    method: 'delete';
    path: '/content-types/{key}';
    pathParams: {
      /** the content type key */
      key: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Success;
  };
  /** POST /content-types/check: Check what saving a content type would do to its stored items (a dry run: nothing is saved) */
  checkContentTypeChange: {
    method: 'post';
    path: '/content-types/check';
    pathParams: never;
    query: never;
    headers: never;
    body: ContentTypeDefinition;
    response: ContentTypeChangeReport;
  };
  /** GET /contents/{type}/{id}/history: History of a content item: every event of its stream (V1 path) */
  getContentHistory: {
    method: 'get';
    path: '/contents/{type}/{id}/history';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ContentHistory;
  };
  /** GET /contents/{type}/{id}/versions/{n}: The published content of a content item as it was at version n */
  getContentVersion: {
    method: 'get';
    path: '/contents/{type}/{id}/versions/{n}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
      /** the version, 1-based (see history) */
      n: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ContentVersion;
  };
  /** POST /contents/{type}/{id}/versions/{n}/restore: Make the published content of version n the draft again */
  restoreContentVersion: {
    method: 'post';
    path: '/contents/{type}/{id}/versions/{n}/restore';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
      /** the version, 1-based (see history) */
      n: string;
    };
    query: never;
    headers: never;
    body: RestoreContentRequest;
    response: ContentRestoreResult;
  };
  /** GET /contents/{type}/{id}/diff: An RFC 6902 JSON Patch from the published content at one version to another */
  diffContentVersions: {
    method: 'get';
    path: '/contents/{type}/{id}/diff';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: {
      /** the version to start from */
      from: number;
      /** the version to reach */
      to: number;
    };
    headers: never;
    body: never;
    response: JsonPatch;
  };
  /** POST /contents/{type}/{id}/erase: Erase a content item of a personal-data content type (crypto-shredding) */
  eraseContent: {
    method: 'post';
    path: '/contents/{type}/{id}/erase';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: EraseContentRequest;
    response: Success;
  };
  /** PUT /contents/{type}: Create or update and publish at once (V1) */
  saveContent: {
    method: 'put';
    path: '/contents/{type}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: SaveContentV1Request;
    response: ContentItemV1;
  };
  /** PUT /contents/{type}/{id}/unpublish: Unpublish: the item leaves the published endpoints, its draft stays */
  unpublishContent: {
    method: 'put';
    path: '/contents/{type}/{id}/unpublish';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ClientInfoRequest;
    response: Success;
  };
  /** DELETE /contents/{type}/{id}: Delete the item: its published content and its draft */
  deleteContent: {
    method: 'delete';
    path: '/contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ClientInfoRequest;
    response: Success;
  };
  /** GET /contents/{type}/{id}: Get a published V1 item */
  getContent: {
    method: 'get';
    path: '/contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: {
      /** an ISO 8601 date-time: the item as this path served it then */
      asOf?: string;
    };
    headers: never;
    body: never;
    response: ContentItemV1;
  };
  /** POST /contents/{type}/{id}: Get an item translated for a locale, with relations expanded inline */
  viewContent: {
    method: 'post';
    path: '/contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ContentViewRequest;
    response: ContentItemV1;
  };
  /** POST /contents/{type}/ids: Ids of the published V1 items matching a filter */
  listContentIds: {
    method: 'post';
    path: '/contents/{type}/ids';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
    };
    headers: never;
    body: ContentIdsRequest;
    response: ContentIds;
  };
  /** GET /contents/{type}/ids: Ids of the published V1 items matching a filter (query in the query string) */
  getContentIds: {
    method: 'get';
    path: '/contents/{type}/ids';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      filter?: string;
      order?: string;
      /** Default: 1. */
      page?: number;
      /** Default: 100. */
      pageSize?: number;
      locale?: string | null;
      includeRelations?: string;
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
    };
    headers: never;
    body: never;
    response: ContentIds;
  };
  /** POST /contents/{type}/aggregate: Sum, Avg, Min, Max or Count of a field over the published V1 items matching a filter */
  aggregateContent: {
    method: 'post';
    path: '/contents/{type}/aggregate';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
    };
    headers: never;
    body: AggregateRequest;
    response: AggregateResult;
  };
  /** GET /contents/{type}/aggregate: Sum, Avg, Min, Max or Count of a field over the published V1 items matching a filter (query in the query string) */
  getContentAggregate: {
    method: 'get';
    path: '/contents/{type}/aggregate';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      fieldKey: string;
      aggregateType: string;
      filter?: string;
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
    };
    headers: never;
    body: never;
    response: AggregateResult;
  };
  /** POST /contents/{type}/aggregategroup: An aggregate per distinct value of another field */
  aggregateGroupsContent: {
    method: 'post';
    path: '/contents/{type}/aggregategroup';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
    };
    headers: never;
    body: AggregateGroupRequest;
    response: AggregateGroups;
  };
  /** GET /contents/{type}/aggregategroup: An aggregate per distinct value of another field (query in the query string) */
  getContentAggregateGroups: {
    method: 'get';
    path: '/contents/{type}/aggregategroup';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      fieldKey: string;
      aggregateType: string;
      filter?: string;
      groupByFieldKey: string;
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
    };
    headers: never;
    body: never;
    response: AggregateGroups;
  };
  /** GET /preview-contents/{type}/{id}/history: History of a content item: every event of its stream (V1 path) */
  getPreviewContentHistory: {
    method: 'get';
    path: '/preview-contents/{type}/{id}/history';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ContentHistory;
  };
  /** GET /preview-contents/{type}/{id}/versions/{n}: The draft of a content item as it was at version n */
  getPreviewContentVersion: {
    method: 'get';
    path: '/preview-contents/{type}/{id}/versions/{n}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
      /** the version, 1-based (see history) */
      n: string;
    };
    query: never;
    headers: never;
    body: never;
    response: PreviewContentVersion;
  };
  /** POST /preview-contents/{type}/{id}/versions/{n}/restore: Make the draft of version n the draft again */
  restorePreviewContentVersion: {
    method: 'post';
    path: '/preview-contents/{type}/{id}/versions/{n}/restore';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
      /** the version, 1-based (see history) */
      n: string;
    };
    query: never;
    headers: never;
    body: RestoreContentRequest;
    response: PreviewContentRestoreResult;
  };
  /** GET /preview-contents/{type}/{id}/diff: An RFC 6902 JSON Patch from the draft at one version to another */
  diffPreviewContentVersions: {
    method: 'get';
    path: '/preview-contents/{type}/{id}/diff';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: {
      /** the version to start from */
      from: number;
      /** the version to reach */
      to: number;
    };
    headers: never;
    body: never;
    response: JsonPatch;
  };
  /** PUT /preview-contents/{type}: Create or update a draft (V1) */
  savePreviewContent: {
    method: 'put';
    path: '/preview-contents/{type}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: SaveContentV1Request;
    response: ContentItemV1;
  };
  /** PUT /preview-contents/{type}/{id}/publish: Publish the draft: it becomes the published content */
  publishPreviewContent: {
    method: 'put';
    path: '/preview-contents/{type}/{id}/publish';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ClientInfoRequest;
    response: Success;
  };
  /** DELETE /preview-contents/{type}/{id}: Delete the draft permanently (with nothing published, the item ends) */
  deletePreviewContent: {
    method: 'delete';
    path: '/preview-contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ClientInfoRequest;
    response: Success;
  };
  /** GET /preview-contents/{type}/{id}: Get a draft V1 item */
  getPreviewContent: {
    method: 'get';
    path: '/preview-contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: {
      /** an ISO 8601 date-time: the item as this path served it then */
      asOf?: string;
    };
    headers: never;
    body: never;
    response: ContentItemV1;
  };
  /** POST /preview-contents/{type}/{id}: Get an item translated for a locale, with relations expanded inline */
  viewPreviewContent: {
    method: 'post';
    path: '/preview-contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ContentViewRequest;
    response: ContentItemV1;
  };
  /** POST /preview-contents/{type}/ids: Ids of the draft V1 items matching a filter */
  listPreviewContentIds: {
    method: 'post';
    path: '/preview-contents/{type}/ids';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: ContentIdsRequest;
    response: ContentIds;
  };
  /** GET /preview-contents/{type}/ids: Ids of the draft V1 items matching a filter (query in the query string) */
  getPreviewContentIds: {
    method: 'get';
    path: '/preview-contents/{type}/ids';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      filter?: string;
      order?: string;
      /** Default: 1. */
      page?: number;
      /** Default: 100. */
      pageSize?: number;
      locale?: string | null;
      includeRelations?: string;
    };
    headers: never;
    body: never;
    response: ContentIds;
  };
  /** POST /preview-contents/{type}/aggregate: Sum, Avg, Min, Max or Count of a field over the draft V1 items matching a filter */
  aggregatePreviewContent: {
    method: 'post';
    path: '/preview-contents/{type}/aggregate';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: AggregateRequest;
    response: AggregateResult;
  };
  /** GET /preview-contents/{type}/aggregate: Sum, Avg, Min, Max or Count of a field over the draft V1 items matching a filter (query in the query string) */
  getPreviewContentAggregate: {
    method: 'get';
    path: '/preview-contents/{type}/aggregate';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      fieldKey: string;
      aggregateType: string;
      filter?: string;
    };
    headers: never;
    body: never;
    response: AggregateResult;
  };
  /** POST /preview-contents/{type}/aggregategroup: An aggregate per distinct value of another field */
  aggregateGroupsPreviewContent: {
    method: 'post';
    path: '/preview-contents/{type}/aggregategroup';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: AggregateGroupRequest;
    response: AggregateGroups;
  };
  /** GET /preview-contents/{type}/aggregategroup: An aggregate per distinct value of another field (query in the query string) */
  getPreviewContentAggregateGroups: {
    method: 'get';
    path: '/preview-contents/{type}/aggregategroup';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      fieldKey: string;
      aggregateType: string;
      filter?: string;
      groupByFieldKey: string;
    };
    headers: never;
    body: never;
    response: AggregateGroups;
  };
  /** GET /v2/contents/{type}/{id}/history: History of a content item: every event of its stream (V2 path) */
  getContentV2History: {
    method: 'get';
    path: '/v2/contents/{type}/{id}/history';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ContentHistory;
  };
  /** GET /v2/contents/{type}/{id}/versions/{n}: The published content of a content item as it was at version n */
  getContentV2Version: {
    method: 'get';
    path: '/v2/contents/{type}/{id}/versions/{n}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
      /** the version, 1-based (see history) */
      n: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ContentV2Version;
  };
  /** POST /v2/contents/{type}/{id}/versions/{n}/restore: Make the published content of version n the draft again */
  restoreContentV2Version: {
    method: 'post';
    path: '/v2/contents/{type}/{id}/versions/{n}/restore';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
      /** the version, 1-based (see history) */
      n: string;
    };
    query: never;
    headers: never;
    body: RestoreContentRequest;
    response: ContentV2RestoreResult;
  };
  /** GET /v2/contents/{type}/{id}/diff: An RFC 6902 JSON Patch from the published content at one version to another */
  diffContentV2Versions: {
    method: 'get';
    path: '/v2/contents/{type}/{id}/diff';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: {
      /** the version to start from */
      from: number;
      /** the version to reach */
      to: number;
    };
    headers: never;
    body: never;
    response: JsonPatch;
  };
  /** POST /v2/contents/{type}/{id}/erase: Erase a content item of a personal-data content type (crypto-shredding) */
  eraseContentV2: {
    method: 'post';
    path: '/v2/contents/{type}/{id}/erase';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: EraseContentRequest;
    response: Success;
  };
  /** PUT /v2/contents/{type}: Create or update and publish at once (V2) */
  saveContentV2: {
    method: 'put';
    path: '/v2/contents/{type}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: SaveContentV2Request;
    response: ContentItemV2;
  };
  /** POST /v2/contents/{type}: Search published V2 items: filter, order, page, translate, expand relations */
  searchContentV2: {
    method: 'post';
    path: '/v2/contents/{type}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
      /** the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: ContentSearchRequest;
    response: ContentPageV2;
  };
  /** GET /v2/contents/{type}: Search published V2 items: filter, order, page, translate, expand relations (query in the query string) */
  listContentV2: {
    method: 'get';
    path: '/v2/contents/{type}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      filter?: string;
      order?: string;
      /** Default: 1. */
      page?: number;
      /** Default: 20. */
      pageSize?: number;
      locale?: string | null;
      includeRelations?: string;
      meta?: boolean;
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
      /** the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: never;
    response: ContentPageV2;
  };
  /** PATCH /v2/contents/{type}/{id}: Change some fields of the published item and publish at once (JSON Merge Patch) */
  patchContentV2: {
    method: 'patch';
    path: '/v2/contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ContentMergePatchV2Request;
    response: ContentItemV2;
  };
  /** DELETE /v2/contents/{type}/{id}: Delete the item: its published content and its draft */
  deleteContentV2: {
    method: 'delete';
    path: '/v2/contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ClientInfoRequest;
    response: Success;
  };
  /** GET /v2/contents/{type}/{id}: Get a published V2 item */
  getContentV2: {
    method: 'get';
    path: '/v2/contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: {
      /** an ISO 8601 date-time: the item as this path served it then */
      asOf?: string;
      /** true: the item also answers its sys (created, updated, published, version, stage); not with asOf */
      meta?: 'true' | 'false';
      /** the id of an Open release of the workspace: the item as it will be published once that release is published, without publishing it (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: never;
    response: ContentItemV2;
  };
  /** PUT /v2/contents/{type}/{id}/unpublish: Unpublish: the item leaves the published endpoints, its draft stays */
  unpublishContentV2: {
    method: 'put';
    path: '/v2/contents/{type}/{id}/unpublish';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ClientInfoRequest;
    response: Success;
  };
  /** POST /v2/contents/{type}/ids: Ids of the published V2 items matching a filter */
  listContentV2Ids: {
    method: 'post';
    path: '/v2/contents/{type}/ids';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
      /** the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: ContentIdsRequest;
    response: ContentIds;
  };
  /** GET /v2/contents/{type}/ids: Ids of the published V2 items matching a filter (query in the query string) */
  getContentV2Ids: {
    method: 'get';
    path: '/v2/contents/{type}/ids';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      filter?: string;
      order?: string;
      /** Default: 1. */
      page?: number;
      /** Default: 100. */
      pageSize?: number;
      locale?: string | null;
      includeRelations?: string;
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
      /** the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: never;
    response: ContentIds;
  };
  /** POST /v2/contents/{type}/aggregate: Sum, Avg, Min, Max or Count of a field over the published V2 items matching a filter */
  aggregateContentV2: {
    method: 'post';
    path: '/v2/contents/{type}/aggregate';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
      /** the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: AggregateRequest;
    response: AggregateResult;
  };
  /** GET /v2/contents/{type}/aggregate: Sum, Avg, Min, Max or Count of a field over the published V2 items matching a filter (query in the query string) */
  getContentV2Aggregate: {
    method: 'get';
    path: '/v2/contents/{type}/aggregate';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      fieldKey: string;
      aggregateType: string;
      filter?: string;
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
      /** the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: never;
    response: AggregateResult;
  };
  /** POST /v2/contents/{type}/aggregategroup: An aggregate per distinct value of another field */
  aggregateGroupsContentV2: {
    method: 'post';
    path: '/v2/contents/{type}/aggregategroup';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
      /** the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: AggregateGroupRequest;
    response: AggregateGroups;
  };
  /** GET /v2/contents/{type}/aggregategroup: An aggregate per distinct value of another field (query in the query string) */
  getContentV2AggregateGroups: {
    method: 'get';
    path: '/v2/contents/{type}/aggregategroup';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      fieldKey: string;
      aggregateType: string;
      filter?: string;
      groupByFieldKey: string;
      /** an ISO 8601 date-time: the answer this path gave then */
      asOf?: string;
      /** the id of an Open release of the workspace: the answer once it is published (docs/releases.md, "Preview") */
      release?: string;
    };
    headers: never;
    body: never;
    response: AggregateGroups;
  };
  /** GET /v2/preview-contents/{type}/{id}/history: History of a content item: every event of its stream (V2 path) */
  getPreviewContentV2History: {
    method: 'get';
    path: '/v2/preview-contents/{type}/{id}/history';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ContentHistory;
  };
  /** GET /v2/preview-contents/{type}/{id}/versions/{n}: The draft of a content item as it was at version n */
  getPreviewContentV2Version: {
    method: 'get';
    path: '/v2/preview-contents/{type}/{id}/versions/{n}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
      /** the version, 1-based (see history) */
      n: string;
    };
    query: never;
    headers: never;
    body: never;
    response: PreviewContentV2Version;
  };
  /** POST /v2/preview-contents/{type}/{id}/versions/{n}/restore: Make the draft of version n the draft again */
  restorePreviewContentV2Version: {
    method: 'post';
    path: '/v2/preview-contents/{type}/{id}/versions/{n}/restore';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
      /** the version, 1-based (see history) */
      n: string;
    };
    query: never;
    headers: never;
    body: RestoreContentRequest;
    response: PreviewContentV2RestoreResult;
  };
  /** GET /v2/preview-contents/{type}/{id}/diff: An RFC 6902 JSON Patch from the draft at one version to another */
  diffPreviewContentV2Versions: {
    method: 'get';
    path: '/v2/preview-contents/{type}/{id}/diff';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: {
      /** the version to start from */
      from: number;
      /** the version to reach */
      to: number;
    };
    headers: never;
    body: never;
    response: JsonPatch;
  };
  /** PUT /v2/preview-contents/{type}: Create or update a draft (V2) */
  savePreviewContentV2: {
    method: 'put';
    path: '/v2/preview-contents/{type}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: SaveContentV2Request;
    response: ContentItemV2;
  };
  /** POST /v2/preview-contents/{type}: Search draft V2 items: filter, order, page, translate, expand relations */
  searchPreviewContentV2: {
    method: 'post';
    path: '/v2/preview-contents/{type}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: ContentSearchRequest;
    response: ContentPageV2;
  };
  /** GET /v2/preview-contents/{type}: Search draft V2 items: filter, order, page, translate, expand relations (query in the query string) */
  listPreviewContentV2: {
    method: 'get';
    path: '/v2/preview-contents/{type}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      filter?: string;
      order?: string;
      /** Default: 1. */
      page?: number;
      /** Default: 20. */
      pageSize?: number;
      locale?: string | null;
      includeRelations?: string;
      meta?: boolean;
    };
    headers: never;
    body: never;
    response: ContentPageV2;
  };
  /** PATCH /v2/preview-contents/{type}/{id}: Change some fields of the draft (JSON Merge Patch) */
  patchPreviewContentV2: {
    method: 'patch';
    path: '/v2/preview-contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ContentMergePatchV2Request;
    response: ContentItemV2;
  };
  /** DELETE /v2/preview-contents/{type}/{id}: Delete the draft permanently (with nothing published, the item ends) */
  deletePreviewContentV2: {
    method: 'delete';
    path: '/v2/preview-contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ClientInfoRequest;
    response: Success;
  };
  /** GET /v2/preview-contents/{type}/{id}: Get a draft V2 item */
  getPreviewContentV2: {
    method: 'get';
    path: '/v2/preview-contents/{type}/{id}';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: {
      /** an ISO 8601 date-time: the item as this path served it then */
      asOf?: string;
      /** true: the item also answers its sys (created, updated, published, version, stage); not with asOf */
      meta?: 'true' | 'false';
    };
    headers: never;
    body: never;
    response: ContentItemV2;
  };
  /** PUT /v2/preview-contents/{type}/{id}/publish: Publish the draft: it becomes the published content */
  publishPreviewContentV2: {
    method: 'put';
    path: '/v2/preview-contents/{type}/{id}/publish';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: ClientInfoRequest;
    response: Success;
  };
  /** POST /v2/preview-contents/{type}/ids: Ids of the draft V2 items matching a filter */
  listPreviewContentV2Ids: {
    method: 'post';
    path: '/v2/preview-contents/{type}/ids';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: ContentIdsRequest;
    response: ContentIds;
  };
  /** GET /v2/preview-contents/{type}/ids: Ids of the draft V2 items matching a filter (query in the query string) */
  getPreviewContentV2Ids: {
    method: 'get';
    path: '/v2/preview-contents/{type}/ids';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      filter?: string;
      order?: string;
      /** Default: 1. */
      page?: number;
      /** Default: 100. */
      pageSize?: number;
      locale?: string | null;
      includeRelations?: string;
    };
    headers: never;
    body: never;
    response: ContentIds;
  };
  /** POST /v2/preview-contents/{type}/aggregate: Sum, Avg, Min, Max or Count of a field over the draft V2 items matching a filter */
  aggregatePreviewContentV2: {
    method: 'post';
    path: '/v2/preview-contents/{type}/aggregate';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: AggregateRequest;
    response: AggregateResult;
  };
  /** GET /v2/preview-contents/{type}/aggregate: Sum, Avg, Min, Max or Count of a field over the draft V2 items matching a filter (query in the query string) */
  getPreviewContentV2Aggregate: {
    method: 'get';
    path: '/v2/preview-contents/{type}/aggregate';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      fieldKey: string;
      aggregateType: string;
      filter?: string;
    };
    headers: never;
    body: never;
    response: AggregateResult;
  };
  /** POST /v2/preview-contents/{type}/aggregategroup: An aggregate per distinct value of another field */
  aggregateGroupsPreviewContentV2: {
    method: 'post';
    path: '/v2/preview-contents/{type}/aggregategroup';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: AggregateGroupRequest;
    response: AggregateGroups;
  };
  /** GET /v2/preview-contents/{type}/aggregategroup: An aggregate per distinct value of another field (query in the query string) */
  getPreviewContentV2AggregateGroups: {
    method: 'get';
    path: '/v2/preview-contents/{type}/aggregategroup';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: {
      fieldKey: string;
      aggregateType: string;
      filter?: string;
      groupByFieldKey: string;
    };
    headers: never;
    body: never;
    response: AggregateGroups;
  };
  /** PUT /contents/{type}/encrypt: Store values of the item's Encrypted fields, encrypted */
  setEncryptedFields: {
    method: 'put';
    path: '/contents/{type}/encrypt';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: EncryptFieldsRequest;
    response: Success;
  };
  /** POST /contents/{type}/encrypt/check: Compare plaintexts with the stored values without revealing them */
  checkEncryptedFields: {
    method: 'post';
    path: '/contents/{type}/encrypt/check';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: CheckEncryptedFieldsRequest;
    response: EncryptedFieldsMatch;
  };
  /** POST /contents/{type}/encrypt/decrypt: Decrypt fields, behind the workspace's one-time password */
  decryptFields: {
    method: 'post';
    path: '/contents/{type}/encrypt/decrypt';
    pathParams: {
      /** the content type key (contentTypeKey in the spec) */
      type: string;
    };
    query: never;
    headers: never;
    body: DecryptFieldsRequest;
    response: DecryptedFields;
  };
  /** GET /locales: List locales */
  listLocales: {
    method: 'get';
    path: '/locales';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: LocaleList;
  };
  /** PUT /locales: Create or update a locale (matched by code) */
  saveLocale: {
    method: 'put';
    path: '/locales';
    pathParams: never;
    query: never;
    headers: never;
    body: SaveLocaleRequest;
    response: Locale;
  };
  /** DELETE /locales/{code}: Delete a locale */
  deleteLocale: {
    method: 'delete';
    path: '/locales/{code}';
    pathParams: {
      /** the culture code */
      code: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Success;
  };
  /** POST /assets/uploadAsset: Upload one chunk of a file */
  uploadAssetChunk: {
    method: 'post';
    path: '/assets/uploadAsset';
    pathParams: never;
    query: never;
    headers: never;
    body: UploadChunkRequest;
    response: AssetId | UploadStarted;
  };
  /** GET /assets/{id}: Get an asset */
  getAsset: {
    method: 'get';
    path: '/assets/{id}';
    pathParams: {
      /** the asset id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Asset;
  };
  /** PUT /assets/{id}: Change title and description */
  updateAsset: {
    method: 'put';
    path: '/assets/{id}';
    pathParams: {
      /** the asset id */
      id: string;
    };
    query: never;
    headers: never;
    body: UpdateAssetRequest;
    response: Success;
  };
  /** DELETE /assets/{id}: Delete an asset and its file permanently */
  deleteAsset: {
    method: 'delete';
    path: '/assets/{id}';
    pathParams: {
      /** the asset id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Success;
  };
  /** POST /assets/getByHash: Find an asset by MD5 and size (duplicate detection) */
  getAssetByHash: {
    method: 'post';
    path: '/assets/getByHash';
    pathParams: never;
    query: never;
    headers: never;
    body: AssetByHashRequest;
    response: AssetByHash | NoAsset;
  };
  /** POST /assets/search: Search assets by type and text (title, description, file name) */
  searchAssets: {
    method: 'post';
    path: '/assets/search';
    pathParams: never;
    query: never;
    headers: never;
    body: AssetSearchRequest;
    response: AssetPage;
  };
  /** POST /assets/{id}/shared-access-keys: Issue a key for anonymous download */
  issueSharedAccessKey: {
    method: 'post';
    path: '/assets/{id}/shared-access-keys';
    pathParams: {
      /** the asset id */
      id: string;
    };
    query: never;
    headers: never;
    body: SharedAccessKeyRequest;
    response: IssuedSharedAccessKey;
  };
  /** DELETE /assets/{id}/shared-access-keys/{key}: Revoke a shared access key */
  revokeSharedAccessKey: {
    method: 'delete';
    path: '/assets/{id}/shared-access-keys/{key}';
    pathParams: {
      /** the asset id */
      id: string;
      /** the shared access key (sak_...) */
      key: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Success;
  };
  /** GET /shared-access/{workspaceId}/asset/{id}: Download a file anonymously with a shared access key */
  downloadSharedAsset: {
    method: 'get';
    path: '/shared-access/{workspaceId}/asset/{id}';
    pathParams: {
      /** the workspace of the asset */
      workspaceId: string;
      /** the asset id */
      id: string;
    };
    query: {
      /** pixels, 1-8000: a rendition of the image (as GET /images/{assetId}) */
      width?: number;
      /** pixels, 1-8000 */
      height?: number;
      /** 1-100 for JPEG, WebP and AVIF */
      quality?: number;
      /** output format; omitted follows Accept (AVIF, then WebP), else the original format */
      format?: 'jpeg' | 'png' | 'webp' | 'avif';
      /** true allows scaling beyond the original size */
      enlarge?: 'true' | 'false';
      /** a key from POST /assets/{id}/shared-access-keys */
      sharedAccessKey: string;
    };
    headers: {
      /** one byte range, e.g. bytes=0-1023 (the file only, not a rendition) */
      Range?: string;
      /** image/avif or image/webp selects that format for a rendition when format is omitted */
      Accept?: string;
      /** an ETag of an earlier rendition: 304 when unchanged */
      'If-None-Match'?: string;
    };
    body: never;
    response: Response;
  };
  /** POST /images/{assetId}/signed-urls: A signed URL of an image or rendition, for pages (<img src>) and CDNs */
  signImageUrl: {
    method: 'post';
    path: '/images/{assetId}/signed-urls';
    pathParams: {
      /** the asset id (an image) */
      assetId: string;
    };
    query: never;
    headers: never;
    body: SignImageUrlRequest;
    response: SignedImageUrl;
  };
  /** POST /images/signing-key/rotate: Rotate the workspace image signing key */
  rotateImageSigningKey: {
    method: 'post';
    path: '/images/signing-key/rotate';
    pathParams: never;
    query: never;
    headers: never;
    body: RotateImageSigningKeyRequest;
    response: RotatedImageSigningKey;
  };
  /** GET /images/signed/{workspaceId}/{assetId}/{version}: An image by a signed URL, with no credential */
  getSignedImage: {
    method: 'get';
    path: '/images/signed/{workspaceId}/{assetId}/{version}';
    pathParams: {
      /** the workspace of the asset */
      workspaceId: string;
      /** the asset id */
      assetId: string;
      /** the file version of the asset the URL was signed for */
      version: number;
    };
    query: {
      /** pixels, 1-8000; omitted keeps the original (with height, fits inside both); the rendition may have at most 4096×4096 pixels in all */
      width?: number;
      /** pixels; omitted keeps the original */
      height?: number;
      /** 1-100 for JPEG, WebP and AVIF; omitted uses the encoder default */
      quality?: number;
      /** output format; omitted keeps the original format (signed URLs do not follow Accept) */
      format?: 'jpeg' | 'png' | 'webp' | 'avif';
      /** true allows scaling beyond the original size */
      enlarge?: 'true' | 'false';
      /** when the URL expires, Unix seconds (signed) */
      expires: number;
      /** HMAC-SHA256 of the URL, base64url */
      signature: string;
    };
    headers: {
      /** an ETag from an earlier answer: 304 when unchanged */
      'If-None-Match'?: string;
    };
    body: never;
    response: Response;
  };
  /** GET /images/bypath/{path}: An image by its storage path, resized on the fly */
  getImageByPath: {
    method: 'get';
    path: '/images/bypath/{path}';
    pathParams: {
      /** the storage path of the image, `{assetId}/{file name}`; may contain slashes */
      path: string;
    };
    query: {
      /** pixels, 1-8000; omitted keeps the original (with height, fits inside both); the rendition may have at most 4096×4096 pixels in all */
      width?: number;
      /** pixels; omitted keeps the original */
      height?: number;
      /** 1-100 for JPEG, WebP and AVIF; omitted uses the encoder default */
      quality?: number;
      /** output format; omitted follows Accept (AVIF, then WebP), else the original format */
      format?: 'jpeg' | 'png' | 'webp' | 'avif';
      /** true allows scaling beyond the original size */
      enlarge?: 'true' | 'false';
    };
    headers: {
      /** image/avif or image/webp selects that format when format is omitted */
      Accept?: string;
      /** an ETag from an earlier answer: 304 when unchanged */
      'If-None-Match'?: string;
    };
    body: never;
    response: Response;
  };
  /** GET /images/{assetId}: An image asset, resized on the fly */
  getImage: {
    method: 'get';
    path: '/images/{assetId}';
    pathParams: {
      /** the asset id */
      assetId: string;
    };
    query: {
      /** pixels, 1-8000; omitted keeps the original (with height, fits inside both); the rendition may have at most 4096×4096 pixels in all */
      width?: number;
      /** pixels; omitted keeps the original */
      height?: number;
      /** 1-100 for JPEG, WebP and AVIF; omitted uses the encoder default */
      quality?: number;
      /** output format; omitted follows Accept (AVIF, then WebP), else the original format */
      format?: 'jpeg' | 'png' | 'webp' | 'avif';
      /** true allows scaling beyond the original size */
      enlarge?: 'true' | 'false';
    };
    headers: {
      /** image/avif or image/webp selects that format when format is omitted */
      Accept?: string;
      /** an ETag from an earlier answer: 304 when unchanged */
      'If-None-Match'?: string;
    };
    body: never;
    response: Response;
  };
  /** GET /webhooks: List webhooks */
  listWebhooks: {
    method: 'get';
    path: '/webhooks';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: WebhookList;
  };
  /** PUT /webhooks: Create (no id) or update a webhook */
  saveWebhook: {
    method: 'put';
    path: '/webhooks';
    pathParams: never;
    query: never;
    headers: never;
    body: SaveWebhookRequest;
    response: Webhook;
  };
  /** GET /webhooks/{id}: Get a webhook */
  getWebhook: {
    method: 'get';
    path: '/webhooks/{id}';
    pathParams: {
      /** the webhook id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Webhook;
  };
  /** DELETE /webhooks/{id}: Delete a webhook; its delivery log is kept */
  deleteWebhook: {
    method: 'delete';
    path: '/webhooks/{id}';
    pathParams: {
      /** the webhook id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Success;
  };
  /** POST /webhooks/{id}/enable: Enable a webhook */
  enableWebhook: {
    method: 'post';
    path: '/webhooks/{id}/enable';
    pathParams: {
      /** the webhook id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Webhook;
  };
  /** POST /webhooks/{id}/disable: Disable a webhook: no deliveries are queued, its configuration stays */
  disableWebhook: {
    method: 'post';
    path: '/webhooks/{id}/disable';
    pathParams: {
      /** the webhook id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Webhook;
  };
  /** POST /webhooks/{id}/rotate-secret: Replace the secret; the previous one stops signing at once */
  rotateSecretWebhook: {
    method: 'post';
    path: '/webhooks/{id}/rotate-secret';
    pathParams: {
      /** the webhook id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Webhook;
  };
  /** POST /webhooks/{id}/test: Send a signed test ping now (eventType webhook.test, header Svc-Test: true) */
  testWebhook: {
    method: 'post';
    path: '/webhooks/{id}/test';
    pathParams: {
      /** the webhook id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: WebhookTestResult;
  };
  /** GET /webhooks/{id}/events: The delivery log of a webhook, newest first */
  listWebhookDeliveries: {
    method: 'get';
    path: '/webhooks/{id}/events';
    pathParams: {
      /** the webhook id */
      id: string;
    };
    query: {
      /** 1-based Default: 1. */
      page?: number;
      /** at most 100 Default: 20. */
      pageSize?: number;
      /** -1 Error, 0 Waiting, 1 Processing, 2 Sent */
      status?: number;
      /** 0 Published, 1 Unpublished, 2 Deleted, 3 PublishedCreated, 4 PublishedUpdated */
      eventType?: number;
      /** content type key */
      contentType?: string;
      /** inclusive lower bound on dateInsert */
      from?: string;
      /** inclusive upper bound on dateInsert */
      to?: string;
    };
    headers: never;
    body: never;
    response: WebhookDeliveryPage;
  };
  /** GET /webhooks/{id}/events/{eventId}: One delivery, with its attempts */
  getWebhookDelivery: {
    method: 'get';
    path: '/webhooks/{id}/events/{eventId}';
    pathParams: {
      /** the webhook id */
      id: string;
      /** the delivery (log entry) id */
      eventId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: WebhookDeliveryDetail;
  };
  /** POST /webhooks/{id}/events/{eventId}/retry: Deliver again now (nothing happens while it is Waiting or Processing) */
  retryWebhookDelivery: {
    method: 'post';
    path: '/webhooks/{id}/events/{eventId}/retry';
    pathParams: {
      /** the webhook id */
      id: string;
      /** the delivery (log entry) id */
      eventId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: WebhookDelivery;
  };
  /** POST /v2/releases: Create an empty release */
  createRelease: {
    method: 'post';
    path: '/v2/releases';
    pathParams: never;
    query: never;
    headers: never;
    body: CreateReleaseRequest;
    response: Release;
  };
  /** GET /v2/releases: List releases, newest first */
  listReleases: {
    method: 'get';
    path: '/v2/releases';
    pathParams: never;
    query: {
      /** 1-based Default: 1. */
      page?: number;
      /** at most 100 Default: 20. */
      pageSize?: number;
    };
    headers: never;
    body: never;
    response: ReleasePage;
  };
  /** POST /v2/releases/item-schedules: Schedule the publish and/or unpublish of one item */
  scheduleItem: {
    method: 'post';
    path: '/v2/releases/item-schedules';
    pathParams: never;
    query: never;
    headers: never;
    body: ItemScheduleRequest;
    response: ItemSchedule;
  };
  /** GET /v2/releases/{id}: Get a release with a page of its entries, each with its diff against the published content */
  getRelease: {
    method: 'get';
    path: '/v2/releases/{id}';
    pathParams: {
      /** the release id */
      id: string;
    };
    query: {
      /** 1-based page of entries Default: 1. */
      page?: number;
      /** at most 200 Default: 100. */
      pageSize?: number;
    };
    headers: never;
    body: never;
    response: Release;
  };
  /** GET /v2/releases/{id}/history: List who created the release, added, changed and removed each item, scheduled, published, cancelled or reverted it, and when */
  getReleaseHistory: {
    method: 'get';
    path: '/v2/releases/{id}/history';
    pathParams: {
      /** the release id */
      id: string;
    };
    query: {
      /** 1-based page of events Default: 1. */
      page?: number;
      /** at most 200 Default: 50. */
      pageSize?: number;
    };
    headers: never;
    body: never;
    response: ReleaseHistory;
  };
  /** GET /v2/releases/{id}/items/{itemId}: Get one entry of a release, with its whole diff */
  getReleaseEntry: {
    method: 'get';
    path: '/v2/releases/{id}/items/{itemId}';
    pathParams: {
      /** the release id */
      id: string;
      /** the content item id */
      itemId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ReleaseEntry;
  };
  /** PUT /v2/releases/{id}/items/{itemId}: Add an item to a release, or replace its entry */
  setReleaseItem: {
    method: 'put';
    path: '/v2/releases/{id}/items/{itemId}';
    pathParams: {
      /** the release id */
      id: string;
      /** the content item id */
      itemId: string;
    };
    query: never;
    headers: never;
    body: ReleaseItemRequest;
    response: Release;
  };
  /** DELETE /v2/releases/{id}/items/{itemId}: Remove an item from a release */
  removeReleaseItem: {
    method: 'delete';
    path: '/v2/releases/{id}/items/{itemId}';
    pathParams: {
      /** the release id */
      id: string;
      /** the content item id */
      itemId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Release;
  };
  /** POST /v2/releases/{id}/items: Add up to 1,000 items to a release at once */
  setReleaseItems: {
    method: 'post';
    path: '/v2/releases/{id}/items';
    pathParams: {
      /** the release id */
      id: string;
    };
    query: never;
    headers: never;
    body: ReleaseItemsRequest;
    response: Release;
  };
  /** POST /v2/releases/{id}/validate: Check every entry against its item as it is now, without publishing */
  validateRelease: {
    method: 'post';
    path: '/v2/releases/{id}/validate';
    pathParams: {
      /** the release id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ReleaseValidation;
  };
  /** POST /v2/releases/{id}/publish: Publish every entry now, as one append (all or nothing) */
  publishRelease: {
    method: 'post';
    path: '/v2/releases/{id}/publish';
    pathParams: {
      /** the release id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Release;
  };
  /** PUT /v2/releases/{id}/schedule: Set when an Open release publishes itself, or clear it */
  scheduleRelease: {
    method: 'put';
    path: '/v2/releases/{id}/schedule';
    pathParams: {
      /** the release id */
      id: string;
    };
    query: never;
    headers: never;
    body: ScheduleReleaseRequest;
    response: Release;
  };
  /** POST /v2/releases/{id}/cancel: Cancel an Open release */
  cancelRelease: {
    method: 'post';
    path: '/v2/releases/{id}/cancel';
    pathParams: {
      /** the release id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Release;
  };
  /** POST /v2/releases/{id}/revert: Put back each item's published state from before a published release, as one append */
  revertRelease: {
    method: 'post';
    path: '/v2/releases/{id}/revert';
    pathParams: {
      /** the release id */
      id: string;
    };
    query: never;
    headers: never;
    body: RevertReleaseRequest;
    response: Release;
  };
  /** POST /scheduled-jobs: Schedule a deferred or recurring HTTP callback */
  scheduleJob: {
    method: 'post';
    path: '/scheduled-jobs';
    pathParams: never;
    query: never;
    headers: never;
    body: ScheduleJobRequest;
    response: ScheduledJob;
  };
  /** GET /scheduled-jobs: List jobs, earliest planned first */
  listScheduledJobs: {
    method: 'get';
    path: '/scheduled-jobs';
    pathParams: never;
    query: {
      /** 1-based Default: 1. */
      page?: number;
      /** at most 100 Default: 20. */
      pageSize?: number;
      status?: 'Pending' | 'Firing' | 'Done' | 'DeadLetter' | 'Cancelled';
      /** inclusive lower bound on fireAtUtc */
      from?: string;
      /** inclusive upper bound on fireAtUtc */
      to?: string;
    };
    headers: never;
    body: never;
    response: ScheduledJobPage;
  };
  /** GET /scheduled-jobs/{id}: Get a job */
  getScheduledJob: {
    method: 'get';
    path: '/scheduled-jobs/{id}';
    pathParams: {
      /** the job (occurrence) id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ScheduledJob;
  };
  /** DELETE /scheduled-jobs/{id}: Cancel a Pending job, or a Firing one whose claim was lost (older than 60 s) */
  cancelScheduledJob: {
    method: 'delete';
    path: '/scheduled-jobs/{id}';
    pathParams: {
      /** the job (occurrence) id */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ScheduledJob;
  };
  /** GET /actions/{contentTypeKey}/{contentId}/{actionId}/execute: Run a content action for an item */
  executeAction: {
    method: 'get';
    path: '/actions/{contentTypeKey}/{contentId}/{actionId}/execute';
    pathParams: {
      contentTypeKey: string;
      contentId: string;
      actionId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ActionExecutionStarted;
  };
  /** GET /actions/{contentTypeKey}/{contentId}/{actionId}/navigate: The action's navigateUrl filled in for the item */
  getActionNavigateUrl: {
    method: 'get';
    path: '/actions/{contentTypeKey}/{contentId}/{actionId}/navigate';
    pathParams: {
      contentTypeKey: string;
      contentId: string;
      actionId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ActionNavigateUrl;
  };
  /** GET /actions/{contentTypeKey}/{contentId}/{actionId}/status: The latest execution record (callback mode); records live 7 days */
  getActionStatus: {
    method: 'get';
    path: '/actions/{contentTypeKey}/{contentId}/{actionId}/status';
    pathParams: {
      contentTypeKey: string;
      contentId: string;
      actionId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ActionExecution;
  };
  /** POST /actions/callback/{workspaceId}/{operationId}: Progress and completion reported by the external service */
  reportActionProgress: {
    method: 'post';
    path: '/actions/callback/{workspaceId}/{operationId}';
    pathParams: {
      workspaceId: string;
      operationId: string;
    };
    query: never;
    headers: never;
    body: ActionCallbackRequest;
    response: ActionExecution;
  };
  /** POST /ai-assistant/thread: Ask in a new thread (threadId null) or an existing one; the answer is prepared in the background */
  askAiAssistant: {
    method: 'post';
    path: '/ai-assistant/thread';
    pathParams: never;
    query: never;
    headers: never;
    body: AiPromptRequest;
    response: AiRunStarted;
  };
  /** GET /ai-assistant/thread/{threadId}/run/{runId}/status: Status of a run: poll until completed or failed */
  getAiRunStatus: {
    method: 'get';
    path: '/ai-assistant/thread/{threadId}/run/{runId}/status';
    pathParams: {
      threadId: string;
      runId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: AiRunStatus;
  };
  /** GET /ai-assistant/thread/{threadId}/response: The answer to the latest prompt of the thread that has one */
  getAiResponse: {
    method: 'get';
    path: '/ai-assistant/thread/{threadId}/response';
    pathParams: {
      threadId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: AiAnswer;
  };
  /** GET /apps: The calling app's parameters and field mapping */
  getAppSettings: {
    method: 'get';
    path: '/apps';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: AppSettings;
  };
  /** POST /apps: Merge parameters into the calling app's own */
  mergeAppParameters: {
    method: 'post';
    path: '/apps';
    pathParams: never;
    query: never;
    headers: never;
    body: StringMap;
    response: Success;
  };
  /** GET /apps/workspaces: Workspaces where the app is installed (for one user with userId) */
  listAppWorkspaces: {
    method: 'get';
    path: '/apps/workspaces';
    pathParams: never;
    query: {
      /** only installations for this user */
      userId?: string;
    };
    headers: never;
    body: never;
    response: WorkspaceInfoList;
  };
  /** GET /apps/workspaces/all: Workspaces where the app is installed, across all users */
  listAllAppWorkspaces: {
    method: 'get';
    path: '/apps/workspaces/all';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: WorkspaceInfoList;
  };
  /** GET /apps/{userId}/workspaces/{workspaceId}: The app's settings for one user and workspace (the installation's values win) */
  getAppUserSettings: {
    method: 'get';
    path: '/apps/{userId}/workspaces/{workspaceId}';
    pathParams: {
      userId: string;
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: AppSettings;
  };
  /** GET /audit: The key's workspace's audit feed */
  getAuditFeed: {
    method: 'get';
    path: '/audit';
    pathParams: never;
    query: {
      /** only events caused by this kind of actor */
      actorKind?: 'apiKey' | 'app' | 'admin' | 'system' | 'sharedAccessKey' | 'other';
      /** only events of this key or app id, or admin token's name */
      actorId?: string;
      /** comma-separated event types */
      type?: string;
      /** only events of this stream */
      stream?: string;
      /** only events about this content item or asset */
      itemId?: string;
      /** events at or after this time */
      from?: string;
      /** events before this time */
      to?: string;
      /** a position from an earlier page: entries after it */
      after?: string;
      /** entries per page (JSON only; NDJSON streams every entry) Default: 100. */
      limit?: number;
    };
    headers: never;
    body: never;
    response: AuditPage | Response;
  };
  /** GET /admin/workspaces/{workspaceId}/audit: A workspace's audit feed, for the admin */
  getWorkspaceAuditFeed: {
    method: 'get';
    path: '/admin/workspaces/{workspaceId}/audit';
    pathParams: {
      workspaceId: string;
    };
    query: {
      /** only events caused by this kind of actor */
      actorKind?: 'apiKey' | 'app' | 'admin' | 'system' | 'sharedAccessKey' | 'other';
      /** only events of this key or app id, or admin token's name */
      actorId?: string;
      /** comma-separated event types */
      type?: string;
      /** only events of this stream */
      stream?: string;
      /** only events about this content item or asset */
      itemId?: string;
      /** events at or after this time */
      from?: string;
      /** events before this time */
      to?: string;
      /** a position from an earlier page: entries after it */
      after?: string;
      /** entries per page (JSON only; NDJSON streams every entry) Default: 100. */
      limit?: number;
    };
    headers: never;
    body: never;
    response: AuditPage | Response;
  };
  /** GET /admin/audit: The service's own audit feed, for the admin */
  getServiceAuditFeed: {
    method: 'get';
    path: '/admin/audit';
    pathParams: never;
    query: {
      /** only events caused by this kind of actor */
      actorKind?: 'apiKey' | 'app' | 'admin' | 'system' | 'sharedAccessKey' | 'other';
      /** only events of this key or app id, or admin token's name */
      actorId?: string;
      /** comma-separated event types */
      type?: string;
      /** only events of this stream */
      stream?: string;
      /** only events about this content item or asset */
      itemId?: string;
      /** events at or after this time */
      from?: string;
      /** events before this time */
      to?: string;
      /** a position from an earlier page: entries after it */
      after?: string;
      /** entries per page (JSON only; NDJSON streams every entry) Default: 100. */
      limit?: number;
    };
    headers: never;
    body: never;
    response: AuditPage | Response;
  };
  /** POST /admin/workspaces: Create a workspace */
  createWorkspace: {
    method: 'post';
    path: '/admin/workspaces';
    pathParams: never;
    query: never;
    headers: never;
    body: CreateWorkspaceRequest;
    response: WorkspaceInfo;
  };
  /** GET /admin/workspaces: List every workspace */
  listWorkspaces: {
    method: 'get';
    path: '/admin/workspaces';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: WorkspaceInfoList;
  };
  /** POST /admin/workspaces/{workspaceId}/api-keys: Issue a workspace key */
  issueApiKey: {
    method: 'post';
    path: '/admin/workspaces/{workspaceId}/api-keys';
    pathParams: {
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: IssueApiKeyRequest;
    response: IssuedApiKey;
  };
  /** GET /admin/workspaces/{workspaceId}/api-keys: List a workspace's keys, revoked ones included; never their secrets */
  listApiKeys: {
    method: 'get';
    path: '/admin/workspaces/{workspaceId}/api-keys';
    pathParams: {
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: ApiKeyList;
  };
  /** DELETE /admin/workspaces/{workspaceId}/api-keys/{keyId}: Revoke a workspace key; it stops working at once */
  revokeApiKey: {
    method: 'delete';
    path: '/admin/workspaces/{workspaceId}/api-keys/{keyId}';
    pathParams: {
      workspaceId: string;
      keyId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: Success;
  };
  /** POST /admin/workspaces/{workspaceId}/totp: Set a new one-time-password secret, which gates decrypting fields */
  createTotpSecret: {
    method: 'post';
    path: '/admin/workspaces/{workspaceId}/totp';
    pathParams: {
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: TotpSecret;
  };
  /** POST /admin/workspaces/{workspaceId}/contents/{type}/{id}/erase: Erase a content item of a personal-data content type (what `cms erase` calls) */
  eraseContentAsAdmin: {
    method: 'post';
    path: '/admin/workspaces/{workspaceId}/contents/{type}/{id}/erase';
    pathParams: {
      /** the workspace */
      workspaceId: string;
      /** the content type key */
      type: string;
      /** the content item id */
      id: string;
    };
    query: never;
    headers: never;
    body: EraseContentRequest;
    response: Success;
  };
  /** POST /admin/workspaces/{workspaceId}/data-key/shred: Shred the workspace's data key: everything encrypted with it becomes unreadable for good */
  shredWorkspaceDataKey: {
    method: 'post';
    path: '/admin/workspaces/{workspaceId}/data-key/shred';
    pathParams: {
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: DataKeyActionRequest;
    response: Success;
  };
  /** POST /admin/workspaces/{workspaceId}/data-key: Create a new data key after a shred (explicit; never done silently) */
  createWorkspaceDataKey: {
    method: 'post';
    path: '/admin/workspaces/{workspaceId}/data-key';
    pathParams: {
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: DataKeyActionRequest;
    response: Success;
  };
  /** PUT /admin/workspaces/{workspaceId}/scheduler-signing-secret: Sign the workspace's scheduler callbacks from now on */
  setSchedulerSigningSecret: {
    method: 'put';
    path: '/admin/workspaces/{workspaceId}/scheduler-signing-secret';
    pathParams: {
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: SchedulerSigningSecretRequest;
    response: Success;
  };
  /** POST /admin/apps: Register an app */
  registerApp: {
    method: 'post';
    path: '/admin/apps';
    pathParams: never;
    query: never;
    headers: never;
    body: RegisterAppRequest;
    response: RegisteredApp;
  };
  /** PUT /admin/apps/{appId}/installations/{workspaceId}: Install an app in a workspace for a user */
  installApp: {
    method: 'put';
    path: '/admin/apps/{appId}/installations/{workspaceId}';
    pathParams: {
      appId: string;
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: InstallAppRequest;
    response: Success;
  };
  /** GET /admin/projections: Read-model projections: checkpoints against the head of the log */
  getProjectionsStatus: {
    method: 'get';
    path: '/admin/projections';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: ProjectionsStatus;
  };
  /** POST /admin/projections/rebuild: Rebuild read models from the log, in the background */
  startRebuild: {
    method: 'post';
    path: '/admin/projections/rebuild';
    pathParams: never;
    query: never;
    headers: never;
    body: RebuildRequest;
    response: RebuildStatus;
  };
  /** GET /admin/projections/rebuild: The latest rebuild */
  getRebuildStatus: {
    method: 'get';
    path: '/admin/projections/rebuild';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: RebuildStatus;
  };
  /** GET /admin/projections/quarantine: Events a read model could not apply */
  listQuarantinedEvents: {
    method: 'get';
    path: '/admin/projections/quarantine';
    pathParams: never;
    query: {
      /** Default: "open". */
      state?: 'open' | 'all';
    };
    headers: never;
    body: never;
    response: QuarantinedEventList;
  };
  /** POST /admin/projections/quarantine/{id}/skip: Accept a read model without a quarantined event */
  skipQuarantinedEvent: {
    method: 'post';
    path: '/admin/projections/quarantine/{id}/skip';
    pathParams: {
      /** the entry id (projection@position) */
      id: string;
    };
    query: never;
    headers: never;
    body: SkipQuarantinedEvent;
    response: QuarantinedEvent;
  };
  /** POST /admin/projections/quarantine/{id}/retry: Rebuild the entry's read model, applying the event again */
  retryQuarantinedEvent: {
    method: 'post';
    path: '/admin/projections/quarantine/{id}/retry';
    pathParams: {
      /** the entry id (projection@position) */
      id: string;
    };
    query: never;
    headers: never;
    body: never;
    response: RebuildStatus;
  };
  /** GET /admin/workspaces/{workspaceId}/contents/{itemId}/history: Every event of a content item's stream, for operators */
  getOperatorContentHistory: {
    method: 'get';
    path: '/admin/workspaces/{workspaceId}/contents/{itemId}/history';
    pathParams: {
      /** the workspace */
      workspaceId: string;
      /** the content item id */
      itemId: string;
    };
    query: {
      /** Default: 1. */
      fromVersion?: number;
      limit?: number;
    };
    headers: never;
    body: never;
    response: OperatorContentHistory;
  };
  /** POST /admin/workspaces/{workspaceId}/content-undo: Revert every content change of one actor, request id or time window (bulk undo) */
  undoContentChanges: {
    method: 'post';
    path: '/admin/workspaces/{workspaceId}/content-undo';
    pathParams: {
      /** the workspace */
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: ContentUndoRequest;
    response: ContentUndoResult;
  };
  /** GET /admin/workspaces/{workspaceId}/content-types/{key}/query-indexes: A content type's query indexes: declared, pinned and advised, and the forbidden ones */
  getQueryIndexes: {
    method: 'get';
    path: '/admin/workspaces/{workspaceId}/content-types/{key}/query-indexes';
    pathParams: {
      /** the workspace */
      workspaceId: string;
      /** the content type key */
      key: string;
    };
    query: never;
    headers: never;
    body: never;
    response: QueryIndexList;
  };
  /** PUT /admin/workspaces/{workspaceId}/content-types/{key}/query-indexes: Declare the indexes the queries of a content type need, pin advised ones, forbid the advisor some (replaces the operator's list) */
  declareQueryIndexes: {
    method: 'put';
    path: '/admin/workspaces/{workspaceId}/content-types/{key}/query-indexes';
    pathParams: {
      /** the workspace */
      workspaceId: string;
      /** the content type key */
      key: string;
    };
    query: never;
    headers: never;
    body: DeclareQueryIndexesRequest;
    response: QueryIndexList;
  };
  /** GET /admin/workspaces/{workspaceId}/content-types/{key}/query-shapes: The query shapes this instance served for a content type, their cost, and what the advisor makes of each */
  getQueryShapes: {
    method: 'get';
    path: '/admin/workspaces/{workspaceId}/content-types/{key}/query-shapes';
    pathParams: {
      /** the workspace */
      workspaceId: string;
      /** the content type key */
      key: string;
    };
    query: never;
    headers: never;
    body: never;
    response: QueryShapeList;
  };
  /** GET /admin/workspaces/{workspaceId}/schema: A workspace's content types, query indexes, locales and webhooks as a schema (never secrets) */
  exportWorkspaceSchema: {
    method: 'get';
    path: '/admin/workspaces/{workspaceId}/schema';
    pathParams: {
      /** the workspace */
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: never;
    response: WorkspaceSchema;
  };
  /** PUT /admin/workspaces/{workspaceId}/schema: Make a workspace match a schema: creates, updates and (when allowed) deletes what differs, nothing else */
  applyWorkspaceSchema: {
    method: 'put';
    path: '/admin/workspaces/{workspaceId}/schema';
    pathParams: {
      /** the workspace */
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: SchemaApplyRequest;
    response: SchemaPlan;
  };
  /** POST /admin/workspaces/{workspaceId}/schema/plan: What applying a schema would change, object by object, without changing anything */
  planWorkspaceSchema: {
    method: 'post';
    path: '/admin/workspaces/{workspaceId}/schema/plan';
    pathParams: {
      /** the workspace */
      workspaceId: string;
    };
    query: never;
    headers: never;
    body: SchemaPlanRequest;
    response: SchemaPlan;
  };
  /** GET /health: Readiness (same as /health/ready) */
  getHealth: {
    method: 'get';
    path: '/health';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: Readiness;
  };
  /** GET /health/live: Liveness: the process answers */
  getLiveness: {
    method: 'get';
    path: '/health/live';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: Liveness;
  };
  /** GET /health/ready: Readiness: every store answers */
  getReadiness: {
    method: 'get';
    path: '/health/ready';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: Readiness;
  };
  /** GET /metrics: Prometheus metrics */
  getMetrics: {
    method: 'get';
    path: '/metrics';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: string;
  };
  /** GET /utility/server-time: The server time */
  getServerTime: {
    method: 'get';
    path: '/utility/server-time';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: ServerTime;
  };
  /** GET /openapi.json: This API reference as an OpenAPI 3.1 document */
  getOpenApiDocument: {
    method: 'get';
    path: '/openapi.json';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: Record<string, unknown>;
  };
  /** GET /docs: This API reference, browsable (Swagger UI) */
  getApiReferencePage: {
    method: 'get';
    path: '/docs';
    pathParams: never;
    query: never;
    headers: never;
    body: never;
    response: string;
  };
}
