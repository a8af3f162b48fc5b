import type { Decider } from '../decider';
import { conflict, gone, notFound } from '../errors';
import type { ContentBody, ContentEvent } from './events';

export type ContentCommand =
  /**
   * `translations` null keeps the item's current ones (a V1 write carries none). `publish`
   * also publishes the saved content, in the same decision (PUT on the published paths).
   */
  | {
      type: 'SaveDraft';
      workspaceId: string;
      itemId: string;
      contentType: string;
      fields: ContentBody['fields'];
      translations: ContentBody['translations'] | null;
      create: boolean;
      publish: boolean;
      /** A patch: the item's version the fields were merged into; the save is refused if the item changed since. */
      basedOnVersion?: number;
    }
  | { type: 'Publish' | 'Unpublish' | 'DeleteDraft' | 'Delete'; workspaceId: string; itemId: string; contentType: string }
  | { type: 'SetEncryptedFields'; workspaceId: string; itemId: string; contentType: string; ciphertexts: Record<string, string> }
  /** Erasure of a personal-data item, also of one deleted before; its key is shredded after. */
  | { type: 'Erase'; workspaceId: string; itemId: string; contentType: string; reason: string }
  /**
   * Makes an earlier state the draft. `undelete` lets it bring back an item deleted since
   * (an operator's bulk undo); `basedOnVersion` refuses it when the item changed since the undo was planned.
   * `published` (bulk undo) also puts the published stage back, in the same decision: that
   * content is published again (a ContentPublished after the ContentRestored), or null
   * unpublishes the item; absent leaves the published stage alone.
   */
  | {
      type: 'Restore';
      workspaceId: string;
      itemId: string;
      contentType: string;
      content: ContentBody;
      fromVersion: number;
      stage: 'draft' | 'published';
      reason: string | null;
      undelete?: boolean;
      basedOnVersion?: number;
      published?: ContentBody | null;
    };

export interface ContentState {
  readonly exists: boolean;
  readonly contentType: string | null;
  readonly draft: ContentBody | null;
  readonly published: ContentBody | null;
  readonly everPublished: boolean;
  /** How many events the item's stream holds. */
  readonly version: number;
  /** The content type whose values the stream holds, also after a delete (what an erasure is addressed by). */
  readonly heldType?: string | null;
  /** The item was erased: nothing may be written to it any more. */
  readonly erased?: boolean;
}

export const initialContentState: ContentState = { exists: false, contentType: null, draft: null, published: null, everPublished: false, version: 0 };

export const contentDecider: Decider<ContentCommand, ContentEvent, ContentState> = {
  initialState: initialContentState,

  evolve(current, event) {
    const state = { ...current, version: current.version + 1 };
    switch (event.type) {
      case 'ContentDraftSaved':
      case 'ContentRestored':
        return { ...state, exists: true, contentType: event.data.contentType, heldType: event.data.contentType, draft: { fields: event.data.fields, translations: event.data.translations } };
      case 'ContentPublished':
        return { ...state, published: { fields: event.data.fields, translations: event.data.translations }, everPublished: true };
      case 'ContentUnpublished':
        return { ...state, published: null };
      case 'ContentDraftDeleted':
        return { ...state, draft: null, exists: state.published !== null };
      case 'ContentDeleted':
        return { ...initialContentState, everPublished: state.everPublished, version: state.version, heldType: state.heldType ?? null };
      case 'ContentEncryptedFieldsSet':
        return state;
      case 'ContentErased':
        return { ...initialContentState, version: state.version, heldType: state.heldType ?? null, erased: true };
    }
  },

  decide(command, state) {
    const ref = { workspaceId: command.workspaceId, itemId: command.itemId, contentType: command.contentType };
    if (command.type === 'Erase') {
      if (state.erased) return [];
      if (state.heldType !== command.contentType) throw notFound(`content item ${command.itemId} does not exist in ${command.contentType}`);
      return [{ type: 'ContentErased', data: { ...ref, reason: command.reason } }];
    }
    if (state.erased) throw gone(`content item ${command.itemId} was erased`);
    if (command.type === 'SaveDraft') {
      if (command.create && state.exists) throw conflict(`content item ${command.itemId} already exists`);
      if (!command.create) assertOfType(state, command);
      if (command.basedOnVersion !== undefined && command.basedOnVersion !== state.version) {
        throw conflict(`content item ${command.itemId} changed while the patch was applied; apply it again`);
      }
      const body = { fields: command.fields, translations: command.translations ?? state.draft?.translations ?? state.published?.translations ?? {} };
      const saved: ContentEvent = { type: 'ContentDraftSaved', data: { ...ref, created: command.create, ...body } };
      if (!command.publish) return [saved];
      return [saved, { type: 'ContentPublished', data: { ...ref, firstPublish: !state.everPublished, ...body } }];
    }
    if (command.type === 'Restore') {
      if (!(command.undelete && !state.exists)) assertOfType(state, command);
      if (command.basedOnVersion !== undefined && command.basedOnVersion !== state.version) {
        throw conflict(`content item ${command.itemId} changed since version ${command.basedOnVersion}`);
      }
      const { content, fromVersion, stage, reason, published } = command;
      const restored: ContentEvent = { type: 'ContentRestored', data: { ...ref, fromVersion, stage, reason, fields: content.fields, translations: content.translations } };
      if (published === undefined) return [restored];
      if (published === null) return state.published ? [restored, { type: 'ContentUnpublished', data: ref }] : [restored];
      return [restored, { type: 'ContentPublished', data: { ...ref, firstPublish: !state.everPublished, fields: published.fields, translations: published.translations } }];
    }
    assertOfType(state, command);
    switch (command.type) {
      case 'Publish':
        if (!state.draft) throw notFound(`content item ${command.itemId} has no draft to publish`);
        return [{ type: 'ContentPublished', data: { ...ref, firstPublish: !state.everPublished, ...state.draft } }];
      case 'Unpublish':
        if (!state.published) throw notFound(`content item ${command.itemId} is not published`);
        return [{ type: 'ContentUnpublished', data: ref }];
      case 'DeleteDraft':
        if (!state.draft) throw notFound(`content item ${command.itemId} has no draft`);
        // With nothing published, the draft is the whole item: deleting it ends the item, as a delete does.
        return [{ type: state.published ? 'ContentDraftDeleted' : 'ContentDeleted', data: ref }];
      case 'Delete':
        return [{ type: 'ContentDeleted', data: ref }];
      case 'SetEncryptedFields':
        return [{ type: 'ContentEncryptedFieldsSet', data: { ...ref, ciphertexts: command.ciphertexts } }];
    }
  },
};

/** An item addressed under another content type's path does not exist there. */
function assertOfType(state: ContentState, command: { itemId: string; contentType: string }): void {
  if (!state.exists || state.contentType !== command.contentType) throw notFound(`content item ${command.itemId} does not exist in ${command.contentType}`);
}
