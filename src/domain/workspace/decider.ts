import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import type { WorkspaceCreatedData, WorkspaceEvent } from './events';

export type WorkspaceCommand =
  | { type: 'CreateWorkspace'; data: WorkspaceCreatedData }
  | { type: 'SetTotpSecret'; data: { workspaceId: string; encryptedSecret: string } }
  | { type: 'SetSchedulerSigningSecret'; data: { workspaceId: string; encryptedSecret: string } };

export interface WorkspaceState {
  readonly exists: boolean;
}

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  initialState: { exists: false },

  evolve(state, event) {
    return event.type === 'WorkspaceCreated' ? { exists: true } : state;
  },

  decide(command, state) {
    if (command.type === 'CreateWorkspace') {
      if (state.exists) throw conflict(`workspace ${command.data.workspaceId} already exists`);
      return [{ type: 'WorkspaceCreated', data: command.data }];
    }
    if (!state.exists) throw notFound(`workspace ${command.data.workspaceId} does not exist`);
    return command.type === 'SetTotpSecret'
      ? [{ type: 'TotpSecretSet', data: command.data }]
      : [{ type: 'SchedulerSigningSecretSet', data: command.data }];
  },
};
