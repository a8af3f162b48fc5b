import { randomUUID } from 'node:crypto';
import { eventHash } from '../../infra/eventstore/chain';
import { ChainGuard, type ChainedEventRow } from '../../projections/chain-guard';

const metadata = { workspaceId: null, actor: 'test', correlationId: 'c', timestamp: '2026-11-25T00:00:00.000Z' };

/** `count` events of each stream, chained as the log stores them, interleaved across the streams. */
function chainedLog(streams: readonly string[], count: number): ChainedEventRow[] {
  const heads = new Map<string, Buffer | null>();
  const rows: ChainedEventRow[] = [];
  for (let revision = 0; revision < count; revision++) {
    for (const stream of streams) {
      const event = { id: randomUUID(), stream, type: 'Saved', data: { revision }, metadata };
      const hash = eventHash(event, revision, heads.get(stream) ?? null);
      heads.set(stream, hash);
      rows.push([stream, revision, event.id, event.type, event.data, metadata, hash.toString('hex'), `${rows.length}/1`]);
    }
  }
  return rows;
}

describe('ChainGuard', () => {
  it('accepts an intact log of more streams than its first table holds, page by page', () => {
    const rows = chainedLog(Array.from({ length: 3000 }, (_, index) => `stream-${index}`), 3);
    const guard = new ChainGuard();
    for (let start = 0; start < rows.length; start += 1000) expect(guard.check(rows.slice(start, start + 1000))).toBeNull();
  });

  it('names the first event whose content was changed, and one whose predecessor was removed', () => {
    const rows = chainedLog(['a', 'b'], 3);
    const edited = rows.map((row, index): ChainedEventRow => (index === 3 ? [row[0], row[1], row[2], row[3], { revision: 99 }, row[5], row[6], row[7]] : row));
    expect(new ChainGuard().check(edited)).toMatch(/^the event log's hash chain is broken: stream b revision 1 at position 3\/1 has a stored hash that does not match/);
    const withoutFirst = rows.filter((_, index) => index !== 0);
    expect(new ChainGuard().check(withoutFirst)).toMatch(/stream a revision 1 .* comes first in the log although its stream starts at revision 0/);
    const reordered = [rows[0]!, rows[4]!, rows[2]!, rows[3]!];
    expect(new ChainGuard().check(reordered)).toMatch(/stream a revision 2 .* does not match/);
  });
});
