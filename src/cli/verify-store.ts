import { z } from 'zod';
import { comparePositions, type Position, positionToString, START } from '../../infra/eventstore/port';
import { readModelProjectors } from '../../projections/read-models';
import { checkpointName } from '../../projections/projector';
import { resolveCheckpoints } from '../../projections/group-checkpoint';
import type { Config } from '../config';
import { parseArguments } from './arguments';
import { logPages } from './log-pages';
import type { CliOutput } from './output';
import { POSITION_NOTE } from './positions';
import { eventsPerSecond, POSITION_STEPS, positionSteps, progressBar } from './progress';
import { type Stores, withStores } from './stores';
import { ChainCheck, checkCheckpoints, checkStreamHeads } from './verify-chain';

const verifyArguments = z.object({ unexpected: z.array(z.string()).max(0, 'takes no arguments') });

/** Problems listed one by one at most; beyond, only counted. */
const MAX_LISTED_PROBLEMS = 100;

class Problems {
  readonly listed: string[] = [];
  count = 0;

  add(problem: string): void {
    this.count++;
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push(problem);
  }
}

/**
 * `verify`: every stream's revisions run 0, 1, 2, ... in the global log, every event's chain hash
 * verifies (verify-chain.ts), the signed checkpoints match the log, each stream's recorded head
 * is the log's, and every read model's checkpoint is at the head of the log. Prints a report;
 * any problem makes it throw (exit 1). Problems are listed in log order: the first is the first break.
 */
export async function verifyStore(config: Config, input: z.input<typeof verifyArguments>, output: CliOutput): Promise<void> {
  parseArguments('verify', verifyArguments, input);
  const problems = new Problems();
  let unprotected = 0;
  await withStores(config, 'verify', async (stores) => {
    const checkpoints = stores.chain ? await stores.chain.audit.checkpoints() : [];
    const chain = new ChainCheck(checkpoints.at(-1)?.body.snapshot ?? null);
    const { events, streams, head, outOfOrder, brokenLinks } = await checkStreams(stores, problems, output, chain);
    if (events === 0) {
      output.log('log: empty, no events');
    } else {
      output.log(`log: ${events} events in ${streams} streams; the last at position ${positionToString(head)}`);
      output.log(POSITION_NOTE);
    }
    output.log(
      outOfOrder === 0
        ? `streams: in each of the ${streams} streams the revisions run 0, 1, 2, ... in log order, without a gap`
        : `streams: ${outOfOrder} event${outOfOrder === 1 ? '' : 's'} out of order (listed below)`,
    );
    output.log(
      brokenLinks === 0
        ? `chain: the hash of each of the ${events} events verifies from its content and the hash before it`
        : `chain: ${brokenLinks} event${brokenLinks === 1 ? '' : 's'} whose hash does not verify; the first break in log order is the first listed below`,
    );
    if (stores.chain) {
      for (const line of checkCheckpoints(checkpoints, stores.chain.key, chain, (problem) => problems.add(problem))) output.log(line);
      await checkStreamHeads(stores.chain.audit, stores.events, chain, (problem) => problems.add(problem));
      unprotected = chain.afterCheckpoint;
    }
    for (const line of await checkReadModels(stores, problems)) output.log(line);
  });
  for (const problem of problems.listed) output.log(`problem: ${problem}`);
  if (problems.count > problems.listed.length) output.log(`... and ${problems.count - problems.listed.length} more problems`);
  if (problems.count > 0) throw new Error(`verify: ${problems.count} problem${problems.count === 1 ? '' : 's'} found`);
  const tail = unprotected > 0 ? `; ${unprotected} event${unprotected === 1 ? '' : 's'} after the latest checkpoint, unprotected` : '';
  output.log(`verify: ok (every stream in order, every read model at the head of the log${tail})`);
}

/** Reads the whole log page by page, keeping only each stream's last revision (and, in `chain`, its last hash). */
async function checkStreams(stores: Stores, problems: Problems, output: CliOutput, chain: ChainCheck): Promise<{ events: number; streams: number; head: Position; outOfOrder: number; brokenLinks: number }> {
  const head = await stores.events.headPosition();
  const lastRevisions = new Map<string, number>();
  let events = 0;
  let outOfOrder = 0;
  let brokenLinks = 0;
  const bar = progressBar(output, 'verify', '{events} events | {rate} events/s');
  const startedAt = Date.now();
  bar.start(POSITION_STEPS, 0, { events: 0, rate: 0 });
  try {
    for await (const page of logPages(stores.events, head)) {
      for (const event of page) {
        const last = lastRevisions.get(event.stream);
        const expected = last === undefined ? 0 : last + 1;
        if (event.revision !== expected) {
          outOfOrder++;
          problems.add(`stream ${event.stream}: revision ${event.revision} at position ${positionToString(event.position)}, where revision ${expected} was expected`);
        }
        lastRevisions.set(event.stream, event.revision);
        const broken = chain.check(event);
        if (broken) {
          brokenLinks++;
          problems.add(broken);
        }
      }
      events += page.length;
      bar.update(positionSteps(page[page.length - 1]!.position, head), { events, rate: eventsPerSecond(events, Date.now() - startedAt) });
    }
    bar.update(POSITION_STEPS, { events, rate: eventsPerSecond(events, Date.now() - startedAt) });
  } finally {
    bar.stop();
  }
  return { events, streams: lastRevisions.size, head, outOfOrder, brokenLinks };
}

/** One report line per read model; those not at the head are problems. */
async function checkReadModels(stores: Stores, problems: Problems): Promise<string[]> {
  // Read again: with a service on a shared database the log may have grown during the scan.
  const head = await stores.events.headPosition();
  const width = Math.max(...readModelProjectors.map((projector) => projector.name.length));
  const lines = ['read models (a checkpoint is the log position up to which a read model has applied the events):'];
  const checkpoints = resolveCheckpoints(await stores.readStore.listCheckpoints());
  for (const projector of readModelProjectors) {
    const { name } = projector;
    const checkpoint = checkpoints.get(checkpointName(projector)) ?? null;
    const state = checkpointState(checkpoint, head);
    if (!state.atHead) problems.add(`read model ${name}: ${state.text}; fix it with 'projections rebuild ${name}'`);
    lines.push(`  ${name.padEnd(width)}  ${state.text}`);
  }
  return lines;
}

function checkpointState(checkpoint: Position | null, head: Position): { atHead: boolean; text: string } {
  if (checkpoint === null) {
    return comparePositions(head, START) === 0
      ? { atHead: true, text: 'no checkpoint, and none needed: the log is empty' }
      : { atHead: false, text: `no checkpoint: never built, while the log runs to position ${positionToString(head)}` };
  }
  const order = comparePositions(checkpoint, head);
  if (order === 0) return { atHead: true, text: `checkpoint at the head (position ${positionToString(head)})` };
  return { atHead: false, text: `checkpoint ${positionToString(checkpoint)} is ${order < 0 ? 'behind' : 'ahead of'} the head ${positionToString(head)}` };
}
