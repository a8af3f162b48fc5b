/**
 * Per-item data keys of personal-data content types, stored only wrapped by the master key.
 * Shredding one erases the item: every value sealed with it in the log becomes unreadable.
 * A shredded key leaves a tombstone (no key material) so that no later write creates a new
 * key for the erased item.
 */
export interface ItemKeyStore {
  /** The wrapped keys of those of `itemIds` that have one (shredded ones are left out), by item id. */
  get(workspaceId: string, itemIds: readonly string[]): Promise<Map<string, string>>;
  /**
   * Stores `wrapped` unless the item has a key or a tombstone; returns the key stored in the
   * end, or null when the item's key was shredded.
   */
  putIfAbsent(workspaceId: string, itemId: string, wrapped: string): Promise<string | null>;
  /** Deletes the key material and leaves a tombstone; idempotent. */
  shred(workspaceId: string, itemId: string): Promise<void>;
  /** Every live (not shredded) key of the workspace, for a key export. */
  list(workspaceId: string): Promise<{ itemId: string; wrapped: string }[]>;
}
