import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FsBlobStore } from '../../infra/blobs/fs';
import { describeBlobStoreConformance } from './blobstore.suite';

async function openInTempDirectory() {
  const directory = await mkdtemp(join(tmpdir(), 'blobstore-'));
  const store = await FsBlobStore.open(join(directory, 'blobs'));
  return {
    store,
    directory,
    close: async () => {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

describeBlobStoreConformance('file system', openInTempDirectory);

describe('FsBlobStore specifics', () => {
  test('finished and failed puts leave no temp files behind', async () => {
    const { store, directory, close } = await openInTempDirectory();
    try {
      await store.put('a/b', Buffer.from('done'));
      const failing = Readable.from(
        (async function* () {
          yield Buffer.from('half');
          throw new Error('source failed');
        })(),
      );
      await expect(store.put('a/c', failing)).rejects.toThrow('source failed');
      expect(await readdir(join(directory, 'blobs', '#tmp'))).toEqual([]);
    } finally {
      await close();
    }
  });
});
