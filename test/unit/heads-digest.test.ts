import { createHash } from 'node:crypto';
import { HeadsDigest, OrderDigest } from '../../infra/eventstore/chain-audit';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the digests a checkpoint signs', () => {
  // Names with quotes, escapes, four-byte characters and a lone surrogate (which JSON.stringify escapes), over several of the hash's 64 KB feeds.
  const names = Array.from({ length: 20_000 }, (_, index) => [`content-${index}`, `q"${index}`, `🌍${index}`, `\ud800${index}`, `tab\t${index}`][index % 5]!);

  it('are the SHA-256 of their lines, one per head, however the lines are fed to the hash', () => {
    const heads = new HeadsDigest();
    names.forEach((stream, index) => heads.add({ stream, revision: index % 7, hash: `h${index}` }));
    expect(heads.digest()).toBe(sha256(names.map((stream, index) => `${JSON.stringify(stream)}\t${index % 7}\th${index}\n`).join('')));
    expect(heads).toMatchObject({ streams: 20_000, events: names.reduce((sum, _, index) => sum + (index % 7) + 1, 0) });

    const order = new OrderDigest();
    names.forEach((stream, index) => order.add(`${index}/0`, stream, index % 3));
    expect(order.digest()).toBe(sha256(names.map((stream, index) => `${index}/0\t${JSON.stringify(stream)}\t${index % 3}\n`).join('')));
  });

  it('of nothing is the SHA-256 of nothing', () => {
    expect(new HeadsDigest().digest()).toBe(sha256(''));
  });
});
