/**
 * Named leases among the service's instances: at most one instance holds a name at a time.
 * Process managers run only on the holder, the others stand by and take over when the
 * holder stops or dies. One LeaseStore stands for one instance.
 */
export interface LeaseStore {
  /** True when this instance holds `name` now (it just took it, or already held it). */
  tryAcquire(name: string): Promise<boolean>;
  /** Renews the lease where the engine needs it; false once it was lost (connection gone, expired and taken). */
  confirm(name: string): Promise<boolean>;
  release(name: string): Promise<void>;
  /** Releases every lease this instance holds. */
  close(): Promise<void>;
}
