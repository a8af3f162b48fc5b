import { availableParallelism } from 'node:os';

export interface RenderQueueLimits {
  /** Renders at once. */
  readonly concurrency: number;
  /** Renders one workspace may have waiting; more are refused. */
  readonly waitingPerWorkspace: number;
  /** Renders waiting in all; more are refused. */
  readonly waiting: number;
}

/** One core is left to answer requests; every other core renders. */
export const RENDER_QUEUE_LIMITS: RenderQueueLimits = { concurrency: Math.max(1, availableParallelism() - 1), waitingPerWorkspace: 8, waiting: 64 };

export class RenderQueueFullError extends Error {
  constructor(workspaceId: string) {
    super(`too many renditions of workspace ${workspaceId} are waiting to be rendered`);
    this.name = 'RenderQueueFullError';
  }
}

/**
 * Runs renders a few at a time. Waiting renders are started one workspace after another in
 * turn, so a workspace that asks for many waits behind its own renders, not others behind it;
 * past a bounded number waiting, a render is refused at once.
 */
export class RenderQueue {
  private running = 0;
  private waitingCount = 0;
  /** Starters of waiting renders by workspace; the Map's order is the turn (a workspace served goes to the back). */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly limits: RenderQueueLimits = RENDER_QUEUE_LIMITS) {}

  async run<T>(workspaceId: string, render: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.concurrency && this.waitingCount === 0) this.running++;
    else await this.waitForTurn(workspaceId);
    try {
      return await render();
    } finally {
      this.passOn();
    }
  }

  private waitForTurn(workspaceId: string): Promise<void> {
    const queue = this.waiting.get(workspaceId) ?? [];
    if (queue.length >= this.limits.waitingPerWorkspace || this.waitingCount >= this.limits.waiting) throw new RenderQueueFullError(workspaceId);
    this.waitingCount++;
    return new Promise((start) => {
      queue.push(start);
      this.waiting.set(workspaceId, queue);
    });
  }

  /** A render finished: its slot goes to the next workspace in turn, or is freed. */
  private passOn(): void {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [workspaceId, queue] = next.value;
    const start = queue.shift()!;
    this.waiting.delete(workspaceId);
    if (queue.length > 0) this.waiting.set(workspaceId, queue);
    this.waitingCount--;
    start();
  }
}
