import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);
const INSTALL_ROOT = '/usr/lib/postgresql';
/** PostgreSQL refuses to run as root; a root test runs it as this (Debian's) user. */
const SERVER_USER = 'postgres';

/** The bin folder of the newest PostgreSQL server installed from Debian's packages, or null when there is none. */
export function postgresServerBinaries(): string | null {
  if (!existsSync(INSTALL_ROOT)) return null;
  const versions = readdirSync(INSTALL_ROOT)
    .filter((version) => existsSync(join(INSTALL_ROOT, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(INSTALL_ROOT, versions[0], 'bin') : null;
}

/**
 * A PostgreSQL server of the test's own (not the shared one on 5432), so that a test may stop
 * and start it: a fresh cluster in a temp folder, on a free loopback port, trust
 * authentication, no Unix socket. fsync is off for speed: a stop, even an immediate one, only
 * kills processes, and the written pages are in the OS cache by then.
 */
export interface PrivateCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** Kills the server at once (`pg_ctl stop -m immediate`): connections drop, nothing is shut down cleanly. */
  stop(): Promise<void>;
  /** Starts it again on the same data (crash recovery included); resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

export async function startPrivateCluster(binaries: string): Promise<PrivateCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const [uid, gid] = await Promise.all([idOf('-u'), idOf('-g')]);
    await chown(dataDir, uid, gid);
  }
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', SERVER_USER, '--', join(binaries, name), ...args]) : run(join(binaries, name), args);

  await tool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c full_page_writes=off`;
  const start = async () => {
    await tool('pg_ctl', ['start', '-D', dataDir, '-w', '-t', '30', '-l', join(dataDir, 'server.log'), '-o', options]);
  };
  const stop = async () => {
    await tool('pg_ctl', ['stop', '-D', dataDir, '-w', '-m', 'immediate']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy: async () => {
      await stop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function idOf(flag: '-u' | '-g'): Promise<number> {
  const { stdout } = await run('id', [flag, SERVER_USER]);
  return Number(stdout.trim());
}
