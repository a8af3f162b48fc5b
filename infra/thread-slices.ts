import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToOthers } from 'node:timers/promises';

/** How long a loop over events may hold the thread before it lets other requests run. */
export const SLICE_MS = 4;

/**
 * For loops whose steps rarely wait for anything (projecting, checking events): a batch of large
 * events would otherwise run as one task of tens of milliseconds while every other request waits.
 * `next()` yields to the event loop once the current slice has run SLICE_MS; it costs a clock read
 * otherwise.
 */
export class ThreadSlices {
  private startedAt = performance.now();

  async next(): Promise<void> {
    if (performance.now() - this.startedAt < SLICE_MS) return;
    await yieldToOthers();
    this.startedAt = performance.now();
  }
}
