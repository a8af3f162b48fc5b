import pino from 'pino';
import { comparePositions, type Position, type RecordedEvent } from '../../infra/eventstore/port';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { type ProcessManager, ProcessRunner } from '../../projections/processes/process-runner';
import { eventually } from '../support/waiting';
import { openMemoryPglite } from '../support/pglite-template';

const metadata = { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: new Date(0).toISOString() };
const silent = pino({ level: 'silent' });


/** Handles `Work` events; a test can hold one back or make it fail a number of times. */
function workManager() {
  const handled: string[] = [];
  const held = new Map<string, () => void>();
  const failures = new Map<string, number>();
  const manager: ProcessManager = {
    name: 'work',
    eventTypes: new Set(['Work', 'Nothing']),
    async handle(event: RecordedEvent) {
      if (event.type === 'Nothing') return false;
      const { id } = event.data as { id: string };
      if ((failures.get(id) ?? 0) > 0) {
        failures.set(id, failures.get(id)! - 1);
        throw new Error(`${id} failed`);
      }
      if (held.has(id)) await new Promise<void>((resolve) => held.set(id, resolve));
      handled.push(id);
    },
  };
  return {
    manager,
    handled,
    hold: (id: string) => held.set(id, () => undefined),
    release: (id: string) => held.get(id)?.(),
    failTimes: (id: string, times: number) => failures.set(id, times),
  };
}

describe('ProcessRunner', () => {
  it('starts at the head, handles events concurrently, never checkpoints past one in flight, and retries a failing one', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const append = async (id: string, type = 'Work') => (await events.append(`work-${id}`, [{ type, data: { id }, metadata }], 'no_stream')).position;

    await append('before-start');
    const work = workManager();
    const runner = new ProcessRunner(events, store, work.manager, silent, { checkpointEveryMs: 10, retryDelayMs: 10 });
    await runner.start();

    work.hold('b');
    work.failTimes('c', 2);
    const a = await append('a');
    const b = await append('b');
    await append('ignored', 'Other');
    await append('c');
    const d = await append('d');

    await eventually(() => ['a', 'c', 'd'].every((id) => work.handled.includes(id)));
    expect(work.handled).not.toContain('before-start');
    expect(work.handled).not.toContain('b');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const whileHeld = (await store.getCheckpoint(runner.checkpointName))!;
    expect(comparePositions(whileHeld, a)).toBeGreaterThanOrEqual(0);
    expect(comparePositions(whileHeld, b)).toBeLessThan(0);

    work.release('b');
    await eventually(async () => comparePositions((await store.getCheckpoint(runner.checkpointName)) as Position, d) === 0);
    expect([...work.handled].sort()).toEqual(['a', 'b', 'c', 'd']);
    await runner.stop();

    // A new runner on the same checkpoint handles only what came after it.
    const e = await append('e');
    const again = workManager();
    const restarted = new ProcessRunner(events, store, again.manager, silent, { checkpointEveryMs: 10 });
    await restarted.start();
    await eventually(() => again.handled.includes('e'));
    await restarted.stop();
    expect(again.handled).toEqual(['e']);
    expect(await store.getCheckpoint(restarted.checkpointName)).toEqual(e);
    await sql.close();
  });

  it('saves progress over events that called for nothing only now and then, over handled ones at once, and all of it on a stop', async () => {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const append = async (id: string, type = 'Work') => (await events.append(`work-${id}`, [{ type, data: { id }, metadata }], 'no_stream')).position;
    const checkpointOf = async (runner: ProcessRunner) => (await store.getCheckpoint(runner.checkpointName))!;
    const work = workManager();
    const runner = new ProcessRunner(events, store, work.manager, silent, { checkpointEveryMs: 10, passingCheckpointEveryMs: 60_000 });
    await runner.start();
    const start = await checkpointOf(runner);

    await append('other-1', 'Other');
    await append('nothing-1', 'Nothing');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await checkpointOf(runner)).toEqual(start);

    const own = await append('own');
    await eventually(async () => comparePositions(await checkpointOf(runner), own) === 0);
    const other = await append('nothing-2', 'Nothing');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await checkpointOf(runner)).toEqual(own);

    await runner.stop();
    expect(await checkpointOf(runner)).toEqual(other);

    // Passing others' events alone, the checkpoint still moves once the longer interval is over.
    const passing = new ProcessRunner(events, store, workManager().manager, silent, { checkpointEveryMs: 10, passingCheckpointEveryMs: 100 });
    await passing.start();
    const later = await append('other-3', 'Other');
    await eventually(async () => comparePositions(await checkpointOf(passing), later) === 0);
    await passing.stop();
    expect(work.handled).toEqual(['own']);
    await sql.close();
  });
});

describe('ProcessRunner read pause', () => {
  async function started(readPauseMs: number) {
    const sql = await openMemoryPglite();
    const events = await PostgresEventStore.create(sql);
    const store = await PostgresReadStore.open(sql);
    const work = workManager();
    const runner = new ProcessRunner(events, store, work.manager, silent, { readPauseMs });
    await runner.start();
    /** Appends a Work event and resolves once it is handled, with the ms that took. */
    const handledIn = async (id: string) => {
      const appended = performance.now();
      await events.append(`work-${id}`, [{ type: 'Work', data: { id }, metadata }], 'no_stream');
      await eventually(async () => work.handled.includes(id));
      return performance.now() - appended;
    };
    const stop = async () => {
      await runner.stop();
      await sql.close();
    };
    return { handledIn, stop };
  }

  it('reads the log again only after its pause once it has caught up', async () => {
    const runner = await started(400);
    await runner.handledIn('a');
    expect(await runner.handledIn('b')).toBeGreaterThanOrEqual(300);
    await runner.stop();
  });

  it('is stopped in the middle of a pause without waiting it out', async () => {
    const runner = await started(60_000);
    await runner.handledIn('a');
    const stopping = performance.now();
    await runner.stop();
    expect(performance.now() - stopping).toBeLessThan(5_000);
  });
});
