import type { Document } from '../../infra/readstore/port';

export const CONTENT_ITEM_STATES = 'content_item_states';

/** A published version no longer served: its stream version (1-based) and the interval it was served in, in ms. */
export type ClosedVersion = readonly [version: number, fromMs: number, untilMs: number];

/**
 * What the published_versions projector remembers of an item, id `${workspaceId}:${itemId}`:
 * one row that its read models (the versions and the counts) share, instead of one each. An item
 * holds a published document (content_items) exactly while a version is open. Only numbers: the
 * open version's document is its row in the versions table.
 */
export interface ContentItemStateDocument extends Document {
  readonly workspaceId: string;
  readonly itemId: string;
  readonly contentType: string;
  readonly createdAt: string;
  readonly hasDraft: boolean;
  /** The version served now (its stream version and the time it was published), null when none is. */
  readonly open: { readonly version: number; readonly fromMs: number } | null;
  readonly closed: readonly ClosedVersion[];
  /** The last event that changed it: an event seen again changes nothing twice. */
  readonly position: string;
}

/** One event of an item, as its state cares. */
export interface ItemStateStep {
  readonly type: string;
  readonly workspaceId: string;
  readonly itemId: string;
  readonly contentType: string;
  readonly at: string;
  readonly atMs: number;
  /** 1-based stream revision of the event. */
  readonly version: number;
  readonly position: string;
}

export const contentItemStateId = (workspaceId: string, itemId: string) => `${workspaceId}:${itemId}`;

/**
 * The state after an event: `before` itself when the event changes nothing (a save of a draft
 * that exists), null when the item ends (deleted, erased, or its draft deleted with nothing
 * published: it is deleted for every reader, its past included).
 */
export function itemStateAfter(before: ContentItemStateDocument | null, step: ItemStateStep): ContentItemStateDocument | null {
  const { type, workspaceId, itemId, contentType, at, atMs, version, position } = step;
  const closed = before?.open ? [...before.closed, [before.open.version, before.open.fromMs, atMs] as const] : (before?.closed ?? []);
  const fresh = (): ContentItemStateDocument => ({ id: contentItemStateId(workspaceId, itemId), workspaceId, itemId, contentType, createdAt: at, hasDraft: false, open: null, closed: [], position });
  switch (type) {
    case 'ContentDraftSaved':
    case 'ContentRestored':
      return before?.hasDraft ? before : { ...(before ?? fresh()), hasDraft: true, position };
    case 'ContentPublished':
      return { ...(before ?? fresh()), open: { version, fromMs: atMs }, closed, position };
    case 'ContentUnpublished':
      return before?.open ? { ...before, open: null, closed, position } : before;
    case 'ContentDraftDeleted':
      if (!before) return null;
      if (!before.open) return null;
      return before.hasDraft ? { ...before, hasDraft: false, position } : before;
    case 'ContentDeleted':
    case 'ContentErased':
      return null;
    default:
      return before;
  }
}

/** The version the item's published list served at `ms` (its stream version), null when none was: the intervals its version rows hold. */
export function versionServedAt(state: ContentItemStateDocument, ms: number): number | null {
  if (state.open && state.open.fromMs <= ms) return state.open.version;
  return state.closed.find(([, fromMs, untilMs]) => fromMs <= ms && ms < untilMs)?.[0] ?? null;
}
