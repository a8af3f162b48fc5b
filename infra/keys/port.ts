/**
 * Per-workspace data keys, stored only wrapped (sealed) by the service's master key.
 * They live outside the event log on purpose: deleting a workspace's data key shreds
 * every ciphertext of that workspace in the log, which stays immutable.
 *
 * The store also remembers which workspaces ever had a key (a ledger beside the keys), so a
 * key that is gone — shredded by an operator, or deleted by hand — is told apart from one
 * never made, and is not silently replaced by a new one.
 */
export interface DataKeyStore {
  /** The wrapped key, or null when the workspace has none. */
  get(workspaceId: string): Promise<string | null>;
  /**
   * Stores `wrapped` unless a key exists already; returns the key that is stored in the end,
   * or null when the workspace had a key that is gone (nothing is stored then).
   */
  putIfAbsent(workspaceId: string, wrapped: string): Promise<string | null>;
  /** Deletes the key (shredding); the ledger keeps that the workspace had one. */
  delete(workspaceId: string): Promise<void>;
  /** True when the workspace had a key that is no longer stored. */
  isGone(workspaceId: string): Promise<boolean>;
  /** An operator's explicit new key for a workspace whose key is gone (or that never had one); false when one is stored. */
  replaceGone(workspaceId: string, wrapped: string): Promise<boolean>;
}
