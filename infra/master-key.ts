import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const FILE_NAME = 'encryption.key';

/**
 * The master key that wraps the workspace data keys: ENCRYPTION_KEY when configured, else
 * a key generated on the first start into DATA_DIR (readable by the owner only).
 */
export async function loadMasterKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  const existing = await existingMasterKey(configured, dataDir);
  if (existing) return existing;
  const path = join(dataDir, FILE_NAME);
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const created = await readKeyFile(path);
  if (!created) throw new Error(`${path} could not be created`);
  return created;
}

/** The master key when one is configured or already generated; null instead of generating one. */
export async function existingMasterKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer | null> {
  return configured ?? readKeyFile(join(dataDir, FILE_NAME));
}

async function readKeyFile(path: string): Promise<Buffer | null> {
  try {
    const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
    if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
