import type * as WorkerThreads from 'node:worker_threads';

/** Worker threads started since this module was loaded, newest last. */
export const startedWorkers: WorkerThreads.Worker[] = [];

/**
 * node:worker_threads with the real Worker, recorded as each starts, so that a test can stop
 * a thread as a crash would (nothing else reaches it from outside). In a test file:
 * `jest.mock('node:worker_threads', () => jest.requireActual<typeof import('../support/recorded-workers')>('../support/recorded-workers').recordingWorkerThreads());`
 */
export function recordingWorkerThreads(): typeof WorkerThreads {
  const actual = jest.requireActual<typeof WorkerThreads>('node:worker_threads');
  class RecordedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      startedWorkers.push(this);
    }
  }
  return { ...actual, Worker: RecordedWorker };
}
