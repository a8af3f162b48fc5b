import { contentDecider } from '../../src/domain/content/decider';
import type { ContentEvent } from '../../src/domain/content/events';
import { givenWhenThen } from './decider-spec';

const decide = givenWhenThen(contentDecider);
const ref = { workspaceId: 'ws', itemId: 'item-1', contentType: 'Article' };
const body = (title: string) => ({ fields: { title }, translations: {} });
const saved = (title: string, created = false): ContentEvent => ({ type: 'ContentDraftSaved', data: { ...ref, created, ...body(title) } });
const published = (title: string, firstPublish: boolean): ContentEvent => ({ type: 'ContentPublished', data: { ...ref, firstPublish, ...body(title) } });
const save = (title: string, options: { create?: boolean; publish?: boolean } = {}) => ({
  type: 'SaveDraft' as const,
  ...ref,
  ...body(title),
  create: options.create ?? false,
  publish: options.publish ?? false,
});
const command = (type: 'Publish' | 'Unpublish' | 'DeleteDraft' | 'Delete') => ({ type, ...ref });
const kindOf = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return (error as { kind?: string }).kind;
  }
};

describe('content decider', () => {
  it('creates a draft, then updates it', () => {
    expect(decide([], save('a', { create: true }))).toEqual([saved('a', true)]);
    expect(decide([saved('a', true)], save('b'))).toEqual([saved('b')]);
  });

  it('refuses to create over an existing item and to update a missing one', () => {
    expect(kindOf(() => decide([saved('a', true)], save('b', { create: true })))).toBe('conflict');
    expect(kindOf(() => decide([], save('b')))).toBe('not_found');
  });

  it('treats an item under another content type as missing', () => {
    expect(kindOf(() => decide([saved('a', true)], { ...command('Publish'), contentType: 'Page' }))).toBe('not_found');
  });

  it('publishes the draft: the first publish is marked, later ones are not', () => {
    expect(decide([saved('a', true)], command('Publish'))).toEqual([published('a', true)]);
    expect(decide([saved('a', true), published('a', true), saved('b')], command('Publish'))).toEqual([published('b', false)]);
    const unpublished: ContentEvent = { type: 'ContentUnpublished', data: ref };
    expect(decide([saved('a', true), published('a', true), unpublished], command('Publish'))).toEqual([published('a', false)]);
  });

  it('keeps the current translations when a save carries none, and replaces them when it does', () => {
    const translated: ContentEvent = { type: 'ContentDraftSaved', data: { ...ref, created: true, fields: { title: 'a' }, translations: { title: { fr: 'le a' } } } };
    const keep = decide([translated], { ...save('b'), translations: null });
    expect(keep).toEqual([{ type: 'ContentDraftSaved', data: { ...ref, created: false, fields: { title: 'b' }, translations: { title: { fr: 'le a' } } } }]);
    expect(decide([translated], save('b'))).toEqual([saved('b')]);
  });

  it('saves a patch only onto the version it was merged into; every event counts, deletes included', () => {
    const history: ContentEvent[] = [saved('a', true), published('a', true)];
    expect(decide(history, { ...save('b'), basedOnVersion: 2 })).toEqual([saved('b')]);
    expect(kindOf(() => decide([...history, saved('c')], { ...save('b'), basedOnVersion: 2 }))).toBe('conflict');
    const encrypted: ContentEvent = { type: 'ContentEncryptedFieldsSet', data: { ...ref, ciphertexts: { serial: 'sealed' } } };
    expect(kindOf(() => decide([...history, encrypted], { ...save('b'), basedOnVersion: 2 }))).toBe('conflict');
  });

  it('saves and publishes in one decision on the published paths', () => {
    expect(decide([], save('a', { create: true, publish: true }))).toEqual([saved('a', true), published('a', true)]);
  });

  it('unpublishes only what is published, deletes drafts only when there is one', () => {
    expect(kindOf(() => decide([saved('a', true)], command('Unpublish')))).toBe('not_found');
    expect(decide([saved('a', true), published('a', true)], command('Unpublish'))).toEqual([{ type: 'ContentUnpublished', data: ref }]);
    const draftDeleted: ContentEvent = { type: 'ContentDraftDeleted', data: ref };
    expect(decide([saved('a', true), published('a', true)], command('DeleteDraft'))).toEqual([draftDeleted]);
    expect(kindOf(() => decide([saved('a', true), draftDeleted], command('DeleteDraft')))).toBe('not_found');
    expect(kindOf(() => decide([saved('a', true), draftDeleted], command('Publish')))).toBe('not_found');
  });

  it('ends an item with nothing published when its draft is deleted, as a delete does (webhooks hear Deleted)', () => {
    const deleted: ContentEvent = { type: 'ContentDeleted', data: ref };
    expect(decide([saved('a', true)], command('DeleteDraft'))).toEqual([deleted]);
    const unpublished: ContentEvent = { type: 'ContentUnpublished', data: ref };
    expect(decide([saved('a', true), published('a', true), unpublished], command('DeleteDraft'))).toEqual([deleted]);
    expect(kindOf(() => decide([saved('a', true), deleted], command('DeleteDraft')))).toBe('not_found');
  });

  it('reads a log of the release before, where deleting the draft of an unpublished item was ContentDraftDeleted, as an item that ended', () => {
    const olderDraftDeleted: ContentEvent = { type: 'ContentDraftDeleted', data: ref };
    const history = [saved('a', true), olderDraftDeleted];
    expect(decide(history, save('again', { create: true }))).toEqual([saved('again', true)]);
    for (const type of ['Publish', 'Unpublish', 'DeleteDraft', 'Delete'] as const) expect(kindOf(() => decide(history, command(type)))).toBe('not_found');
  });

  it('keeps a published item after its draft is deleted, and deletes the whole item', () => {
    const draftDeleted: ContentEvent = { type: 'ContentDraftDeleted', data: ref };
    const history = [saved('a', true), published('a', true), draftDeleted];
    expect(decide(history, command('Unpublish'))).toEqual([{ type: 'ContentUnpublished', data: ref }]);
    expect(decide(history, command('Delete'))).toEqual([{ type: 'ContentDeleted', data: ref }]);
    expect(kindOf(() => decide([...history, { type: 'ContentDeleted', data: ref }], command('Delete')))).toBe('not_found');
  });

  describe('erasure', () => {
    const erase = (contentType = 'Article') => ({ type: 'Erase' as const, ...ref, contentType, reason: 'request 7' });
    const erased: ContentEvent = { type: 'ContentErased', data: { ...ref, reason: 'request 7' } };

    it('erases an item, also one deleted before, and not one that never was or is of another type', () => {
      expect(decide([saved('a', true)], erase())).toEqual([erased]);
      expect(decide([saved('a', true), { type: 'ContentDeleted', data: ref }], erase())).toEqual([erased]);
      expect(kindOf(() => decide([], erase()))).toBe('not_found');
      expect(kindOf(() => decide([saved('a', true)], erase('Page')))).toBe('not_found');
    });

    it('refuses every write to an erased item (gone); erasing again decides nothing', () => {
      const history = [saved('a', true), published('a', true), erased];
      expect(kindOf(() => decide(history, save('b')))).toBe('gone');
      expect(kindOf(() => decide(history, save('b', { create: true })))).toBe('gone');
      for (const type of ['Publish', 'Unpublish', 'DeleteDraft', 'Delete'] as const) expect(kindOf(() => decide(history, command(type)))).toBe('gone');
      const restore = { type: 'Restore' as const, ...ref, content: { fields: { title: 'a' }, translations: {} }, fromVersion: 1, stage: 'draft' as const, reason: null, undelete: true };
      expect(kindOf(() => decide(history, restore))).toBe('gone');
      expect(decide(history, erase())).toEqual([]);
    });

    it('folds sealed events of an erased item (values unreadable, members empty) like any other', () => {
      const sealedSave: ContentEvent = { type: 'ContentDraftSaved', data: { ...ref, created: true, fields: {}, translations: {}, sealed: 'v1.x.y.z' } };
      expect(decide([sealedSave, erased], erase())).toEqual([]);
    });
  });

  describe('restore', () => {
    const restore = (title: string, options: { undelete?: boolean; basedOnVersion?: number; published?: ReturnType<typeof body> | null } = {}) => ({
      type: 'Restore' as const,
      ...ref,
      content: body(title),
      fromVersion: 1,
      stage: 'draft' as const,
      reason: 'oops',
      ...options,
    });
    const restored = (title: string): ContentEvent => ({ type: 'ContentRestored', data: { ...ref, fromVersion: 1, stage: 'draft', reason: 'oops', ...body(title) } });

    it('makes the content the draft, like a save, and a later publish publishes it', () => {
      const history = [saved('a', true), saved('b')];
      expect(decide(history, restore('a'))).toEqual([restored('a')]);
      expect(decide([...history, restored('a')], command('Publish'))).toEqual([published('a', true)]);
    });

    it('needs the item, unless it undeletes; refuses when the item moved past the version planned', () => {
      const deleted = [saved('a', true), { type: 'ContentDeleted', data: ref } as ContentEvent];
      expect(kindOf(() => decide(deleted, restore('a')))).toBe('not_found');
      expect(decide(deleted, restore('a', { undelete: true }))).toEqual([restored('a')]);
      expect(kindOf(() => decide([saved('a', true), saved('b')], restore('a', { basedOnVersion: 1 })))).toBe('conflict');
      expect(decide([saved('a', true), saved('b')], restore('a', { basedOnVersion: 2 }))).toEqual([restored('a')]);
    });

    it('puts the published stage back in the same decision when asked (bulk undo): publishes that content, or unpublishes', () => {
      const spammed = [saved('a', true), published('a', true), saved('spam'), published('spam', false)];
      expect(decide(spammed, restore('a', { published: body('a') }))).toEqual([restored('a'), published('a', false)]);
      expect(decide(spammed, restore('a', { published: null }))).toEqual([restored('a'), { type: 'ContentUnpublished', data: ref }]);
      // Nothing published now: nothing to unpublish. An item deleted since comes back published as it was.
      expect(decide([saved('a', true)], restore('a', { published: null }))).toEqual([restored('a')]);
      const deleted = [...spammed, { type: 'ContentDeleted', data: ref } as ContentEvent];
      expect(decide(deleted, restore('a', { undelete: true, published: body('a') }))).toEqual([restored('a'), published('a', false)]);
      expect(decide([saved('a', true)], restore('a', { published: body('a') }))).toEqual([restored('a'), published('a', true)]);
    });
  });
});
