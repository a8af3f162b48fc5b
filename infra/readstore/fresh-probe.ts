/**
 * Answers each caller with a probe that started after it called, one probe serving every caller
 * that arrived while the one before it ran: a caller is never answered with what the server said
 * before the caller asked. A probe that fails answers its callers null.
 */
export class FreshProbe<T> {
  private running: Promise<T | null> = Promise.resolve(null);
  private queued: Promise<T | null> | null = null;

  constructor(private readonly probe: () => Promise<T>) {}

  next(): Promise<T | null> {
    if (this.queued) return this.queued;
    const queued = this.running.then(() => {
      this.queued = null;
      this.running = this.probe().catch(() => null);
      return this.running;
    });
    this.queued = queued;
    return queued;
  }
}
