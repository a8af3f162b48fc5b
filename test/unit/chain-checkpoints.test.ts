import pino from 'pino';
import { type ChainAudit, type Checkpoint, type CheckpointBody, CheckpointRefused } from '../../infra/eventstore/chain-audit';
import type { EventStore } from '../../infra/eventstore/port';
import { ChainCheckpoints } from '../../projections/processes/chain-checkpoints';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An audit whose checkpoints take `durationMs`, recording how many ran at once. */
function slowAudit(durationMs: number) {
  const record = { written: 0, running: 0, mostAtOnce: 0 };
  const audit: ChainAudit = {
    checkpoints: async () => [],
    checkpointPages: async function* () {},
    streamHeads: async function* () {},
    guards: async () => ({ tables: true, triggers: [], preChain: false, checkpointIdsIssued: null, checkpointIdsReadable: true }),
    writeCheckpoint: async (kind: CheckpointBody['kind']): Promise<Checkpoint> => {
      record.running++;
      record.mostAtOnce = Math.max(record.mostAtOnce, record.running);
      await sleep(durationMs);
      record.running--;
      record.written++;
      return { id: record.written, signature: null, body: { kind, at: new Date().toISOString(), snapshot: '', streams: 0, events: 0, digest: '' } };
    },
  };
  return { audit, record };
}

/** A log that grows between any two looks at its head. */
function growingLog(): EventStore {
  let commit = 0n;
  return { headPosition: async () => ({ commit: ++commit, prepare: 0n }) } as unknown as EventStore;
}

describe('ChainCheckpoints', () => {
  it('runs one checkpoint at a time, and waits a multiple of the last one’s duration before the next, however short the interval', async () => {
    const { audit, record } = slowAudit(100);
    const checkpoints = new ChainCheckpoints(audit, Buffer.alloc(32), growingLog(), pino({ level: 'silent' }), 10);
    checkpoints.start();
    await sleep(700);
    await checkpoints.stop();
    expect(record.mostAtOnce).toBe(1);
    // First at 10 ms, each 100 ms long and followed by a 400 ms pause: two periodic checkpoints in 700 ms, then the stop's.
    expect(record.written).toBeGreaterThanOrEqual(2);
    expect(record.written).toBeLessThanOrEqual(3);
  });

  it('signs once more at a clean stop even while a checkpoint is running, and schedules none after it', async () => {
    const { audit, record } = slowAudit(100);
    const checkpoints = new ChainCheckpoints(audit, Buffer.alloc(32), growingLog(), pino({ level: 'silent' }), 10);
    checkpoints.start();
    while (record.running === 0) await sleep(5);
    await checkpoints.stop();
    expect(record.written).toBe(2);
    await sleep(300);
    expect(record.written).toBe(2);
    expect(record.mostAtOnce).toBe(1);
  });

  it('tells the observer of each checkpoint refused, tries again at the next interval, and of the one signed once the log extends the latest again', async () => {
    let refusals = 2;
    const audit: ChainAudit = {
      ...slowAudit(0).audit,
      writeCheckpoint: async (kind: CheckpointBody['kind']) => {
        if (refusals-- > 0) throw new CheckpointRefused(1, ['the stream heads as of checkpoint #1, rebuilt from the log, are not the ones it signed']);
        return { id: 2, signature: null, body: { kind, at: new Date().toISOString(), snapshot: '', streams: 0, events: 0, digest: '' } };
      },
    };
    const seen: string[] = [];
    const checkpoints = new ChainCheckpoints(audit, Buffer.alloc(32), growingLog(), pino({ level: 'silent' }), 10, {
      signed: (checkpoint) => void seen.push(`signed #${checkpoint.id}`),
      refused: (error) => void seen.push(`refused after #${error.latest}: ${error.problems[0]}`),
    });
    checkpoints.start();
    while (seen.length < 3) await sleep(5);
    await checkpoints.stop();
    expect(seen.slice(0, 3)).toEqual([
      'refused after #1: the stream heads as of checkpoint #1, rebuilt from the log, are not the ones it signed',
      'refused after #1: the stream heads as of checkpoint #1, rebuilt from the log, are not the ones it signed',
      'signed #2',
    ]);
  });
});
