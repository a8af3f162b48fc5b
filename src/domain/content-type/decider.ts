import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import type { ContentTypeDefinition } from './definition';
import type { ContentTypeEvent } from './events';

export type ContentTypeCommand =
  | { type: 'SaveContentType'; workspaceId: string; newId: string; definition: ContentTypeDefinition; sealedActionHeaders: Record<string, string> }
  | { type: 'DeleteContentType'; workspaceId: string; key: string; itemCount: number };

export type ContentTypeState =
  | { readonly status: 'absent' }
  | { readonly status: 'active'; readonly id: string; readonly definition: ContentTypeDefinition; readonly sealedActionHeaders: Readonly<Record<string, string>> };

export const contentTypeDecider: Decider<ContentTypeCommand, ContentTypeEvent, ContentTypeState> = {
  initialState: { status: 'absent' },

  evolve(_state, event) {
    switch (event.type) {
      case 'ContentTypeSaved':
        return { status: 'active', id: event.data.contentTypeId, definition: event.data.definition, sealedActionHeaders: event.data.sealedActionHeaders };
      case 'ContentTypeDeleted':
        return { status: 'absent' };
    }
  },

  decide(command, state) {
    if (command.type === 'SaveContentType') {
      const created = state.status === 'absent';
      const contentTypeId = created ? command.newId : state.id;
      const { workspaceId, definition, sealedActionHeaders } = command;
      return [{ type: 'ContentTypeSaved', data: { workspaceId, contentTypeId, created, definition, sealedActionHeaders } }];
    }
    if (state.status === 'absent') throw notFound(`content type ${command.key} does not exist`);
    if (command.itemCount > 0) {
      throw conflict(`content type ${command.key} still has ${command.itemCount} content item(s); delete them first`);
    }
    return [{ type: 'ContentTypeDeleted', data: { workspaceId: command.workspaceId, contentTypeId: state.id, key: command.key } }];
  },
};
