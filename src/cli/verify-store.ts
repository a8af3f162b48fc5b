import { z } from 'zod';
import { contentDigest } from '../../infra/eventstore/chain';
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
import type { ChainAudit } from '../../infra/eventstore/chain-audit';
import { AgainstCheck, newestWitnessFile, readKeptCheckpoint } from './verify-against';
import { ChainCheck, checkLatestHeads, checkStreamHeads, tailLine } from './verify-chain';
import { type CheckpointWalk, IntervalComparison, walkCheckpoints } from './verify-checkpoints';
import { checkGuards } from './verify-guards';
import { IntervalOrder } from './verify-intervals';
import { MacVerification } from './verify-macs';
import { type VerifyStores, withVerifyStores } from './verify-stores';

const verifyArguments = z.object({
  against: z.string().min(1).max(4096).optional(),
  unexpected: z.array(z.string()).max(0, 'takes no arguments but --against <checkpoint file>'),
});

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

/** The checks of the log's checkpoints that run beside the one pass over the events. */
interface CheckpointPass {
  readonly walk: CheckpointWalk;
  readonly order: IntervalOrder;
  readonly comparison: IntervalComparison;
}

/**
 * `verify`: every stream's revisions run 0, 1, 2, ... in the global log, every event's chain hash
 * verifies (verify-chain.ts), every MAC the signed marker requires verifies (verify-macs.ts), the
 * chain of signed checkpoints is whole and each one matches the
 * log (verify-checkpoints.ts), the guards are in place (verify-guards.ts), each stream's recorded
 * head is the log's, every read model's checkpoint is at the head of the log, and, with
 * --against (or CHECKPOINT_WITNESS_DIR), that the log extends a checkpoint kept outside the
 * store. The event log is opened read-only: verify never migrates, chains or signs. Prints a
 * report; any problem makes it throw (exit 1). Problems are listed in log order: the first is the first break.
 */
export async function verifyStore(config: Config, input: z.input<typeof verifyArguments>, output: CliOutput): Promise<void> {
  const { against } = parseArguments('verify', verifyArguments, input);
  const keptAt = against ?? (config.checkpointWitness.dir ? await newestWitnessFile(config.checkpointWitness.dir) : null);
  const kept = keptAt ? new AgainstCheck(await readKeptCheckpoint(keptAt), keptAt) : null;
  const problems = new Problems();
  const add = (problem: string) => problems.add(problem);
  let unprotected = 0;
  await withVerifyStores(config, async (stores) => {
      if (kept && !stores.chain) throw new Error('verify --against: this store keeps no checkpoints (EventStoreDB, or an embedded store never written)');
      const guards = stores.chain ? await stores.chain.audit.guards() : null;
      kept?.checkSignature(stores.chain!.key);
      const pass = stores.chain ? await checkpointPass(stores.chain.audit, stores.chain.key, add, kept) : null;
      const chain = new ChainCheck(pass?.walk.latest?.body.snapshot ?? null);
      const macs = stores.chain ? new MacVerification(stores.chain.macKey, stores.chain.macMarker, stores.chain.key) : null;
      const { events, streams, head, outOfOrder, brokenLinks, firstEventAt } = await checkStreams(stores, problems, output, chain, pass, macs);
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
      if (macs) for (const line of macs.report(events, add)) output.log(line);
      if (stores.chain && pass && guards) {
        const { walk } = pass;
        const facts = { guards, walk, firstEventAt, intervalMs: config.chainCheckpointIntervalMs, now: new Date() };
        for (const line of checkGuards(facts, add)) output.log(line);
        if (guards.preChain && walk.count === 0) {
          add("the log was written before the hash chain and is not chained yet: run 'cms migrate' (or start the service) to chain it, then verify");
        } else {
          if (walk.upgrade) {
            output.log(`chain: events written before checkpoint #${walk.upgrade.id} (${walk.upgrade.body.at}) were chained when the store was upgraded; they attest the log as it was then`);
          }
          if (walk.latest) for (const line of checkLatestHeads(walk.latest, walk.count, chain, add)) output.log(line);
          for (const line of walk.notes) output.log(line);
          if (walk.firstLinked && walk.firstLinked.id > 1) {
            output.log(`checkpoints: those before #${walk.firstLinked.id} were signed before each checkpoint named its predecessor: their signatures verify, and #${walk.firstLinked.id} extends the one before it`);
          }
          for (const problem of pass.comparison.problems) add(problem);
          problems.count += pass.comparison.problemCount - pass.comparison.problems.length;
          if (kept) for (const line of kept.report(walk, add)) output.log(line);
          output.log(tailLine(pass.order.after));
          if (guards.tables) await checkStreamHeads(stores.chain.audit, stores.events, chain, add);
        }
        unprotected = pass.order.after;
      }
      for (const line of await checkReadModels(stores, problems)) output.log(line);
  });
  for (const problem of problems.listed) output.log(`problem: ${problem}`);
  if (problems.count > problems.listed.length) output.log(`... and ${problems.count - problems.listed.length} more problems`);
  if (problems.count > 0) throw new Error(`verify: ${problems.count} problem${problems.count === 1 ? '' : 's'} found`);
  const tail = unprotected > 0 ? `; ${unprotected} event${unprotected === 1 ? '' : 's'} after the latest checkpoint, unprotected` : '';
  output.log(`verify: ok (every stream in order, every read model at the head of the log${tail})`);
}

async function checkpointPass(audit: ChainAudit, key: Buffer, add: (problem: string) => void, kept: AgainstCheck | null): Promise<CheckpointPass> {
  const walk = await walkCheckpoints(audit, key, add, (checkpoint) => kept?.inspect(checkpoint));
  return { walk, order: new IntervalOrder(walk.snapshots), comparison: new IntervalComparison(audit, walk.latest?.id ?? null, MAX_LISTED_PROBLEMS) };
}

/**
 * Reads the whole log page by page, keeping only each stream's last revision (and, in `chain`, its
 * last hash); each event also goes to its checkpoint's interval, and its MAC is checked.
 */
async function checkStreams(
  stores: VerifyStores,
  problems: Problems,
  output: CliOutput,
  chain: ChainCheck,
  pass: CheckpointPass | null,
  macs: MacVerification | null,
): Promise<{ events: number; streams: number; head: Position; outOfOrder: number; brokenLinks: number; firstEventAt: string | null }> {
  const head = await stores.events.headPosition();
  const lastRevisions = new Map<string, number>();
  let events = 0;
  let outOfOrder = 0;
  let brokenLinks = 0;
  let firstEventAt: string | null = null;
  const bar = progressBar(output, 'verify', '{events} events | {rate} events/s');
  const startedAt = Date.now();
  bar.start(POSITION_STEPS, 0, { events: 0, rate: 0 });
  try {
    for await (const page of logPages(stores.events, head)) {
      firstEventAt ??= page[0]!.metadata.timestamp;
      for (const event of page) {
        const last = lastRevisions.get(event.stream);
        const expected = last === undefined ? 0 : last + 1;
        if (event.revision !== expected) {
          outOfOrder++;
          problems.add(`stream ${event.stream}: revision ${event.revision} at position ${positionToString(event.position)}, where revision ${expected} was expected`);
        }
        lastRevisions.set(event.stream, event.revision);
        // Taken once for the chain and the MAC.
        const content = contentDigest(event);
        const broken = chain.check(event, content);
        if (broken) {
          brokenLinks++;
          problems.add(broken);
        }
        const forged = macs?.inspect(event, content);
        if (forged) problems.add(forged);
        pass?.order.add(event);
      }
      if (pass) await pass.comparison.compare(pass.order.take());
      events += page.length;
      bar.update(positionSteps(page[page.length - 1]!.position, head), { events, rate: eventsPerSecond(events, Date.now() - startedAt) });
    }
    if (pass) await pass.comparison.compare(pass.order.finish());
    bar.update(POSITION_STEPS, { events, rate: eventsPerSecond(events, Date.now() - startedAt) });
  } finally {
    bar.stop();
  }
  return { events, streams: lastRevisions.size, head, outOfOrder, brokenLinks, firstEventAt };
}

/** One report line per read model; those not at the head are problems. */
async function checkReadModels(stores: VerifyStores, problems: Problems): Promise<string[]> {
  // Read again: with a service on a shared database the log may have grown during the scan.
  const head = await stores.events.headPosition();
  const width = Math.max(...readModelProjectors.map((projector) => projector.name.length));
  const lines = ['read models (a checkpoint is the log position up to which a read model has applied the events):'];
  const checkpoints = resolveCheckpoints(await stores.readModelCheckpoints());
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
