/** The thread of ChainGuardThread: checks the pages it is sent, in order, with one ChainGuard. */
import { parentPort, workerData } from 'node:worker_threads';
import { type ChainAnswer, type ChainedEventRow, ChainGuard, type ChainPage, macCheckOf, type MacSettings } from './chain-guard';

const port = parentPort!;
const guard = new ChainGuard(macCheckOf((workerData as { data: MacSettings | null }).data));

function* parsed(rows: readonly string[]): Generator<ChainedEventRow> {
  for (const row of rows) yield JSON.parse(row) as ChainedEventRow;
}

port.on('message', ({ page, rows }: ChainPage) => {
  const answer: ChainAnswer = { page, problem: guard.check(parsed(rows)) };
  port.postMessage(answer);
});
