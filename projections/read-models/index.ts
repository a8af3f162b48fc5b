import type { Projector } from '../projector';
import { actionExecutionsProjector } from './action-executions';
import { aiThreadsProjector } from './ai-threads';
import { apiKeyListProjector } from './api-key-list';
import { apiKeysProjector } from './api-keys';
import { assetsProjector } from './assets';
import { assetUsageProjector } from './asset-usage';
import { auditEntriesProjector } from './audit-entries';
import { appsProjector } from './apps';
import { contentErasuresProjector } from './content-erasures';
import { contentItemsProjector } from './content-items';
import { contentSearchProjector } from './content-search';
import { contentTablesProjector } from './content-tables';
import { contentTypesProjector } from './content-types';
import { itemCountsProjector } from './item-counts';
import { localesProjector } from './locales';
import { publishedVersionsProjector } from './published-versions-projector';
import { releasesProjector } from './releases';
import { scheduledJobsProjector } from './scheduled-jobs';
import { secretAttemptsProjector } from './secret-attempts';
import { serviceProjector } from './service';
import { webhookDeliveriesProjector } from './webhook-deliveries';
import { webhooksProjector } from './webhooks';
import { workspacesProjector } from './workspaces';

/** Every read model that serves the API. */
export const readModelProjectors: readonly Projector[] = [
  serviceProjector,
  workspacesProjector,
  apiKeysProjector,
  apiKeyListProjector,
  appsProjector,
  contentTypesProjector,
  localesProjector,
  contentItemsProjector,
  // After content_items: it copies the documents content_items makes from the same event. Before
  // published_versions: it computes that model's rows for the event from its state before it.
  contentTablesProjector,
  webhooksProjector,
  webhookDeliveriesProjector,
  scheduledJobsProjector,
  releasesProjector,
  assetsProjector,
  assetUsageProjector,
  aiThreadsProjector,
  contentSearchProjector,
  actionExecutionsProjector,
  secretAttemptsProjector,
  contentErasuresProjector,
  // Before published_versions: it counts from that model's state before the event.
  itemCountsProjector,
  publishedVersionsProjector,
  auditEntriesProjector,
];
