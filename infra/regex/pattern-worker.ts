/** The thread of PatternThread: answers each group of cases under its own budget, in the order sent. */
import { parentPort } from 'node:worker_threads';
import { PatternTests } from '../../src/domain/content/pattern';
import type { PatternRequest, PatternReply } from './pattern-thread';

const port = parentPort!;

port.on('message', ({ id, groups }: PatternRequest) => {
  const reply: PatternReply = { id, answers: groups.map((cases) => [...PatternTests.answer(cases)]) };
  port.postMessage(reply);
});
