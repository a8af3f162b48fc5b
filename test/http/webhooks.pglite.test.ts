import { describeWebhooks } from './webhooks.suite';

describeWebhooks('pglite');
