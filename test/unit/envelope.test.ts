import { randomBytes } from 'node:crypto';
import { WorkspaceCipher, WorkspaceKeyGoneError } from '../../infra/crypto/envelope';
import type { DataKeyStore } from '../../infra/keys/port';
import { open } from '../../infra/crypto/aes-gcm';

/** An in-memory DataKeyStore: the cipher's logic is under test here, the adapters in test/conformance. */
function memoryKeys(): DataKeyStore & { wrapped: Map<string, string> } {
  const wrapped = new Map<string, string>();
  const ledger = new Set<string>();
  return {
    wrapped,
    get: async (id) => wrapped.get(id) ?? null,
    putIfAbsent: async (id, value) => {
      if (!wrapped.has(id) && ledger.has(id)) return null;
      ledger.add(id);
      if (!wrapped.has(id)) wrapped.set(id, value);
      return wrapped.get(id)!;
    },
    delete: async (id) => {
      wrapped.delete(id);
    },
    isGone: async (id) => ledger.has(id) && !wrapped.has(id),
    replaceGone: async (id, value) => {
      ledger.add(id);
      if (!wrapped.has(id)) wrapped.set(id, value);
      return wrapped.get(id) === value;
    },
  };
}

describe('envelope encryption', () => {
  const master = randomBytes(32);

  it('round-trips values per workspace, with a fresh IV each time', async () => {
    const cipher = new WorkspaceCipher(master, memoryKeys());
    const first = await cipher.encrypt('ws-1', 'the secret');
    const second = await cipher.encrypt('ws-1', 'the secret');
    expect(first).not.toBe(second);
    expect(first).not.toContain('the secret');
    expect(await cipher.decrypt('ws-1', first)).toBe('the secret');
  });

  it('stores data keys only wrapped by the master key, one per workspace', async () => {
    const keys = memoryKeys();
    const cipher = new WorkspaceCipher(master, keys);
    const sealed = await cipher.encrypt('ws-1', 'value');
    await cipher.encrypt('ws-2', 'value');
    expect(keys.wrapped.size).toBe(2);
    const dataKey = open(master, keys.wrapped.get('ws-1')!);
    expect(dataKey).toHaveLength(32);
    expect(() => open(randomBytes(32), keys.wrapped.get('ws-1')!)).toThrow();
    await expect(cipher.decrypt('ws-2', sealed)).rejects.toThrow();
  });

  it('shreds: after the data key is deleted the ciphertext cannot be read', async () => {
    const keys = memoryKeys();
    const cipher = new WorkspaceCipher(master, keys);
    const sealed = await cipher.encrypt('ws-1', 'value');
    await cipher.shred('ws-1');
    await expect(cipher.decrypt('ws-1', sealed)).rejects.toThrow(WorkspaceKeyGoneError);
    await expect(new WorkspaceCipher(master, keys).decrypt('ws-1', sealed)).rejects.toThrow('was shredded');
  });

  it('creates no new key silently after a shred: only an explicit new key, which opens nothing of the old', async () => {
    const keys = memoryKeys();
    const cipher = new WorkspaceCipher(master, keys);
    const sealed = await cipher.encrypt('ws-1', 'value');
    await cipher.shred('ws-1');
    await expect(cipher.encrypt('ws-1', 'new value')).rejects.toThrow(WorkspaceKeyGoneError);
    expect(keys.wrapped.has('ws-1')).toBe(false);
    expect(await cipher.createAfterShred('ws-1')).toBe(true);
    expect(await cipher.createAfterShred('ws-1')).toBe(false);
    expect(await cipher.decrypt('ws-1', await cipher.encrypt('ws-1', 'new value'))).toBe('new value');
    await expect(cipher.decrypt('ws-1', sealed)).rejects.toThrow();
  });

  it('derives keys per workspace and purpose that stay the same across instances, and go with a shredded data key', async () => {
    const keys = memoryKeys();
    const cipher = new WorkspaceCipher(master, keys);
    const key = await cipher.derivedKey('ws-1', 'image-url-signing/1');
    expect(key).toHaveLength(32);
    expect(await new WorkspaceCipher(master, keys).derivedKey('ws-1', 'image-url-signing/1')).toEqual(key);
    expect(await cipher.derivedKey('ws-1', 'image-url-signing/2')).not.toEqual(key);
    expect(await cipher.derivedKey('ws-2', 'image-url-signing/1')).not.toEqual(key);
    expect(key.equals(open(master, keys.wrapped.get('ws-1')!))).toBe(false);
    await cipher.shred('ws-1');
    await expect(cipher.derivedKey('ws-1', 'image-url-signing/1')).rejects.toThrow(WorkspaceKeyGoneError);
  });

  it('rejects tampered ciphertext', async () => {
    const cipher = new WorkspaceCipher(master, memoryKeys());
    const sealed = await cipher.encrypt('ws-1', 'value');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    await expect(cipher.decrypt('ws-1', parts.join('.'))).rejects.toThrow();
  });
});
