import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Checkpoint } from '../../infra/eventstore/chain-audit';
import { witnessText } from '../../infra/eventstore/witness-file';
import { eventually } from '../support/waiting';
import { CheckpointWitnesses, DirectoryWitness, WitnessDiffers, type WitnessObserver } from '../../projections/processes/checkpoint-witnesses';

const checkpoint = (id: number, digest = 'a'.repeat(64)): Checkpoint => ({
  id,
  signature: 'b'.repeat(64),
  body: { kind: 'periodic', at: '2026-01-02T03:04:05.000Z', snapshot: `${id}:${id}:`, streams: 1, events: id, digest, id, previous: null, order: { added: 1, digest, last: `${id}/${id}` } },
});

function recordingObserver() {
  const record = { published: 0, failed: 0, pending: [] as number[], differs: [] as WitnessDiffers[] };
  const observer: WitnessObserver = {
    published: () => void record.published++,
    failed: () => void record.failed++,
    pending: (_, count) => void record.pending.push(count),
    differs: (error) => void record.differs.push(error),
  };
  return { record, observer };
}

describe('checkpoint witnesses', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cms-witness-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('writes each checkpoint whole under its id, takes the same one again, and refuses another one under that id', async () => {
    const witness = new DirectoryWitness(join(directory, 'kept'));
    await witness.publish(checkpoint(7));
    await witness.publish(checkpoint(7));
    expect(await readdir(join(directory, 'kept'))).toEqual(['checkpoint-000000000007.json']);
    expect(await readFile(join(directory, 'kept', 'checkpoint-000000000007.json'), 'utf8')).toBe(witnessText(checkpoint(7)));
    await expect(witness.publish(checkpoint(7, 'c'.repeat(64)))).rejects.toThrow(WitnessDiffers);
    // The file kept is the first, and no temporary file is left behind.
    expect(await readdir(join(directory, 'kept'))).toEqual(['checkpoint-000000000007.json']);
    expect(await readFile(join(directory, 'kept', 'checkpoint-000000000007.json'), 'utf8')).toBe(witnessText(checkpoint(7)));
  });

  it('retries a failing witness with a growing wait, in order, and hands on what differs', async () => {
    const blocked = join(directory, 'witness');
    await writeFile(blocked, 'a file where the directory should be');
    const { record, observer } = recordingObserver();
    const witnesses = new CheckpointWitnesses([new DirectoryWitness(blocked)], observer, pino({ level: 'silent' }), { retryMs: 20, maxRetryMs: 40, maxPending: 10 });
    witnesses.publish(checkpoint(1));
    witnesses.publish(checkpoint(2));
    await eventually(() => record.failed >= 2);
    expect(record.published).toBe(0);
    await rm(blocked);
    await eventually(() => record.published === 2);
    expect(await readdir(blocked)).toEqual(['checkpoint-000000000001.json', 'checkpoint-000000000002.json']);
    expect(record.published).toBe(2);
    expect(record.pending.at(-1)).toBe(0);

    witnesses.publish(checkpoint(2, 'c'.repeat(64)));
    await witnesses.stop(1000);
    expect(record.differs.map((error) => error.id)).toEqual([2]);
  });

  it('keeps at most maxPending checkpoints while a witness fails, the newest, and stops retrying at a stop, keeping the rest for the next start', async () => {
    const blocked = join(directory, 'witness');
    await writeFile(blocked, '');
    const { record, observer } = recordingObserver();
    const witnesses = new CheckpointWitnesses([new DirectoryWitness(blocked)], observer, pino({ level: 'silent' }), { retryMs: 10, maxRetryMs: 10, maxPending: 2 });
    for (const id of [1, 2, 3, 4]) witnesses.publish(checkpoint(id));
    expect(record.pending.at(-1)).toBe(2);
    await rm(blocked);
    await witnesses.stop(1000);
    expect(await readdir(blocked)).toEqual(['checkpoint-000000000003.json', 'checkpoint-000000000004.json']);

    const stuck = new CheckpointWitnesses([new DirectoryWitness(join(directory, 'x', 'y'))], observer, pino({ level: 'silent' }), { retryMs: 60_000, maxRetryMs: 60_000, maxPending: 2 });
    await writeFile(join(directory, 'x'), '');
    stuck.publish(checkpoint(5));
    const started = Date.now();
    await stuck.stop(50);
    expect(Date.now() - started).toBeLessThan(1000);
    // Kept for the next start: a publish after the stop takes both.
    await rm(join(directory, 'x'));
    stuck.publish(checkpoint(6));
    await eventually(async () => (await readdir(join(directory, 'x', 'y')).catch(() => [])).length === 2);
  });
});
