import { randomBytes } from 'node:crypto';
import type { ItemKeyStore } from '../keys/item-port';
import { open, seal } from './aes-gcm';
import { joinShares, splitKey } from './key-shares';

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
 * A value sealed under the keys of several items at once (an AI answer that drew on them): it
 * is sealed under a key of its own, split into one share per item (their XOR is the key), each
 * share sealed under its item's key. It opens only while every one of the items keeps its key.
 */
export interface ItemsSealed {
  readonly items: readonly { readonly itemId: string; readonly share: string }[];
  readonly value: string;
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
    const [key] = await this.keysOf(ref.workspaceId, [ref.itemId]);
    return seal(key!, Buffer.from(JSON.stringify(value), 'utf8'));
  }

  /**
   * Seals `value` (as JSON) so that erasing any one of the items makes it unreadable
   * (ItemsSealed), creating the keys of items that have none; ItemErasedError when one of them
   * was erased already.
   */
  async sealUnderItems(workspaceId: string, itemIds: readonly string[], value: unknown): Promise<ItemsSealed> {
    const keys = await this.keysOf(workspaceId, itemIds);
    const valueKey = randomBytes(32);
    const shares = splitKey(valueKey, itemIds.length);
    return {
      items: itemIds.map((itemId, index) => ({ itemId, share: seal(keys[index]!, shares[index]!) })),
      value: seal(valueKey, Buffer.from(JSON.stringify(value), 'utf8')),
    };
  }

  /** The value of sealUnderItems, with one key look-up; undefined once any of its items is erased. */
  async openUnderItems(workspaceId: string, sealed: ItemsSealed): Promise<unknown> {
    const wrapped = await this.store.get(workspaceId, sealed.items.map((item) => item.itemId));
    const shares: Buffer[] = [];
    for (const { itemId, share } of sealed.items) {
      const key = wrapped.get(itemId);
      if (key === undefined) return undefined;
      shares.push(open(open(this.masterKey, key), share));
    }
    return JSON.parse(open(joinShares(shares), sealed.value).toString('utf8'));
  }

  /** Those of `itemIds` that have a key: some of their values were sealed, and they can be erased. */
  async keyed(workspaceId: string, itemIds: readonly string[]): Promise<Set<string>> {
    return new Set((await this.store.get(workspaceId, itemIds)).keys());
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

  /** The items' keys in the order given, made for items that have none; ItemErasedError for an item whose key was shredded. */
  private async keysOf(workspaceId: string, itemIds: readonly string[]): Promise<Buffer[]> {
    const found = await this.store.get(workspaceId, itemIds);
    const keys: Buffer[] = [];
    for (const itemId of itemIds) {
      const wrapped = found.get(itemId) ?? (await this.store.putIfAbsent(workspaceId, itemId, seal(this.masterKey, randomBytes(32))));
      if (wrapped === null) throw new ItemErasedError(itemId);
      keys.push(open(this.masterKey, wrapped));
    }
    return keys;
  }

  /** Deletes the item's key for good: its sealed values become unreadable everywhere. */
  async shred(ref: ItemRef): Promise<void> {
    await this.store.shred(ref.workspaceId, ref.itemId);
  }
}
