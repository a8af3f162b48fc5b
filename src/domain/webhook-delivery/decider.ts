import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import type { WebhookDeliveryEvent, WebhookDeliveryQueuedData } from './events';
import { nextAttemptAt } from './schedule';

type Ref = { readonly deliveryId: string; readonly webhookId: string; readonly workspaceId: string };

export interface AttemptOutcome {
  readonly statusCode: number;
  readonly success: boolean;
  readonly message: string;
  readonly durationMs: number;
  /** A failure no retry can change (the workspace's data key was shredded): the entry ends in error at once. */
  readonly final?: boolean;
}

/** A claim whose outcome is not recorded within this time is taken to be lost and may be claimed again. */
export const DELIVERY_CLAIM_TIMEOUT_MS = 60_000;

export type WebhookDeliveryCommand =
  /** `claimAt`: the queuing instance also claims the first attempt, to send it at once. */
  | { readonly type: 'QueueDelivery'; readonly data: WebhookDeliveryQueuedData; readonly claimAt?: string }
  | { readonly type: 'ClaimAttempt'; readonly data: Ref & { readonly attempt: number; readonly at: string } }
  | { readonly type: 'RecordAttempt'; readonly data: Ref & AttemptOutcome & { readonly attempt: number; readonly at: string; readonly retryUnitMs: number } }
  | { readonly type: 'RequestRetry'; readonly data: Ref & { readonly at: string } };

export type WebhookDeliveryState =
  | { readonly status: 'none' }
  | {
      readonly status: 'waiting' | 'processing' | 'sent' | 'error';
      readonly workspaceId: string;
      readonly webhookId: string;
      /** Attempts in all, and since the entry was queued or last retried by hand. */
      readonly attempts: number;
      readonly attemptsInStreak: number;
      /** When the attempt in progress was claimed. */
      readonly claimedAt: string | null;
    };

export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookDeliveryQueued':
        return { status: 'waiting', workspaceId: event.data.workspaceId, webhookId: event.data.webhookId, attempts: 0, attemptsInStreak: 0, claimedAt: null };
      case 'WebhookDeliveryStarted':
        return state.status === 'none' ? state : { ...state, status: 'processing', claimedAt: event.data.at };
      case 'WebhookDeliveryAttempted': {
        if (state.status === 'none') return state;
        const status = event.data.success ? 'sent' : event.data.nextAttemptAt === null ? 'error' : 'waiting';
        return { ...state, status, attempts: state.attempts + 1, attemptsInStreak: state.attemptsInStreak + 1, claimedAt: null };
      }
      case 'WebhookDeliveryRetryRequested':
        return state.status === 'none' ? state : { ...state, status: 'waiting', attemptsInStreak: 0 };
    }
  },

  decide(command, state) {
    if (command.type === 'QueueDelivery') {
      // Queuing is idempotent: the process manager may see a content event twice.
      if (state.status !== 'none') return [];
      const queued: WebhookDeliveryEvent = { type: 'WebhookDeliveryQueued', data: command.data };
      if (!command.claimAt) return [queued];
      return [queued, { type: 'WebhookDeliveryStarted', data: { ...refOf(command.data), attempt: 1, at: command.claimAt } }];
    }
    const { data } = command;
    if (state.status === 'none' || state.workspaceId !== data.workspaceId || state.webhookId !== data.webhookId) {
      throw notFound(`delivery ${data.deliveryId} does not exist`);
    }
    if (command.type === 'RequestRetry') {
      return state.status === 'waiting' || state.status === 'processing' ? [] : [{ type: 'WebhookDeliveryRetryRequested', data: { ...refOf(data), at: data.at } }];
    }
    if (command.type === 'ClaimAttempt') {
      const lostClaim = state.status === 'processing' && Date.parse(command.data.at) - Date.parse(state.claimedAt!) >= DELIVERY_CLAIM_TIMEOUT_MS;
      if ((state.status !== 'waiting' && !lostClaim) || command.data.attempt !== state.attempts + 1) {
        throw conflict(`attempt ${command.data.attempt} of delivery ${data.deliveryId} is not due`);
      }
      return [{ type: 'WebhookDeliveryStarted', data: { ...refOf(data), attempt: command.data.attempt, at: command.data.at } }];
    }
    if (state.status !== 'processing' || command.data.attempt !== state.attempts + 1) {
      throw conflict(`attempt ${command.data.attempt} of delivery ${data.deliveryId} is not in progress`);
    }
    const { attempt, at, statusCode, success, message, durationMs, retryUnitMs, final } = command.data;
    const next = success || final === true ? null : nextAttemptAt(new Date(at), state.attemptsInStreak + 1, retryUnitMs);
    return [
      {
        type: 'WebhookDeliveryAttempted',
        data: { ...refOf(data), attempt, at, statusCode, success, message, durationMs, nextAttemptAt: next?.toISOString() ?? null },
      },
    ];
  },
};

const refOf = (data: Ref): Ref => ({ deliveryId: data.deliveryId, webhookId: data.webhookId, workspaceId: data.workspaceId });
