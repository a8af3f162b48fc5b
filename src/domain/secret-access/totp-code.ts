import type { Decider } from '../decider';
import { forbidden } from '../errors';
import type { TotpCodeEvent } from './events';

export interface UseTotpCode {
  readonly type: 'UseTotpCode';
  readonly workspaceId: string;
  readonly secretTag: string;
  readonly step: number;
}

/**
 * A one-time password is accepted once (RFC 6238 section 5.2). The decision is the stream's
 * expected revision: the first use creates the stream; any later use, on any instance,
 * finds it and is refused.
 */
export const totpCodeDecider: Decider<UseTotpCode, TotpCodeEvent, { readonly used: boolean }> = {
  initialState: { used: false },
  evolve: () => ({ used: true }),
  decide(command, state) {
    if (state.used) throw forbidden('this one-time password has already been used; wait for the next one');
    return [{ type: 'TotpCodeUsed', data: { workspaceId: command.workspaceId, secretTag: command.secretTag, step: command.step } }];
  },
};
