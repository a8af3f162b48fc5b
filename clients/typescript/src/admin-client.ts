import type {
  ApiKeyList,
  ContentUndoRequest,
  ContentUndoResult,
  AuditPage,
  CreateWorkspaceRequest,
  DeclareQueryIndexesRequest,
  InstallAppRequest,
  IssueApiKeyRequest,
  IssuedApiKey,
  OperatorContentHistory,
  ProjectionsStatus,
  QueryIndexList,
  QueryShapeList,
  QuarantinedEvent,
  QuarantinedEventList,
  RebuildStatus,
  RegisterAppRequest,
  RegisteredApp,
  SchemaApplyRequest,
  SchemaPlan,
  SchemaPlanRequest,
  Success,
  TotpSecret,
  WorkspaceInfo,
  WorkspaceInfoList,
  WorkspaceSchema,
  Operations,
} from './generated/api-types';
import { bearerHeaders } from './http/credentials';
import { type ClientOptions, Transport } from './http/transport';
import { ADMIN_OPERATIONS } from './operations/admin-operations';

export interface CmsAdminClientOptions extends ClientOptions {
  /** The service's ADMIN_TOKEN, or one of the named tokens of ADMIN_TOKENS. */
  readonly adminToken: string;
}

const { workspaces, apps, contents, contentTypes, schema, projections } = ADMIN_OPERATIONS;

/** Workspaces and their keys, one-time-password and scheduler secrets. */
export class WorkspacesAdminApi {
  constructor(private readonly transport: Transport) {}

  create(workspace: CreateWorkspaceRequest): Promise<WorkspaceInfo> {
    return this.transport.json(workspaces.create, { body: workspace });
  }

  list(): Promise<WorkspaceInfoList> {
    return this.transport.json(workspaces.list);
  }

  /** The answer holds the key itself, shown this once. */
  issueApiKey(workspaceId: string, request: IssueApiKeyRequest): Promise<IssuedApiKey> {
    return this.transport.json(workspaces.issueApiKey, { path: { workspaceId }, body: request });
  }

  /** Every key of the workspace, revoked ones included (revokedAt set); never their secrets. */
  listApiKeys(workspaceId: string): Promise<ApiKeyList> {
    return this.transport.json(workspaces.listApiKeys, { path: { workspaceId } });
  }

  /** The key stops working at once. */
  revokeApiKey(workspaceId: string, keyId: string): Promise<Success> {
    return this.transport.json(workspaces.revokeApiKey, { path: { workspaceId, keyId } });
  }

  /** A new secret for the one-time passwords that gate decrypting fields; replaces the previous one. */
  createTotpSecret(workspaceId: string): Promise<TotpSecret> {
    return this.transport.json(workspaces.createTotpSecret, { path: { workspaceId } });
  }

  /** Scheduler callbacks of the workspace carry Svc-Signature from now on. */
  setSchedulerSigningSecret(workspaceId: string, secret: string): Promise<Success> {
    return this.transport.json(workspaces.setSchedulerSigningSecret, { path: { workspaceId }, body: { secret } });
  }

  /** Erases an item of a personal-data content type: its key is shredded, its values unreadable for good. The reason is kept for audit. */
  eraseContent(workspaceId: string, type: string, id: string, reason: string): Promise<Success> {
    return this.transport.json(workspaces.eraseContent, { path: { workspaceId, type, id }, body: { reason } });
  }

  /** Shreds the workspace's data key: its encrypted values and secrets become unreadable for good. */
  shredDataKey(workspaceId: string, reason: string): Promise<Success> {
    return this.transport.json(workspaces.shredDataKey, { path: { workspaceId }, body: { reason } });
  }

  /** A new data key after a shred (never made silently); set the TOTP and other secrets again after it. */
  createDataKey(workspaceId: string, reason: string): Promise<Success> {
    return this.transport.json(workspaces.createDataKey, { path: { workspaceId }, body: { reason } });
  }

  /** A page of the workspace's audit feed; pass its `next` as `after` for the following one. */
  async audit(workspaceId: string, query: Operations['getWorkspaceAuditFeed']['query'] = {}): Promise<AuditPage> {
    // JSON unless NDJSON is asked for, which this client never does.
    return (await this.transport.json(workspaces.audit, { path: { workspaceId }, query })) as AuditPage;
  }
}

/** Apps and their installations. */
export class AppsAdminApi {
  constructor(private readonly transport: Transport) {}

  /** The answer holds the app's key, shown this once. */
  register(app: RegisterAppRequest): Promise<RegisteredApp> {
    return this.transport.json(apps.register, { body: app });
  }

  install(appId: string, workspaceId: string, installation: InstallAppRequest): Promise<Success> {
    return this.transport.json(apps.install, { path: { appId, workspaceId }, body: installation });
  }
}

/** Content as operators see it: any item's history, and bulk undo. */
export class ContentAdminApi {
  constructor(private readonly transport: Transport) {}

  /** Every event of the item, also when it or its content type was deleted. */
  history(workspaceId: string, itemId: string): Promise<OperatorContentHistory> {
    return this.transport.json(contents.history, { path: { workspaceId, itemId } });
  }

  /** Reverts every change of one actor, request id or time window; with `dryRun` only answers the plan. */
  undo(workspaceId: string, request: ContentUndoRequest): Promise<ContentUndoResult> {
    return this.transport.json(contents.undo, { path: { workspaceId }, body: request });
  }
}

/** What operators set on content types beyond their definition: the query indexes their sites need, and the query shapes the advisor learns from. */
export class ContentTypesAdminApi {
  constructor(private readonly transport: Transport) {}

  getQueryIndexes(workspaceId: string, key: string): Promise<QueryIndexList> {
    return this.transport.json(contentTypes.getQueryIndexes, { path: { workspaceId, key } });
  }

  /** Replaces the operator's query indexes of the type (declared, pinned) and, when given, the forbidden ones; its typed table gets them within seconds, without a rebuild. */
  declareQueryIndexes(workspaceId: string, key: string, request: DeclareQueryIndexesRequest): Promise<QueryIndexList> {
    return this.transport.json(contentTypes.declareQueryIndexes, { path: { workspaceId, key }, body: request });
  }

  /** The query shapes the answering instance served for the type, their cost, and what the advisor makes of each. */
  getQueryShapes(workspaceId: string, key: string): Promise<QueryShapeList> {
    return this.transport.json(contentTypes.getQueryShapes, { path: { workspaceId, key } });
  }
}

/** A workspace's schema as code: content types, query indexes, locales and webhooks (docs/schema-as-code.md). */
export class SchemaAdminApi {
  constructor(private readonly transport: Transport) {}

  /** The workspace's schema, never its secrets; the same schema always gives the same answer. */
  export(workspaceId: string): Promise<WorkspaceSchema> {
    return this.transport.json(schema.export, { path: { workspaceId } });
  }

  /** What applying the schema would change, object by object, and what keeps it from being applied; changes nothing. */
  plan(workspaceId: string, request: SchemaPlanRequest): Promise<SchemaPlan> {
    return this.transport.json(schema.plan, { path: { workspaceId }, body: request });
  }

  /** Makes the workspace match the schema, writing only what differs; destructive changes only with `allowDestructive`. */
  apply(workspaceId: string, request: SchemaApplyRequest): Promise<SchemaPlan> {
    return this.transport.json(schema.apply, { path: { workspaceId }, body: request });
  }
}

/** Read-model projections and their rebuilds. */
export class ProjectionsAdminApi {
  constructor(private readonly transport: Transport) {}

  getStatus(): Promise<ProjectionsStatus> {
    return this.transport.json(projections.getStatus);
  }

  /** Rebuilds the named projections (all when none) in the background; poll getRebuildStatus. */
  rebuild(projectionNames: readonly string[] = []): Promise<RebuildStatus> {
    return this.transport.json(projections.rebuild, { body: { projections: [...projectionNames] } });
  }

  getRebuildStatus(): Promise<RebuildStatus> {
    return this.transport.json(projections.getRebuildStatus);
  }

  /** Events a read model could not apply and went on without: open ones, or all with `{ state: 'all' }`. */
  listQuarantined(options: { state?: 'open' | 'all' } = {}): Promise<QuarantinedEventList> {
    return this.transport.json(projections.listQuarantined, { query: options });
  }

  /** Accepts the read model without the event; recorded in the log with the reason. */
  skipQuarantined(id: string, reason: string): Promise<QuarantinedEvent> {
    return this.transport.json(projections.skipQuarantined, { path: { id }, body: { reason } });
  }

  /** Rebuilds the entry's read model from the log (once the cause is fixed); poll getRebuildStatus. */
  retryQuarantined(id: string): Promise<RebuildStatus> {
    return this.transport.json(projections.retryQuarantined, { path: { id } });
  }
}

/** The admin API (/admin), called with the admin token. */
export class CmsAdminClient {
  readonly workspaces: WorkspacesAdminApi;
  readonly apps: AppsAdminApi;
  readonly contents: ContentAdminApi;
  readonly contentTypes: ContentTypesAdminApi;
  readonly schema: SchemaAdminApi;
  readonly projections: ProjectionsAdminApi;

  constructor(options: CmsAdminClientOptions) {
    const transport = new Transport(options, bearerHeaders(options.adminToken));
    this.workspaces = new WorkspacesAdminApi(transport);
    this.apps = new AppsAdminApi(transport);
    this.contents = new ContentAdminApi(transport);
    this.contentTypes = new ContentTypesAdminApi(transport);
    this.schema = new SchemaAdminApi(transport);
    this.projections = new ProjectionsAdminApi(transport);
  }
}
