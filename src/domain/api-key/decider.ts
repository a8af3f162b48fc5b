import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import type { ApiKeyEvent, ApiKeyIssuedData } from './events';

export type ApiKeyCommand =
  | { type: 'IssueApiKey'; data: ApiKeyIssuedData }
  | { type: 'RevokeApiKey'; data: { keyId: string; workspaceId: string } };

export type ApiKeyState =
  | { readonly status: 'none' }
  | { readonly status: 'active' | 'revoked'; readonly workspaceId: string };

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyIssued':
        return { status: 'active', workspaceId: event.data.workspaceId };
      case 'ApiKeyRevoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
    }
  },

  decide(command, state) {
    if (command.type === 'IssueApiKey') {
      if (state.status !== 'none') throw conflict(`api key ${command.data.keyId} already exists`);
      return [{ type: 'ApiKeyIssued', data: command.data }];
    }
    // A key of another workspace is reported as missing, so ids of other workspaces leak nothing.
    if (state.status === 'none' || state.workspaceId !== command.data.workspaceId) {
      throw notFound(`api key ${command.data.keyId} does not exist`);
    }
    if (state.status === 'revoked') return [];
    return [{ type: 'ApiKeyRevoked', data: command.data }];
  },
};
