/**
 * Per-workspace data keys, stored only wrapped (sealed) by the service's master key.
 * They live outside the event log on purpose: deleting a workspace's data key shreds
 * every ciphertext of that workspace in the log, which stays immutable.
 */
export interface DataKeyStore {
  /** The wrapped key, or null when the workspace has none. */
  get(workspaceId: string): Promise<string | null>;
  /** Stores `wrapped` unless a key exists already; returns the key that is stored in the end. */
  putIfAbsent(workspaceId: string, wrapped: string): Promise<string>;
  delete(workspaceId: string): Promise<void>;
}
