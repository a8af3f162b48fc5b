import { ADMIN_OPERATIONS } from './admin-operations';
import { APP_OPERATIONS } from './app-operations';
import { PUBLIC_OPERATIONS } from './public-operations';
import { WORKSPACE_OPERATIONS } from './workspace-operations';

/**
 * Every SDK method that calls the service, by client and method path
 * (`workspace.webhooks.save` is `new CmsClient(...).webhooks.save`), with the documented
 * operation it calls. Each method sends its request from its entry here.
 */
export const SDK_OPERATIONS = {
  workspace: WORKSPACE_OPERATIONS,
  app: APP_OPERATIONS,
  admin: ADMIN_OPERATIONS,
  public: PUBLIC_OPERATIONS,
} as const;
