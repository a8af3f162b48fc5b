import type { ContentState } from '../content/decider';
import type { ContentBody, ContentEvent } from '../content/events';
import type { ReleaseItem } from './events';
import type { ItemTrail } from './item-trail';

/** What publishing one entry appends to its item's stream, or why it cannot. */
export type ItemChange =
  | { readonly ok: true; readonly events: ContentEvent[]; readonly expectedRevision: number; readonly publishedNow: ContentBody | null; readonly publishedAfter: ContentBody | null }
  | { readonly ok: false; readonly problem: string; readonly publishedNow: ContentBody | null };

/** What an entry's rules need of its item now: from its folded stream, or from the read models (a release's detail). */
export type ItemNow = Pick<ContentState, 'exists' | 'contentType' | 'draft' | 'published' | 'version'> & { readonly erased?: boolean };

/** An entry applied to its item now: the published content it leaves, or why it cannot be applied. */
export type EntryOutcome = { readonly ok: true; readonly publishedAfter: ContentBody | null } | { readonly ok: false; readonly problem: string };

/**
 * The rules of one entry: an unpinned entry is refused when the item changed since it was added;
 * a pinned one publishes `pinnedDraft`, the draft as it was at its version.
 */
export function entryOutcome(item: ReleaseItem, now: ItemNow, pinnedDraft: () => ContentBody | null): EntryOutcome {
  const refuse = (problem: string): EntryOutcome => ({ ok: false, problem });
  if (now.erased) return refuse('was erased');
  if (!now.exists || now.contentType !== item.contentType) return refuse(`does not exist in ${item.contentType}`);
  if (!item.pinned && now.version !== item.version) return refuse(`changed since it was added (version ${item.version}, now ${now.version}): add it again, or pin a version`);
  if (item.pinned && item.version > now.version) return refuse(`has no version ${item.version}`);
  switch (item.action) {
    case 'publish': {
      const content = item.pinned ? pinnedDraft() : now.draft;
      if (!content) return refuse(item.pinned ? `had no draft at version ${item.version}` : 'has no draft to publish');
      return { ok: true, publishedAfter: content };
    }
    case 'unpublish':
      return now.published ? { ok: true, publishedAfter: null } : refuse('is not published');
    case 'delete':
      return { ok: true, publishedAfter: null };
  }
}

/** Decides one entry of a release on its item's stream as it is now (entryOutcome), with the events publishing it appends; `trail` watched the entry's version. */
export function releaseItemChange(workspaceId: string, item: ReleaseItem, trail: ItemTrail): ItemChange {
  const state = trail.now;
  const publishedNow = state.published;
  const outcome = entryOutcome(item, state, () => trail.atPinned?.draft ?? null);
  if (!outcome.ok) return { ok: false, problem: outcome.problem, publishedNow };
  const ref = { workspaceId, itemId: item.itemId, contentType: item.contentType };
  const decided: ContentEvent[] =
    item.action === 'publish'
      ? [{ type: 'ContentPublished', data: { ...ref, firstPublish: !state.everPublished, ...outcome.publishedAfter! } }]
      : [{ type: item.action === 'unpublish' ? 'ContentUnpublished' : 'ContentDeleted', data: ref }];
  return { ok: true, events: decided, expectedRevision: state.version - 1, publishedNow, publishedAfter: outcome.publishedAfter };
}

/**
 * What reverting a published release appends to one of its items: the published state from
 * before the release's events (and the item itself, if the release deleted it). Refused when
 * someone changed the item after the release. `trail` watched the release (startTrail's releaseId).
 */
export function revertItemChange(workspaceId: string, contentType: string, itemId: string, trail: ItemTrail, reason: string): ItemChange {
  const { now, releaseId, firstOfRelease, lastOfRelease } = trail;
  if (firstOfRelease === 0) return { ok: false, problem: `holds no change of release ${releaseId}`, publishedNow: now.published };
  if (lastOfRelease < now.version) return { ok: false, problem: `changed after the release (version ${lastOfRelease}, now ${now.version})`, publishedNow: now.published };
  const before: ContentState = trail.beforeRelease;
  const ref = { workspaceId, itemId, contentType };
  const decided: ContentEvent[] = [];
  if (!now.exists && before.exists) {
    const content = (before.draft ?? before.published)!;
    decided.push({ type: 'ContentRestored', data: { ...ref, fromVersion: firstOfRelease - 1, stage: before.draft ? 'draft' : 'published', reason, ...content } });
  }
  if (before.published) decided.push({ type: 'ContentPublished', data: { ...ref, firstPublish: !now.everPublished, ...before.published } });
  else if (now.published) decided.push({ type: 'ContentUnpublished', data: ref });
  return { ok: true, events: decided, expectedRevision: now.version - 1, publishedNow: now.published, publishedAfter: before.published };
}
