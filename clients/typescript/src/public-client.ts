import type { ActionCallbackRequest, ActionExecution, Liveness, Operations, Readiness, ServerTime } from './generated/api-types';
import { type ClientOptions, Transport } from './http/transport';
import { PUBLIC_OPERATIONS as routes } from './operations/public-operations';

/** A readiness answer is the report whether or not every store answers (200 or 503). */
const READINESS_ANSWERS = [503];

/** The anonymous endpoints: server time, health, the API reference, shared downloads, signed image URLs and action callbacks. */
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

  /**
   * The image a signed URL (from `CmsClient.images.signedUrl`) names, as a fetch Response to
   * stream; `ifNoneMatch` (an earlier ETag) answers 304 when unchanged. The URL's path and query
   * are sent to this client's base address.
   */
  async getSignedImage(signedUrl: string, ifNoneMatch?: string): Promise<Response> {
    const address = new URL(signedUrl);
    const match = /\/images\/signed\/([^/]+)\/([^/]+)\/(\d+)$/.exec(address.pathname);
    if (!match) throw new TypeError(`${signedUrl} is not a signed image URL`);
    const [, workspaceId, assetId, version] = match.map((segment) => decodeURIComponent(segment));
    // The service checks the query against the signature: it is sent as it is.
    const query = Object.fromEntries(address.searchParams) as unknown as Operations['getSignedImage']['query'];
    return this.transport.binary(routes.getSignedImage, {
      path: { workspaceId: workspaceId!, assetId: assetId!, version: Number(version) },
      query,
      headers: { 'If-None-Match': ifNoneMatch },
      answerStatuses: [304],
    });
  }

  /** For the external service of a callback action: progress below 100 only updates; otherwise `success` completes it. */
  reportActionProgress(workspaceId: string, operationId: string, report: ActionCallbackRequest): Promise<ActionExecution> {
    return this.transport.json(routes.reportActionProgress, { path: { workspaceId, operationId }, body: report });
  }
}
