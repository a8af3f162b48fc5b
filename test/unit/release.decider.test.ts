import type { ContentEvent } from '../../src/domain/content/events';
import { foldEvents } from '../../src/domain/decider';
import { DomainError } from '../../src/domain/errors';
import { foldRelease, initialReleaseState, MAX_RELEASE_ITEMS, releaseDecider } from '../../src/domain/release/decider';
import type { ReleaseEvent, ReleaseItem } from '../../src/domain/release/events';
import { releaseItemChange, revertItemChange } from '../../src/domain/release/item-changes';
import { extendTrail, type ItemEvent, startTrail } from '../../src/domain/release/item-trail';

const ref = { workspaceId: 'ws', releaseId: 'r1' };
const item = (itemId: string, overrides: Partial<ReleaseItem> = {}): ReleaseItem => ({ itemId, contentType: 'Doc', action: 'publish', version: 1, pinned: false, ...overrides });
const given = (...events: ReleaseEvent[]) => foldEvents(releaseDecider, events);
const created: ReleaseEvent = { type: 'ReleaseCreated', data: { ...ref, name: 'launch' } };
const kindOf = (run: () => unknown) => {
  try {
    run();
    return 'decided';
  } catch (error) {
    return (error as DomainError).kind;
  }
};

const itemRef = { workspaceId: 'ws', itemId: 'i1', contentType: 'Doc' };
const saved = (title: string): ContentEvent => ({ type: 'ContentDraftSaved', data: { ...itemRef, created: false, fields: { title }, translations: {} } });
const published = (title: string, firstPublish = false): ContentEvent => ({ type: 'ContentPublished', data: { ...itemRef, firstPublish, fields: { title }, translations: {} } });

describe('release decider', () => {
  it('folds many events at once to the state evolve reaches one event at a time, whatever the runs of entry events', () => {
    const set = (itemId: string, version = 1): ReleaseEvent => ({ type: 'ReleaseItemSet', data: { ...ref, ...item(itemId, { version }) } });
    const removed = (itemId: string): ReleaseEvent => ({ type: 'ReleaseItemRemoved', data: { ...ref, itemId } });
    const scheduled: ReleaseEvent = { type: 'ReleaseScheduled', data: { ...ref, publishAt: '2026-03-01T09:00:00.000Z' } };
    const events = [created, set('a'), set('b'), set('a', 2), removed('b'), scheduled, set('c'), removed('a'), set('b', 3)];
    for (let split = 0; split <= events.length; split++) {
      const folded = foldRelease(foldRelease(initialReleaseState, events.slice(0, split)), events.slice(split));
      expect(folded).toEqual(given(...events));
      expect([...folded.items.keys()]).toEqual(['c', 'b']);
    }
    // The state folded from is left as it was.
    const before = given(created, set('a'));
    foldRelease(before, [set('z')]);
    expect([...before.items.keys()]).toEqual(['a']);
  });

  it('holds at most MAX_RELEASE_ITEMS entries; replacing an entry does not count twice', () => {
    const full = Array.from({ length: MAX_RELEASE_ITEMS }, (_, i) => item(`i${i}`));
    const state = given(created, ...releaseDecider.decide({ type: 'SetItems', ...ref, items: full }, given(created)));
    expect(state.items.size).toBe(MAX_RELEASE_ITEMS);
    expect(kindOf(() => releaseDecider.decide({ type: 'SetItems', ...ref, items: [item('one more')] }, state))).toBe('too_large');
    expect(kindOf(() => releaseDecider.decide({ type: 'SetItems', ...ref, items: [item('i7', { action: 'delete' })] }, state))).toBe('decided');
  });

  it('publishes a scheduled release only for the time it is scheduled for, and changes nothing once closed', () => {
    const scheduled = given(created, { type: 'ReleaseItemSet', data: { ...ref, ...item('i1') } }, { type: 'ReleaseScheduled', data: { ...ref, publishAt: '2026-03-01T09:00:00.000Z' } });
    expect(kindOf(() => releaseDecider.decide({ type: 'MarkPublished', ...ref, scheduledFor: '2026-03-01T08:00:00.000Z' }, scheduled))).toBe('conflict');
    const events = releaseDecider.decide({ type: 'MarkPublished', ...ref, scheduledFor: '2026-03-01T09:00:00.000Z' }, scheduled);
    const closed = foldEvents({ ...releaseDecider, initialState: scheduled }, events);
    expect(closed.status).toBe('Published');
    for (const command of [{ type: 'Cancel' as const }, { type: 'MarkPublished' as const }, { type: 'RemoveItem' as const, itemId: 'i1' }]) {
      expect(kindOf(() => releaseDecider.decide({ ...command, ...ref }, closed))).toBe('conflict');
    }
    expect(kindOf(() => releaseDecider.decide({ type: 'MarkReverted', ...ref, reason: 'oops' }, closed))).toBe('decided');
  });
});

describe('release item changes', () => {
  const history: ItemEvent[] = [saved('v1'), published('v1', true), saved('v3 draft')].map((event) => ({ event }));
  const publishing = (entry: ReleaseItem) => releaseItemChange('ws', entry, extendTrail(startTrail(entry.version, null), history));
  const reverting = (events: readonly ItemEvent[]) => revertItemChange('ws', 'Doc', 'i1', extendTrail(startTrail(1, 'r1'), events), 'wrong');

  it('folds an item\'s stream to the same trail whatever pages it is read in', () => {
    const events: ItemEvent[] = [...history, { event: published('v3', false), releaseId: 'r1' }, { event: saved('v5'), releaseId: 'r1' }, { event: saved('v6') }];
    const whole = extendTrail(startTrail(2, 'r1'), events);
    expect(whole).toMatchObject({ firstOfRelease: 4, lastOfRelease: 5, beforeRelease: { version: 3 }, atPinned: { version: 2 }, now: { version: 6 } });
    for (let split = 0; split <= events.length; split++) {
      expect(extendTrail(extendTrail(startTrail(2, 'r1'), events.slice(0, split)), events.slice(split))).toEqual(whole);
    }
  });

  it('refuses an unpinned entry whose item changed since it was added, and publishes a pinned version\'s draft', () => {
    expect(publishing(item('i1', { version: 2 }))).toMatchObject({ ok: false, problem: expect.stringMatching(/changed since it was added \(version 2, now 3\)/) });
    const current = publishing(item('i1', { version: 3 }));
    expect(current).toMatchObject({ ok: true, expectedRevision: 2, publishedNow: { fields: { title: 'v1' } }, publishedAfter: { fields: { title: 'v3 draft' } } });
    const pinned = publishing(item('i1', { version: 1, pinned: true }));
    expect(pinned).toMatchObject({ ok: true, events: [{ type: 'ContentPublished', data: { firstPublish: false, fields: { title: 'v1' } } }] });
    expect(publishing(item('i1', { version: 3, action: 'unpublish' }))).toMatchObject({ ok: true, events: [{ type: 'ContentUnpublished' }], publishedAfter: null });
    expect(publishing(item('i1', { contentType: 'Other', version: 3 }))).toMatchObject({ ok: false, problem: 'does not exist in Other' });
  });

  it('reverts an item the release deleted: its draft comes back and its published content is published again', () => {
    const afterRelease: ItemEvent[] = [...history, { event: { type: 'ContentDeleted', data: itemRef } as ContentEvent, releaseId: 'r1' }];
    const change = reverting(afterRelease);
    expect(change).toMatchObject({
      ok: true,
      expectedRevision: 3,
      events: [
        { type: 'ContentRestored', data: { fromVersion: 3, stage: 'draft', reason: 'wrong', fields: { title: 'v3 draft' } } },
        { type: 'ContentPublished', data: { fields: { title: 'v1' } } },
      ],
    });
    const changedSince = [...afterRelease, { event: saved('someone else') }];
    expect(reverting(changedSince)).toMatchObject({ ok: false, problem: expect.stringMatching(/changed after the release/) });
  });
});
