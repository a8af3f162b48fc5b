import type { DocumentedOperation } from '../operation';
import { actionOperations } from './actions';
import { adminOperations } from './admin';
import { adminContentOperations } from './admin-content';
import { adminQueryIndexOperations } from './admin-query-indexes';
import { adminSchemaOperations } from './admin-schema';
import { aiAssistantOperations } from './ai-assistant';
import { appOperations } from './apps';
import { assetOperations } from './assets';
import { auditOperations } from './audit';
import { contentEncryptOperations } from './content-encrypt';
import { contentTypeOperations } from './content-types';
import { contentOperations } from './contents';
import { imageOperations } from './images';
import { localeOperations } from './locales';
import { platformOperations } from './platform';
import { releaseOperations } from './releases';
import { scheduledJobOperations } from './scheduled-jobs';
import { webhookOperations } from './webhooks';

/** Every operation of the API, in the order the reference shows them. */
export const documentedOperations: readonly DocumentedOperation[] = [
  ...contentTypeOperations,
  ...contentOperations,
  ...contentEncryptOperations,
  ...localeOperations,
  ...assetOperations,
  ...imageOperations,
  ...webhookOperations,
  ...releaseOperations,
  ...scheduledJobOperations,
  ...actionOperations,
  ...aiAssistantOperations,
  ...appOperations,
  ...auditOperations,
  ...adminOperations,
  ...adminContentOperations,
  ...adminQueryIndexOperations,
  ...adminSchemaOperations,
  ...platformOperations,
];
