import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockDataDir } from '../../infra/lock/data-dir';
import { HOLDER_FILE } from '../../infra/lock/holder';
import { DataDirInUse } from '../../infra/lock/lock';
import { ensureBuilt, REPO_ROOT } from '../support/build';

const BUILT_LOCK = join(REPO_ROOT, 'dist', 'infra', 'lock', 'data-dir.js');

/** What `work` throws: the DataDirInUse it must throw. */
async function refusal(work: Promise<unknown>): Promise<DataDirInUse> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DataDirInUse)) throw new Error(`expected DataDirInUse, got ${String(error)}`);
  return error;
}

/** Another process holding `dir` with the built lock, until it is killed. */
async function holderProcess(dir: string): Promise<ChildProcess> {
  await ensureBuilt();
  const script = `require(${JSON.stringify(BUILT_LOCK)}).lockDataDir(${JSON.stringify(dir)}, 'a test holder').then(() => console.log('held'), (e) => { console.error(e.message); process.exit(3); }); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('held')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}): ${output}`)));
  });
  return child;
}

describe('DATA_DIR lock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cms-lock-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('refuses a second acquisition in the same process, naming this process, until the first is released', async () => {
    const first = await lockDataDir(dir, 'the first');
    const refused = await refusal(lockDataDir(dir, 'the second'));
    expect(refused.holder).toMatchObject({ pid: process.pid, host: hostname(), purpose: 'the first' });
    expect(refused.message).toMatch(new RegExp(`^DATA_DIR ${dir} is in use by another process: the first \\(pid ${process.pid} on host .+, started at \\d{4}-.+Z\\)$`));

    await first.describe('the first, now listening');
    expect((await refusal(lockDataDir(dir, 'the second'))).holder?.purpose).toBe('the first, now listening');

    await first.release();
    const second = await lockDataDir(dir, 'the second');
    await second.release();
    // Released: nothing of the lock is left in the directory.
    expect(await readdir(dir)).toEqual([]);
  });

  it('is the directory, not its name: the same directory through a symbolic link is refused', async () => {
    const link = `${dir}-link`;
    await symlink(dir, link);
    try {
      const held = await lockDataDir(dir, 'by its name');
      expect((await refusal(lockDataDir(link, 'through the link'))).dir).toBe(dir);
      await held.release();
    } finally {
      await rm(link, { force: true });
    }
  });

  it('refuses while another process holds it, and is free at once when that process is killed (kill -9)', async () => {
    const holder = await holderProcess(dir);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      const refused = await refusal(lockDataDir(dir, 'this test'));
      expect(refused.holder).toMatchObject({ pid: holder.pid, purpose: 'a test holder' });
    } finally {
      holder.kill('SIGKILL');
    }
    await exited;
    // No wait, no retry: the kernel released it with the process. Its stale account is replaced.
    const taken = await lockDataDir(dir, 'after the kill');
    expect((await refusal(lockDataDir(dir, 'again'))).holder?.purpose).toBe('after the kill');
    await taken.release();
  });

  describe('without the flock program (the weaker lock)', () => {
    const NO_FLOCK = 'flock-missing-on-this-platform';

    it('refuses a second acquisition while the holder lives, and takes over the file of a dead process of this host', async () => {
      const first = await lockDataDir(dir, 'the first', NO_FLOCK);
      const refused = await refusal(lockDataDir(dir, 'the second', NO_FLOCK));
      expect(refused.holder).toMatchObject({ pid: process.pid, purpose: 'the first' });
      expect(refused.message).toContain(`remove it only if no process uses the directory`);
      await first.release();

      const dead = spawn(process.execPath, ['-e', '']);
      await new Promise((resolve) => dead.once('exit', resolve));
      await writeFile(join(dir, HOLDER_FILE), JSON.stringify({ pid: dead.pid, host: hostname(), startedAt: new Date().toISOString(), purpose: 'a crashed one' }));
      const taken = await lockDataDir(dir, 'after the crash', NO_FLOCK);
      await taken.release();
    });

    it("refuses another host's file, which it cannot judge", async () => {
      await writeFile(join(dir, HOLDER_FILE), JSON.stringify({ pid: process.pid, host: `not-${hostname()}`, startedAt: new Date().toISOString(), purpose: 'a container' }));
      expect((await refusal(lockDataDir(dir, 'here', NO_FLOCK))).holder?.purpose).toBe('a container');
    });
  });
});
