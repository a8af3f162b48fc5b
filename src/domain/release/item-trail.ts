import { contentDecider, type ContentState } from '../content/decider';
import type { ContentEvent } from '../content/events';

/** One event of an item's stream, with the release that wrote it (from its metadata), if any. */
export interface ItemEvent {
  readonly event: ContentEvent;
  readonly releaseId?: string;
}

/**
 * What deciding a release's entry on its item (publish or revert) needs of the item's stream,
 * folded from it an event at a time, so that the stream is read in pages and never held whole.
 */
export interface ItemTrail {
  /** The item after every event folded (its version counts them). */
  readonly now: ContentState;
  /** A pinned entry's version, and the item's state at it once folded that far (null before). */
  readonly pinnedVersion: number;
  readonly atPinned: ContentState | null;
  /** The release a revert looks for: the versions of its first and last event (0: none) and the item's state before its first. */
  readonly releaseId: string | null;
  readonly firstOfRelease: number;
  readonly lastOfRelease: number;
  readonly beforeRelease: ContentState;
}

export function startTrail(pinnedVersion: number, releaseId: string | null): ItemTrail {
  const now = contentDecider.initialState;
  return { now, pinnedVersion, atPinned: pinnedVersion === 0 ? now : null, releaseId, firstOfRelease: 0, lastOfRelease: 0, beforeRelease: now };
}

/** The trail after `events`, the next ones of the stream in order; `trail` is left as it was. */
export function extendTrail(trail: ItemTrail, events: readonly ItemEvent[]): ItemTrail {
  let { now, atPinned, firstOfRelease, lastOfRelease, beforeRelease } = trail;
  for (const { event, releaseId } of events) {
    if (trail.releaseId !== null && releaseId === trail.releaseId) {
      if (firstOfRelease === 0) {
        firstOfRelease = now.version + 1;
        beforeRelease = now;
      }
      lastOfRelease = now.version + 1;
    }
    now = contentDecider.evolve(now, event);
    if (now.version === trail.pinnedVersion) atPinned = now;
  }
  return { ...trail, now, atPinned, firstOfRelease, lastOfRelease, beforeRelease };
}
