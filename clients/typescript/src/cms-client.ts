import { type KeyPlacement, keyHeaders } from './http/credentials';
import { type ClientOptions, Transport } from './http/transport';
import { ActionsApi } from './workspace/actions-api';
import { AiAssistantApi } from './workspace/ai-assistant-api';
import { AssetsApi } from './workspace/assets-api';
import { ContentTypesApi } from './workspace/content-types-api';
import { PreviewContentV1Api, PublishedContentV1Api } from './workspace/contents-v1-api';
import { PreviewContentV2Api, PublishedContentV2Api } from './workspace/contents-v2-api';
import { EncryptedFieldsApi } from './workspace/encrypted-fields-api';
import { ImagesApi } from './workspace/images-api';
import { LocalesApi } from './workspace/locales-api';
import { ReleasesApi } from './workspace/releases-api';
import { ScheduledJobsApi } from './workspace/scheduled-jobs-api';
import { WebhooksApi } from './workspace/webhooks-api';
import { AuditApi } from './workspace/audit-api';

export interface CmsClientOptions extends ClientOptions {
  /** A workspace key: it decides the workspace, and its policies (ReadAccess, WriteAccess) what may be called. */
  readonly apiKey: string;
  /** Default: `x-api-key` (the X-Api-Key header); `bearer` sends `Authorization: Bearer`. */
  readonly sendKeyAs?: KeyPlacement;
}

/** The workspace API, called with a workspace key. */
export class CmsClient {
  readonly contentTypes: ContentTypesApi;
  /** Published V1 content (/contents). */
  readonly contents: PublishedContentV1Api;
  /** Draft V1 content (/preview-contents). */
  readonly previewContents: PreviewContentV1Api;
  /** Published V2 content (/v2/contents). */
  readonly contentsV2: PublishedContentV2Api;
  /** Draft V2 content (/v2/preview-contents). */
  readonly previewContentsV2: PreviewContentV2Api;
  readonly encryptedFields: EncryptedFieldsApi;
  readonly locales: LocalesApi;
  readonly assets: AssetsApi;
  readonly images: ImagesApi;
  readonly webhooks: WebhooksApi;
  readonly scheduledJobs: ScheduledJobsApi;
  /** Content releases (/v2/releases). */
  readonly releases: ReleasesApi;
  readonly actions: ActionsApi;
  readonly aiAssistant: AiAssistantApi;
  readonly audit: AuditApi;

  constructor(options: CmsClientOptions) {
    const transport = new Transport(options, keyHeaders(options.apiKey, options.sendKeyAs));
    this.contentTypes = new ContentTypesApi(transport);
    this.contents = new PublishedContentV1Api(transport);
    this.previewContents = new PreviewContentV1Api(transport);
    this.contentsV2 = new PublishedContentV2Api(transport);
    this.previewContentsV2 = new PreviewContentV2Api(transport);
    this.encryptedFields = new EncryptedFieldsApi(transport);
    this.locales = new LocalesApi(transport);
    this.assets = new AssetsApi(transport);
    this.images = new ImagesApi(transport);
    this.webhooks = new WebhooksApi(transport);
    this.scheduledJobs = new ScheduledJobsApi(transport);
    this.releases = new ReleasesApi(transport);
    this.actions = new ActionsApi(transport);
    this.aiAssistant = new AiAssistantApi(transport);
    this.audit = new AuditApi(transport);
  }
}
