import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Clock } from '../../infra/clock';
import { loadConfig } from '../../src/config';
import { startService, type RunningService } from '../../src/server';
import { copyPgliteTemplate } from './pglite-template';
import { createTestDatabase } from './postgres';

export type Engine = 'pglite' | 'postgres';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestService {
  readonly service: RunningService;
  readonly url: string;
  /** Keys of the default workspace created on first start. */
  readonly readKey: string;
  readonly writeKey: string;
  readonly workspaceId: string;
  /** The variables that point a process at this service's store (DATA_DIR, DATABASE_URL, ADMIN_TOKEN). */
  readonly environment: Record<string, string>;
  /** Stops the service and starts it again on the same data, with `environment` over the first one's. */
  restart(environment?: Record<string, string>): Promise<TestService>;
  close(): Promise<void>;
}

interface Storage {
  readonly environment: Record<string, string>;
  readonly cleanUp: () => Promise<void>;
}

async function createStorage(engine: Engine): Promise<Storage> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-test-'));
  const removeDir = () => rm(dataDir, { recursive: true, force: true });
  if (engine === 'pglite') {
    await copyPgliteTemplate(join(dataDir, 'pglite'));
    return { environment: { DATA_DIR: dataDir }, cleanUp: removeDir };
  }
  const database = await createTestDatabase();
  return {
    environment: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    cleanUp: async () => {
      await database.drop();
      await removeDir();
    },
  };
}

async function launch(storage: Storage, extra: Record<string, string>, first: RunningService['bootstrap'] | null, clock?: Clock): Promise<TestService> {
  const config = loadConfig({ PORT: '0', ADMIN_TOKEN, LOG_LEVEL: 'silent', ...storage.environment, ...extra });
  const service = await startService(config, pino({ level: 'silent' }), clock);
  const bootstrap = service.bootstrap ?? first;
  if (!bootstrap) throw new Error('the test store was not bootstrapped');
  const running: TestService = {
    service,
    url: service.url,
    readKey: bootstrap.readKey,
    writeKey: bootstrap.writeKey,
    workspaceId: bootstrap.workspaceId,
    environment: { ADMIN_TOKEN, ...storage.environment },
    restart: async (environment = {}) => {
      await service.close();
      return launch(storage, { ...extra, ...environment }, bootstrap, clock);
    },
    close: async () => {
      await service.close();
      await storage.cleanUp();
    },
  };
  return running;
}

/** The real service on a fresh store of the given engine, listening on a free port. */
export async function startTestService(engine: Engine, environment: Record<string, string> = {}, clock?: Clock): Promise<TestService> {
  return launch(await createStorage(engine), environment, null, clock);
}

/** The real clock moved forward by whatever the test adds: timers keep running, due times arrive early. */
export function movableClock(): Clock & { advance(ms: number): void } {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance: (ms) => {
      offsetMs += ms;
    },
  };
}
