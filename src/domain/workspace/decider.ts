import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import { FIRST_IMAGE_SIGNING_GENERATION, type WorkspaceCreatedData, type WorkspaceEvent } from './events';

export type WorkspaceCommand =
  | { type: 'CreateWorkspace'; data: WorkspaceCreatedData }
  | { type: 'SetTotpSecret'; data: { workspaceId: string; encryptedSecret: string } }
  | { type: 'SetSchedulerSigningSecret'; data: { workspaceId: string; encryptedSecret: string } }
  | { type: 'RotateImageSigningKey'; data: { workspaceId: string; previousKeyValidUntil: string } };

export interface WorkspaceState {
  readonly exists: boolean;
  readonly imageSigningGeneration: number;
}

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  initialState: { exists: false, imageSigningGeneration: FIRST_IMAGE_SIGNING_GENERATION },

  evolve(state, event) {
    if (event.type === 'WorkspaceCreated') return { ...state, exists: true };
    if (event.type === 'ImageSigningKeyRotated') return { ...state, imageSigningGeneration: event.data.generation };
    return state;
  },

  decide(command, state) {
    if (command.type === 'CreateWorkspace') {
      if (state.exists) throw conflict(`workspace ${command.data.workspaceId} already exists`);
      return [{ type: 'WorkspaceCreated', data: command.data }];
    }
    if (!state.exists) throw notFound(`workspace ${command.data.workspaceId} does not exist`);
    switch (command.type) {
      case 'SetTotpSecret':
        return [{ type: 'TotpSecretSet', data: command.data }];
      case 'SetSchedulerSigningSecret':
        return [{ type: 'SchedulerSigningSecretSet', data: command.data }];
      case 'RotateImageSigningKey':
        return [{ type: 'ImageSigningKeyRotated', data: { ...command.data, generation: state.imageSigningGeneration + 1 } }];
    }
  },
};
