/**
 * PGlite takes seconds to create a database (its initdb), several times what starting the
 * service on it takes, and the suites create well over a hundred. One database is created per
 * PGlite version before the suites run (jest's globalSetup), and every embedded store of the
 * tests starts as a copy of it: the directory for a store on disk, a tar image for one in
 * memory. Kept in node_modules/.cache, so `npm ci` starts afresh.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PgliteSqlClient, type PgliteOptions } from '../../infra/sql/pglite-client';

const pgliteRoot = join(dirname(require.resolve('@electric-sql/pglite')), '..');
const { version } = JSON.parse(readFileSync(join(pgliteRoot, 'package.json'), 'utf8')) as { version: string };
const templateDir = join(pgliteRoot, '..', '..', '.cache', 'cms-tests', `pglite-${version}`);
const dataDir = join(templateDir, 'data');
const imageFile = join(templateDir, 'image.tar');

export async function createPgliteTemplate(): Promise<void> {
  if (existsSync(imageFile)) return;
  const building = `${templateDir}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const db = await PGlite.create(join(building, 'data'));
  const image = await db.dumpDataDir('none');
  await db.close();
  writeFileSync(join(building, 'image.tar'), new Uint8Array(await image.arrayBuffer()));
  try {
    renameSync(building, templateDir);
  } catch (error) {
    // Another run made it meanwhile.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(imageFile)) throw error;
  }
}

/** Puts a created database at `target` (the embedded engine's directory, DATA_DIR/pglite) when the template exists. */
export async function copyPgliteTemplate(target: string): Promise<void> {
  if (existsSync(imageFile)) await cp(dataDir, target, { recursive: true });
}

let image: Uint8Array | undefined;

/** An embedded database in memory, started from the template when it exists. */
export function openMemoryPglite(options: Omit<PgliteOptions, 'image'> = {}): Promise<PgliteSqlClient> {
  if (!image && existsSync(imageFile)) image = new Uint8Array(readFileSync(imageFile));
  return PgliteSqlClient.open(undefined, { ...options, ...(image ? { image } : {}) });
}
