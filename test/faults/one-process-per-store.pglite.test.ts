import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentStream } from '../../src/domain/content/events';
import { withStores } from '../../src/cli/stores';
import { loadConfig } from '../../src/config';
import { BUILT_CLI, BUILT_MAIN } from '../support/build';
import { type BuiltService, runBuilt, startBuiltService } from '../support/built-service';
import { freePort } from '../support/free-port';
import { call } from '../support/http';
import { ADMIN_TOKEN } from '../support/service';

const noteType = { name: 'Note', key: 'Note', fields: [{ key: 'text', type: 'Text', required: true }] };
const IN_USE = (dir: string) => new RegExp(`DATA_DIR ${dir} is in use by another process: the service on port \\d+ \\(pid (\\d+) on host .+, started at \\d{4}-.+Z\\)`);

const stop = async (service: BuiltService | undefined) => {
  if (service && service.process.exitCode === null && service.process.signalCode === null) {
    service.process.kill('SIGKILL');
    await service.exited;
  }
};

describe('one process per embedded store (pglite, built service)', () => {
  let dataDir: string;
  let first: BuiltService | undefined;
  let next: BuiltService | undefined;
  let holder: ChildProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cms-one-process-'));
  });

  afterAll(async () => {
    await stop(first);
    await stop(next);
    holder?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a second service and the CLI commands that open the store while the first runs; the first keeps its writes; a kill -9 frees the store at once', async () => {
    const environment = { DATA_DIR: dataDir, ADMIN_TOKEN };
    first = await startBuiltService(environment, { firstStart: true });
    const { writeKey, readKey, workspaceId } = first.firstStart!;
    expect((await call(first.url, 'PUT', '/content-types', { key: writeKey, body: noteType })).status).toBe(200);
    const save = async (url: string, text: string) => {
      const saved = await call(url, 'PUT', '/v2/contents/Note', { key: writeKey, body: { fields: { text } } });
      expect(saved.status).toBe(200);
      return saved.body.id as string;
    };
    const before = await save(first.url, 'acknowledged before the second start');

    const second = await runBuilt(BUILT_MAIN, [], environment);
    expect(second.code).toBe(1);
    const refused = IN_USE(dataDir).exec(second.output);
    expect(refused?.[1]).toBe(String(first.process.pid));
    expect(second.output).toContain('cannot start: ');
    expect(second.output).toContain('stop that one first, or give this one another DATA_DIR');

    // The CLI commands that would open the store themselves: writers and readers alike.
    const nobodyThere = `http://127.0.0.1:${await freePort()}`;
    const commands: [string[], string][] = [
      [['migrate'], 'migrate: '],
      [['projections', 'rebuild', '--url', nobodyThere], 'projections rebuild: '],
      [['verify'], 'verify: '],
      [['export', workspaceId], 'export: '],
      [['projections', 'status', '--url', nobodyThere], 'projections status: '],
    ];
    for (const [args, prefix] of commands) {
      const run = await runBuilt(BUILT_CLI, args, environment);
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      expect(run.output).toContain(prefix);
      expect(run.output).toMatch(IN_USE(dataDir));
    }
    const verify = await runBuilt(BUILT_CLI, ['verify'], environment);
    expect(verify.output).toContain('verify cannot vouch for a store another process is writing');
    expect(verify.output).not.toContain('verify: ok');

    // The first still answers, writes and reads.
    const after = await save(first.url, 'acknowledged after the refusals');
    expect((await call(first.url, 'GET', `/v2/contents/Note/${before}`, { key: readKey })).body.fields).toEqual({ text: 'acknowledged before the second start' });

    first.process.kill('SIGKILL');
    await first.exited;
    // No wait: the kernel freed the lock with the process.
    next = await startBuiltService(environment);
    expect((await call(next.url, 'GET', `/v2/contents/Note/${after}`, { key: readKey })).body.fields).toEqual({ text: 'acknowledged after the refusals' });
    next.process.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);

    // Both acknowledged writes are in the log.
    await withStores(loadConfig({ ...environment, LOG_LEVEL: 'silent' }), 'verify', async (stores) => {
      for (const [itemId, text] of [[before, 'acknowledged before the second start'], [after, 'acknowledged after the refusals']] as const) {
        const events = await stores.events.readStream(contentStream(workspaceId, itemId));
        expect(JSON.stringify(events.map((event) => event.data))).toContain(text);
      }
    });
  }, 120_000);

  it('a refused start writes nothing: a DATA_DIR held by another process stays empty', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'cms-held-'));
    try {
      // Held by flock(1) itself, which writes nothing there: all that appears would be the refused service's.
      holder = spawn('flock', ['-n', '-x', empty, 'sh', '-c', 'echo held; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
      await new Promise((resolve) => holder!.stdout!.once('data', resolve));
      const refused = await runBuilt(BUILT_MAIN, [], { DATA_DIR: empty, ADMIN_TOKEN });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`DATA_DIR ${empty} is in use by another process: a process that has not written who it is`);
      expect(await readdir(empty)).toEqual([]);
    } finally {
      holder?.kill('SIGKILL');
      await rm(empty, { recursive: true, force: true });
    }
  }, 60_000);
});
