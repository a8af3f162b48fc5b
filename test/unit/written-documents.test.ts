import { WrittenDocuments } from '../../projections/written-documents';

describe('WrittenDocuments (what a rebuild wrote)', () => {
  it('answers recent documents, absence for keys never written, and "ask the store" for old writes', () => {
    const written = new WrittenDocuments();
    written.remember('items\u0000deleted', null);
    for (let index = 0; index < 120_000; index++) written.remember(`items\u0000${index}`, { id: String(index), index });

    expect(written.lookup('items\u0000119999')).toEqual({ id: '119999', index: 119999 });
    // Written long ago: no longer kept whole, so only the store knows it now.
    expect(written.lookup('items\u00000')).toBeUndefined();
    expect(written.lookup('items\u0000deleted')).toBeUndefined();
    // Never written: certainly absent, for nearly all of them (a Bloom filter's false positives
    // only send a key to the store).
    const neverWritten = Array.from({ length: 10_000 }, (_, index) => written.lookup(`items\u0000other-${index}`));
    expect(neverWritten.filter((answer) => answer === null).length).toBeGreaterThan(9_900);
    expect(neverWritten.every((answer) => answer === null || answer === undefined)).toBe(true);
  });

  it('keeps a deletion as a known absence while it is recent', () => {
    const written = new WrittenDocuments();
    written.remember('items\u0000a', { id: 'a' });
    written.remember('items\u0000a', null);
    expect(written.lookup('items\u0000a')).toBeNull();
  });
});
