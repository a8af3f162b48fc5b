import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import type { AppEvent, AppInstalledData, AppRegisteredData } from './events';

export type AppCommand =
  | { type: 'RegisterApp'; data: AppRegisteredData }
  | { type: 'InstallApp'; data: AppInstalledData }
  | { type: 'MergeAppParameters'; data: { appId: string; parameters: Record<string, string> } };

export interface AppState {
  readonly exists: boolean;
}

export const appDecider: Decider<AppCommand, AppEvent, AppState> = {
  initialState: { exists: false },

  evolve(state, event) {
    return event.type === 'AppRegistered' ? { exists: true } : state;
  },

  decide(command, state) {
    if (command.type === 'RegisterApp') {
      if (state.exists) throw conflict(`app ${command.data.appId} already exists`);
      return [{ type: 'AppRegistered', data: command.data }];
    }
    if (!state.exists) throw notFound(`app ${command.data.appId} does not exist`);
    return command.type === 'InstallApp'
      ? [{ type: 'AppInstalled', data: command.data }]
      : [{ type: 'AppParametersMerged', data: command.data }];
  },
};
