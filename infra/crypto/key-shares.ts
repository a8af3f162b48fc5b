import { randomBytes } from 'node:crypto';

/**
 * `count` shares of `key` whose XOR is the key: all of them are needed to get it back, and
 * any fewer are uniformly random, telling nothing about it (n-of-n secret sharing).
 */
export function splitKey(key: Buffer, count: number): Buffer[] {
  if (count < 1) throw new Error('a key is split into at least one share');
  const shares = Array.from({ length: count - 1 }, () => randomBytes(key.length));
  return [...shares, joinShares([key, ...shares])];
}

/** The key the shares were split from: their XOR. */
export function joinShares(shares: readonly Buffer[]): Buffer {
  const key = Buffer.alloc(shares[0]?.length ?? 0);
  for (const share of shares) {
    if (share.length !== key.length) throw new Error('key shares differ in length');
    for (let index = 0; index < key.length; index++) key[index]! ^= share[index]!;
  }
  return key;
}
