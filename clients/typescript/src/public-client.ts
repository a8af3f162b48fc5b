import type { ActionCallbackRequest, ActionExecution, Liveness, Readiness, ServerTime } from './generated/api-types';
import { type ClientOptions, Transport } from './http/transport';
import { PUBLIC_OPERATIONS as routes } from './operations/public-operations';

/** A readiness answer is the report whether or not every store answers (200 or 503). */
const READINESS_ANSWERS = [503];

/** The anonymous endpoints: server time, health, the API reference, shared downloads and action callbacks. */
export class CmsPublicClient {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options, {});
  }

  getServerTime(): Promise<ServerTime> {
    return this.transport.json(routes.getServerTime);
  }

  /** Same as getReadiness. */
  getHealth(): Promise<Readiness> {
    return this.transport.json(routes.getHealth, { answerStatuses: READINESS_ANSWERS });
  }

  getLiveness(): Promise<Liveness> {
    return this.transport.json(routes.getLiveness);
  }

  /** `status` is `unavailable` when a store does not answer; `checks` names it. */
  getReadiness(): Promise<Readiness> {
    return this.transport.json(routes.getReadiness, { answerStatuses: READINESS_ANSWERS });
  }

  /** Prometheus text exposition format. */
  getMetrics(): Promise<string> {
    return this.transport.text(routes.getMetrics);
  }

  getOpenApiDocument(): Promise<Record<string, unknown>> {
    return this.transport.json(routes.getOpenApiDocument);
  }

  /** The browsable reference (Swagger UI), HTML. */
  getApiReferencePage(): Promise<string> {
    return this.transport.text(routes.getApiReferencePage);
  }

  /** The file, as a fetch Response to stream; `range` (e.g. `bytes=0-1023`) answers 206 with that part. */
  downloadSharedAsset(workspaceId: string, assetId: string, sharedAccessKey: string, range?: string): Promise<Response> {
    return this.transport.binary(routes.downloadSharedAsset, { path: { workspaceId, id: assetId }, query: { sharedAccessKey }, headers: { Range: range } });
  }

  /** For the external service of a callback action: progress below 100 only updates; otherwise `success` completes it. */
  reportActionProgress(workspaceId: string, operationId: string, report: ActionCallbackRequest): Promise<ActionExecution> {
    return this.transport.json(routes.reportActionProgress, { path: { workspaceId, operationId }, body: report });
  }
}
