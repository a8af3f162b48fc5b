import { randomBytes } from 'node:crypto';
import type { ItemKeyStore } from '../keys/item-port';
import { open, seal } from './aes-gcm';

/** The item's key was shredded: the item is erased and nothing can be sealed for it any more. */
export class ItemErasedError extends Error {
  constructor(readonly itemId: string) {
    super(`content item ${itemId} was erased`);
    this.name = 'ItemErasedError';
  }
}

export interface ItemRef {
  readonly workspaceId: string;
  readonly itemId: string;
}

/**
 * Seals the values of items of personal-data content types under a data key of their own
 * (AES-256-GCM), stored wrapped by the master key. Keys are not cached across calls: a key
 * shredded by one instance stops opening on every instance at once.
 */
export class ItemSealer {
  constructor(
    private readonly masterKey: Buffer,
    private readonly store: ItemKeyStore,
  ) {
    if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
  }

  /** Seals `value` (as JSON) under the item's key, creating the key on the item's first write. */
  async seal(ref: ItemRef, value: unknown): Promise<string> {
    const [wrapped] = (await this.store.get(ref.workspaceId, [ref.itemId])).values();
    const key = wrapped ?? (await this.store.putIfAbsent(ref.workspaceId, ref.itemId, seal(this.masterKey, randomBytes(32))));
    if (key === null) throw new ItemErasedError(ref.itemId);
    return seal(open(this.masterKey, key), Buffer.from(JSON.stringify(value), 'utf8'));
  }

  /**
   * Opens sealed values of several items with one key look-up per workspace. A value whose
   * item key is gone (erased) is answered as undefined.
   */
  async openAll(sealed: readonly (ItemRef & { readonly sealed: string })[]): Promise<unknown[]> {
    const keys = new Map<string, Buffer>();
    const byWorkspace = new Map<string, Set<string>>();
    for (const { workspaceId, itemId } of sealed) byWorkspace.set(workspaceId, (byWorkspace.get(workspaceId) ?? new Set()).add(itemId));
    for (const [workspaceId, itemIds] of byWorkspace) {
      for (const [itemId, wrapped] of await this.store.get(workspaceId, [...itemIds])) keys.set(`${workspaceId}:${itemId}`, open(this.masterKey, wrapped));
    }
    return sealed.map((value) => {
      const key = keys.get(`${value.workspaceId}:${value.itemId}`);
      return key === undefined ? undefined : JSON.parse(open(key, value.sealed).toString('utf8'));
    });
  }

  async open(ref: ItemRef, sealed: string): Promise<unknown> {
    const [value] = await this.openAll([{ ...ref, sealed }]);
    return value;
  }

  /** True while the item has a key: some of its values were sealed and can still be erased. */
  async hasKey(ref: ItemRef): Promise<boolean> {
    return (await this.store.get(ref.workspaceId, [ref.itemId])).size > 0;
  }

  /** Deletes the item's key for good: its sealed values become unreadable everywhere. */
  async shred(ref: ItemRef): Promise<void> {
    await this.store.shred(ref.workspaceId, ref.itemId);
  }
}
