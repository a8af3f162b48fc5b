import type { ContentEvent } from '../content/events';
import type { WebhookEventTypeCode } from './events';

/**
 * The webhook event types a content event is: a first publish is Published and
 * PublishedCreated, a later one Published and PublishedUpdated. Drafts fire nothing. An
 * erasure is a Deleted (without values): receivers are told to drop their copy.
 */
export function webhookEventTypesOf(event: ContentEvent): WebhookEventTypeCode[] {
  switch (event.type) {
    case 'ContentPublished':
      return event.data.firstPublish ? [0, 3] : [0, 4];
    case 'ContentUnpublished':
      return [1];
    case 'ContentDeleted':
    case 'ContentErased':
      return [2];
    default:
      return [];
  }
}
