import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { type RunningService, startService } from '../../src/server';
import { createTestDatabase } from '../support/postgres';
import { ADMIN_TOKEN } from '../support/service';

/**
 * Instances of one store must share ENCRYPTION_KEY. An instance started with a key of its own
 * (generated in its own DATA_DIR) would take every event for a forgery once it held the lease:
 * it refuses to start, saying why.
 */
describe('an instance whose ENCRYPTION_KEY is not the store\'s (postgres)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const dataDirs: string[] = [];
  let first: RunningService | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    for (let index = 0; index < 3; index++) dataDirs.push(await mkdtemp(join(tmpdir(), 'cms-instance-key-')));
  });
  afterAll(async () => {
    await first?.close();
    await database?.drop();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  });

  const start = (dataDir: string, environment: Record<string, string> = {}) =>
    startService(loadConfig({ PORT: '0', DATABASE_URL: database.url, DATA_DIR: dataDir, ADMIN_TOKEN, ...environment }), pino({ level: 'silent' }));

  it('refuses to start and names the setting; with the same key it starts', async () => {
    first = await start(dataDirs[0]!);
    await expect(start(dataDirs[1]!)).rejects.toThrow(/ENCRYPTION_KEY: this is not the key the event log was written with/);
    const sharedKey = (await readFile(join(dataDirs[0]!, 'encryption.key'), 'utf8')).trim();
    const second = await start(dataDirs[2]!, { ENCRYPTION_KEY: sharedKey });
    await second.close();
  }, 60_000);
});
