/**
 * Runs a pass every `intervalMs` after the last one ended (never two at once), from start() until
 * stop(), which waits for a pass under way; a failed pass is reported and the next one runs as usual.
 */
export class RepeatingPass {
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly intervalMs: number,
    private readonly runOnce: () => Promise<void>,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pass;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pass = this.runOnce()
        .catch(this.onFailure)
        .finally(() => this.schedule());
    }, this.intervalMs);
  }
}
