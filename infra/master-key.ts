import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const FILE_NAME = 'encryption.key';

/**
 * The master key that wraps the workspace data keys: ENCRYPTION_KEY when configured, else
 * a key generated on the first start into DATA_DIR (readable by the owner only).
 */
export async function loadMasterKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return configured;
  const path = join(dataDir, FILE_NAME);
  try {
    const stored = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
    if (stored.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`);
    return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  await writeFile(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
