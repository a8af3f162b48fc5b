import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import type { WebhookEvent, WebhookSettings } from './events';
import { checkRoomForOneMore, type WorkspaceQuota } from '../workspace-quota';

type Ref = { readonly workspaceId: string; readonly webhookId: string };

export type WebhookCommand =
  /**
   * `create` for a fresh id. On an update `sealedSecret` null keeps the current secret and
   * `enabled` null keeps the current flag; a new webhook is enabled unless it says otherwise.
   * `quota`, the workspace's webhooks, is checked only on create.
   */
  | {
      readonly type: 'SaveWebhook';
      readonly create: boolean;
      readonly quota: WorkspaceQuota;
      readonly data: Ref & Omit<WebhookSettings, 'sealedSecret' | 'enabled'> & { readonly sealedSecret: string | null; readonly enabled: boolean | null };
    }
  | { readonly type: 'RotateWebhookSecret'; readonly data: Ref & { readonly sealedSecret: string } }
  | { readonly type: 'EnableWebhook' | 'DisableWebhook' | 'DeleteWebhook'; readonly data: Ref }
  | { readonly type: 'ReportDeliveryFailed' | 'ReportDeliverySent'; readonly data: Ref & { readonly deliveryId: string } };

export type WebhookState =
  | { readonly status: 'none' | 'deleted' }
  | { readonly status: 'active'; readonly workspaceId: string; readonly settings: WebhookSettings; readonly failing: boolean };

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    if (event.type === 'WebhookSaved') {
      const { webhookId: _id, workspaceId, created: _created, ...settings } = event.data;
      return { status: 'active', workspaceId, settings, failing: state.status === 'active' && state.failing };
    }
    if (state.status !== 'active') return state;
    switch (event.type) {
      case 'WebhookSecretRotated':
        return { ...state, settings: { ...state.settings, sealedSecret: event.data.sealedSecret } };
      case 'WebhookEnabled':
      case 'WebhookDisabled':
        return { ...state, settings: { ...state.settings, enabled: event.type === 'WebhookEnabled' } };
      case 'WebhookDeleted':
        return { status: 'deleted' };
      case 'WebhookFailing':
      case 'WebhookRecovered':
        return { ...state, failing: event.type === 'WebhookFailing' };
    }
  },

  decide(command, state) {
    const { data } = command;
    if (command.type === 'SaveWebhook' && command.create) {
      if (state.status !== 'none') throw conflict(`webhook ${data.webhookId} already exists`);
      checkRoomForOneMore(command.quota, 'webhooks', data.workspaceId);
      if (command.data.sealedSecret === null) throw new Error('a new webhook needs a secret');
      return [{ type: 'WebhookSaved', data: { ...command.data, sealedSecret: command.data.sealedSecret, enabled: command.data.enabled ?? true, created: true } }];
    }
    // Another workspace's webhook reads as missing, so ids of other workspaces leak nothing.
    if (state.status !== 'active' || state.workspaceId !== data.workspaceId) throw notFound(`webhook ${data.webhookId} does not exist`);
    const ref = { webhookId: data.webhookId, workspaceId: data.workspaceId };
    switch (command.type) {
      case 'SaveWebhook':
        return [
          {
            type: 'WebhookSaved',
            data: {
              ...command.data,
              sealedSecret: command.data.sealedSecret ?? state.settings.sealedSecret,
              enabled: command.data.enabled ?? state.settings.enabled,
              created: false,
            },
          },
        ];
      case 'RotateWebhookSecret':
        return [{ type: 'WebhookSecretRotated', data: { ...ref, sealedSecret: command.data.sealedSecret } }];
      case 'EnableWebhook':
        return state.settings.enabled ? [] : [{ type: 'WebhookEnabled', data: ref }];
      case 'DisableWebhook':
        return state.settings.enabled ? [{ type: 'WebhookDisabled', data: ref }] : [];
      case 'DeleteWebhook':
        return [{ type: 'WebhookDeleted', data: ref }];
      case 'ReportDeliveryFailed':
        return state.failing ? [] : [{ type: 'WebhookFailing', data: { ...ref, deliveryId: command.data.deliveryId } }];
      case 'ReportDeliverySent':
        return state.failing ? [{ type: 'WebhookRecovered', data: { ...ref, deliveryId: command.data.deliveryId } }] : [];
    }
  },
};
