import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import type { ContentTypeDefinition } from './definition';
import type { ContentTypeEvent } from './events';
import { checkRoomForOneMore, type WorkspaceQuota } from '../workspace-quota';
import { decideAdvice, decideDeclaration, decideRetirement, type AdviseQueryIndex, type DeclareQueryIndexes, type RetireAdvisedIndex } from './query-index-decisions';
import type { QueryIndex } from './query-indexes';

export type ContentTypeCommand =
  /** `quota`: the workspace's content types, checked only when the save creates one (saving a type again is never refused by it). */
  | { type: 'SaveContentType'; workspaceId: string; newId: string; definition: ContentTypeDefinition; sealedActionHeaders: Record<string, string>; quota: WorkspaceQuota }
  | { type: 'DeleteContentType'; workspaceId: string; key: string; itemCount: number }
  | DeclareQueryIndexes
  | AdviseQueryIndex
  | RetireAdvisedIndex;

export type ContentTypeState =
  | { readonly status: 'absent' }
  | {
      readonly status: 'active';
      readonly id: string;
      readonly definition: ContentTypeDefinition;
      readonly sealedActionHeaders: Readonly<Record<string, string>>;
      /** Declared, pinned and advised. */
      readonly queryIndexes: readonly QueryIndex[];
      /** Indexes the advisor may not declare. */
      readonly forbiddenIndexes: readonly QueryIndex[];
    };

export const contentTypeDecider: Decider<ContentTypeCommand, ContentTypeEvent, ContentTypeState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'ContentTypeSaved': {
        const queryIndexes = state.status === 'active' ? state.queryIndexes : [];
        const forbiddenIndexes = state.status === 'active' ? state.forbiddenIndexes : [];
        return { status: 'active', id: event.data.contentTypeId, definition: event.data.definition, sealedActionHeaders: event.data.sealedActionHeaders, queryIndexes, forbiddenIndexes };
      }
      case 'ContentTypeDeleted':
        return { status: 'absent' };
      case 'ContentTypeQueryIndexesDeclared':
        return state.status === 'active' ? { ...state, queryIndexes: event.data.indexes, forbiddenIndexes: event.data.forbidden } : state;
    }
  },

  decide(command, state) {
    if (command.type === 'SaveContentType') {
      const created = state.status === 'absent';
      if (created) checkRoomForOneMore(command.quota, 'content types', command.workspaceId);
      const contentTypeId = created ? command.newId : state.id;
      const { workspaceId, definition, sealedActionHeaders } = command;
      return [{ type: 'ContentTypeSaved', data: { workspaceId, contentTypeId, created, definition, sealedActionHeaders } }];
    }
    if (state.status === 'absent') throw notFound(`content type ${command.key} does not exist`);
    if (command.type === 'DeclareQueryIndexes') return decideDeclaration(command, state);
    if (command.type === 'AdviseQueryIndex') return decideAdvice(command, state);
    if (command.type === 'RetireAdvisedIndex') return decideRetirement(command, state);
    if (command.itemCount > 0) {
      throw conflict(`content type ${command.key} still has ${command.itemCount} content item(s); delete them first`);
    }
    return [{ type: 'ContentTypeDeleted', data: { workspaceId: command.workspaceId, contentTypeId: state.id, key: command.key } }];
  },
};
