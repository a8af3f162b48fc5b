import { contentDecider, type ContentState } from './decider';
import { contentEvent } from './events';

/** `state` after the next events of an item's stream as they are stored (parsed here): a page of it at a time. */
export function foldStoredContent(state: ContentState, stored: readonly { type: string; data: unknown }[]): ContentState {
  return stored.reduce((folded, event) => contentDecider.evolve(folded, contentEvent.parse(event)), state);
}
