import { describeWebhooks } from './webhooks.suite';

describeWebhooks('postgres');
