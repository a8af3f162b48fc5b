import { ItemErasedError, type ItemSealer } from '../infra/crypto/item-sealer';
import { splitItemValues } from '../src/domain/content/sealed-members';
import { gone } from '../src/domain/errors';
import type { DomainEvent } from './aggregate';

/**
 * The event as stored for an item of a personal-data content type: its values sealed under
 * the item's key (created on the item's first write). Events without values pass as they are.
 * Refused with 410 once the item's key is shredded.
 */
export async function sealItemValues(sealer: ItemSealer, event: DomainEvent, ref: { workspaceId: string; itemId: string }): Promise<DomainEvent> {
  const split = splitItemValues(event.type, event.data as Record<string, unknown>);
  if (!split) return event;
  try {
    return { type: event.type, data: { ...split.rest, sealed: await sealer.seal(ref, split.values) } };
  } catch (error) {
    if (error instanceof ItemErasedError) throw gone(`content item ${ref.itemId} was erased`);
    throw error;
  }
}
