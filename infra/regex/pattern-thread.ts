import type { Worker } from 'node:worker_threads';
import { type PatternAnswer, type PatternCase, PatternTests, patternWork } from '../../src/domain/content/pattern';
import { startWorker } from '../sql/worker-script';

/**
 * Pattern work a request may do on the event loop: about 2 ms for the costliest program RE2
 * accepts here. Past it, the tests run on the pattern thread, so one workspace's long values and
 * hard patterns (up to MAX_PATTERN_WORK_PER_SAVE, ~85 ms of matching) never hold another's requests.
 */
export const INLINE_PATTERN_WORK = 20_000;

export interface PatternRequest {
  readonly id: number;
  readonly groups: readonly (readonly PatternCase[])[];
}
export interface PatternReply {
  readonly id: number;
  readonly answers: readonly (readonly [string, PatternAnswer])[][];
}

/**
 * Tests values against `pattern` rules: light work where it is asked for, heavy work on one
 * worker thread, started when first needed and again after it stops. Each group (one save, one
 * stored item) is tested under its own budget; the answers are PatternTests that know them.
 */
export class PatternThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { resolve: (answers: PatternReply['answers']) => void; reject: (error: Error) => void }>();
  private sent = 0;

  async tests(groups: readonly (readonly PatternCase[])[]): Promise<PatternTests[]> {
    if (groups.every((cases) => patternWork(cases) <= INLINE_PATTERN_WORK)) return groups.map(() => new PatternTests());
    const answers = await this.ask(groups);
    return answers.map((known) => new PatternTests(new Map(known)));
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    worker.removeAllListeners('exit');
    await worker.terminate();
  }

  private ask(groups: readonly (readonly PatternCase[])[]): Promise<PatternReply['answers']> {
    const id = this.sent++;
    const answered = new Promise<PatternReply['answers']>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    const request: PatternRequest = { id, groups };
    this.running().postMessage(request);
    return answered;
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker('pattern-worker', null, {}, __dirname);
    worker.on('message', ({ id, answers }: PatternReply) => {
      this.waiting.get(id)?.resolve(answers);
      this.waiting.delete(id);
    });
    worker.on('error', (error) => this.stopped(worker, error));
    worker.on('exit', (code) => this.stopped(worker, new Error(`the pattern thread stopped (exit code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private stopped(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
