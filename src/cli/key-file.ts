import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';

export const KEY_FILE_FORMAT = 'cms-workspace-keys';

/**
 * The keys of one workspace, wrapped by the master key (ENCRYPTION_KEY) as stored, in a file
 * of their own: the workspace's data key and the keys of its personal-data items that are not
 * shredded. An erased item's key is never in it, so a key file written after an erasure cannot
 * open that item's values in any export.
 */
export const keyFile = z.object({
  format: z.literal(KEY_FILE_FORMAT, { error: `must be "${KEY_FILE_FORMAT}"` }),
  version: z.literal(1, { error: 'must be 1, the only version this CLI reads' }),
  workspaceId: z.string().min(1),
  exportedAt: z.iso.datetime({ offset: true }),
  wrappedDataKey: z.string().min(1).nullable(),
  itemKeys: z.array(z.object({ itemId: z.string().min(1), wrapped: z.string().min(1) })),
});
export type KeyFile = z.infer<typeof keyFile>;

/** Written readable by its owner only. */
export async function writeKeyFile(path: string, keys: KeyFile): Promise<void> {
  await writeFile(path, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'w' });
}

export async function readKeyFile(path: string): Promise<KeyFile> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`import: the key file ${path} ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'is not JSON'}`, { cause: error });
  }
  const parsed = keyFile.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`import: the key file ${path}: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
}
