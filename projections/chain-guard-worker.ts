/** The thread of ChainGuardThread: checks the pages it is sent, in order, with one ChainGuard. */
import { parentPort } from 'node:worker_threads';
import { type ChainAnswer, type ChainedEventRow, ChainGuard, type ChainPage } from './chain-guard';

const port = parentPort!;
const guard = new ChainGuard();

port.on('message', ({ page, rows }: ChainPage) => {
  const answer: ChainAnswer = { page, problem: guard.check(JSON.parse(rows) as ChainedEventRow[]) };
  port.postMessage(answer);
});
