import type { Decider } from '../decider';
import { conflict, notFound, tooLarge } from '../errors';
import type { ReleaseEvent, ReleaseItem, ReleaseStatus } from './events';

/** The most items one release holds: its publish is one append, answered within seconds. */
export const MAX_RELEASE_ITEMS = 1000;

type Ref = { workspaceId: string; releaseId: string };

export type ReleaseCommand =
  | (Ref & { type: 'Create'; name: string })
  /** Adds each item, or replaces its entry. */
  | (Ref & { type: 'SetItems'; items: readonly ReleaseItem[] })
  | (Ref & { type: 'RemoveItem'; itemId: string })
  | (Ref & { type: 'Schedule'; publishAt: string | null })
  /** `scheduledFor`: a scheduled publish, refused unless the release is still scheduled for that time. */
  | (Ref & { type: 'MarkPublished'; scheduledFor?: string })
  | (Ref & { type: 'MarkFailed'; problems: readonly string[] })
  | (Ref & { type: 'Cancel' })
  | (Ref & { type: 'MarkReverted'; reason: string });

export interface ReleaseState {
  readonly exists: boolean;
  readonly status: ReleaseStatus;
  /** By item id, in the order they were first added. */
  readonly items: ReadonlyMap<string, ReleaseItem>;
  readonly publishAt: string | null;
}

export const initialReleaseState: ReleaseState = { exists: false, status: 'Open', items: new Map(), publishAt: null };

type EntryEvent = Extract<ReleaseEvent, { type: 'ReleaseItemSet' | 'ReleaseItemRemoved' }>;

function applyEntryEvent(items: Map<string, ReleaseItem>, event: EntryEvent): Map<string, ReleaseItem> {
  if (event.type === 'ReleaseItemRemoved') {
    items.delete(event.data.itemId);
    return items;
  }
  const { workspaceId: _ws, releaseId: _id, ...item } = event.data;
  return items.set(item.itemId, item);
}

/**
 * foldEvents(releaseDecider, events), with each run of entry events applied to one copy of the
 * entries: evolve copies them per event, which made loading a release of 1,000 entries (1,000
 * ReleaseItemSet events) quadratic, about 0.5-1.4 s of the event loop per command on it.
 */
export function foldRelease(from: ReleaseState, events: readonly ReleaseEvent[]): ReleaseState {
  let state = from;
  let items: Map<string, ReleaseItem> | null = null;
  for (const event of events) {
    if (event.type === 'ReleaseItemSet' || event.type === 'ReleaseItemRemoved') {
      items = applyEntryEvent(items ?? new Map(state.items), event);
      continue;
    }
    if (items) state = { ...state, items };
    items = null;
    state = releaseDecider.evolve(state, event);
  }
  return items ? { ...state, items } : state;
}

export const releaseDecider: Decider<ReleaseCommand, ReleaseEvent, ReleaseState> = {
  initialState: initialReleaseState,

  evolve(state, event) {
    switch (event.type) {
      case 'ReleaseCreated':
        return { ...state, exists: true };
      case 'ReleaseItemSet':
      case 'ReleaseItemRemoved':
        return { ...state, items: applyEntryEvent(new Map(state.items), event) };
      case 'ReleaseScheduled':
        return { ...state, publishAt: event.data.publishAt };
      case 'ReleasePublished':
        return { ...state, status: 'Published' };
      case 'ReleaseFailed':
        return { ...state, status: 'Failed' };
      case 'ReleaseCancelled':
        return { ...state, status: 'Cancelled' };
      case 'ReleaseReverted':
        return { ...state, status: 'Reverted' };
    }
  },

  decide(command, state) {
    const ref = { workspaceId: command.workspaceId, releaseId: command.releaseId };
    if (command.type === 'Create') {
      if (state.exists) throw conflict(`release ${command.releaseId} already exists`);
      return [{ type: 'ReleaseCreated', data: { ...ref, name: command.name } }];
    }
    if (!state.exists) throw notFound(`release ${command.releaseId} does not exist`);
    if (command.type === 'MarkReverted') {
      if (state.status !== 'Published') throw conflict(`release ${command.releaseId} is ${state.status}: only a Published release can be reverted`);
      return [{ type: 'ReleaseReverted', data: { ...ref, reason: command.reason } }];
    }
    if (state.status !== 'Open') throw conflict(`release ${command.releaseId} is ${state.status}: only an Open release can be changed`);
    switch (command.type) {
      case 'SetItems': {
        const after = new Set([...state.items.keys(), ...command.items.map((item) => item.itemId)]);
        if (after.size > MAX_RELEASE_ITEMS) throw tooLarge(`a release holds at most ${MAX_RELEASE_ITEMS} items`);
        return command.items.map((item) => ({ type: 'ReleaseItemSet', data: { ...ref, ...item } }));
      }
      case 'RemoveItem':
        if (!state.items.has(command.itemId)) throw notFound(`item ${command.itemId} is not in release ${command.releaseId}`);
        return [{ type: 'ReleaseItemRemoved', data: { ...ref, itemId: command.itemId } }];
      case 'Schedule':
        return [{ type: 'ReleaseScheduled', data: { ...ref, publishAt: command.publishAt } }];
      case 'MarkFailed':
        return [{ type: 'ReleaseFailed', data: { ...ref, problems: [...command.problems], items: [...state.items.values()].map(({ itemId, contentType }) => ({ itemId, contentType })) } }];
      case 'MarkPublished':
        if (command.scheduledFor !== undefined && command.scheduledFor !== state.publishAt) throw conflict(`release ${command.releaseId} is no longer scheduled for ${command.scheduledFor}`);
        if (state.items.size === 0) throw conflict(`release ${command.releaseId} has no items`);
        return [{ type: 'ReleasePublished', data: { ...ref, items: state.items.size } }];
      case 'Cancel':
        return [{ type: 'ReleaseCancelled', data: ref }];
    }
  },
};
