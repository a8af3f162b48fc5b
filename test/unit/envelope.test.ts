import { randomBytes } from 'node:crypto';
import { WorkspaceCipher } from '../../infra/crypto/envelope';
import type { DataKeyStore } from '../../infra/keys/port';
import { open } from '../../infra/crypto/aes-gcm';

/** An in-memory DataKeyStore: the cipher's logic is under test here, the adapters in test/conformance. */
function memoryKeys(): DataKeyStore & { wrapped: Map<string, string> } {
  const wrapped = new Map<string, string>();
  return {
    wrapped,
    get: async (id) => wrapped.get(id) ?? null,
    putIfAbsent: async (id, value) => {
      if (!wrapped.has(id)) wrapped.set(id, value);
      return wrapped.get(id)!;
    },
    delete: async (id) => {
      wrapped.delete(id);
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
    await expect(cipher.decrypt('ws-1', sealed)).rejects.toThrow('has no data key');
    await expect(new WorkspaceCipher(master, keys).decrypt('ws-1', sealed)).rejects.toThrow();
  });

  it('rejects tampered ciphertext', async () => {
    const cipher = new WorkspaceCipher(master, memoryKeys());
    const sealed = await cipher.encrypt('ws-1', 'value');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    await expect(cipher.decrypt('ws-1', parts.join('.'))).rejects.toThrow();
  });
});
