import { foldEvents } from '../../src/domain/decider';
import { webhookDecider, type WebhookCommand } from '../../src/domain/webhook/decider';
import { webhookEvent, type WebhookEvent, type WebhookSettings } from '../../src/domain/webhook/events';
import { givenWhenThen, kindOf } from './decider-spec';

const decide = givenWhenThen(webhookDecider);
const ref = { workspaceId: 'ws', webhookId: 'wh-1' };
const settings: WebhookSettings = {
  endpoint: 'https://example.com/hook',
  sealedSecret: 'sealed-1',
  eventTypes: { Article: [0, 1] },
  useCustomPayload: false,
  customPayload: null,
  description: 'first',
  errorEmailTo: 'ops@example.com',
  enabled: true,
};
const room = { used: 0, limit: 2, setting: 'WEBHOOKS_PER_WORKSPACE' };
const save = (create: boolean, changes: { sealedSecret?: string | null; enabled?: boolean | null; description?: string } = {}, quota = room): WebhookCommand => ({
  type: 'SaveWebhook',
  create,
  quota,
  data: { ...ref, ...settings, sealedSecret: null, enabled: null, ...changes },
});
const saved = (created: boolean, changes: Partial<WebhookSettings> = {}): WebhookEvent => ({
  type: 'WebhookSaved',
  data: { ...ref, created, ...settings, ...changes },
});
const command = (type: 'EnableWebhook' | 'DisableWebhook' | 'DeleteWebhook', workspaceId = 'ws'): WebhookCommand => ({ type, data: { ...ref, workspaceId } });
const rotate = (sealedSecret: string, workspaceId = 'ws'): WebhookCommand => ({ type: 'RotateWebhookSecret', data: { ...ref, workspaceId, sealedSecret } });
const report = (type: 'ReportDeliveryFailed' | 'ReportDeliverySent', deliveryId: string, workspaceId = 'ws'): WebhookCommand => ({
  type,
  data: { ...ref, workspaceId, deliveryId },
});
const created = saved(true);
const disabled: WebhookEvent = { type: 'WebhookDisabled', data: ref };
const enabled: WebhookEvent = { type: 'WebhookEnabled', data: ref };
const deleted: WebhookEvent = { type: 'WebhookDeleted', data: ref };
const failing = (deliveryId: string): WebhookEvent => ({ type: 'WebhookFailing', data: { ...ref, deliveryId } });
const recovered = (deliveryId: string): WebhookEvent => ({ type: 'WebhookRecovered', data: { ...ref, deliveryId } });

describe('webhook decider', () => {
  describe('create', () => {
    it('given no webhook, when it is saved with create, then WebhookSaved marks it created and enabled by default', () => {
      const events = decide([], save(true, { sealedSecret: 'sealed-1' }));
      expect(events).toEqual([created]);
      expect(webhookEvent.parse(events[0])).toEqual(created);
    });

    it('given no webhook, when it is created disabled, then the flag is kept', () => {
      expect(decide([], save(true, { sealedSecret: 'sealed-1', enabled: false }))).toEqual([saved(true, { enabled: false })]);
    });

    it('given an existing webhook, when it is created again, then it is a conflict', () => {
      expect(kindOf(() => decide([created], save(true, { sealedSecret: 'sealed-2' })))).toBe('conflict');
    });

    it('given a deleted webhook, when its id is created again, then it is a conflict', () => {
      expect(kindOf(() => decide([created, deleted], save(true, { sealedSecret: 'sealed-2' })))).toBe('conflict');
    });

    it('given a workspace at its webhook quota, when one more is created, then it is a conflict; an update still passes', () => {
      const full = { ...room, used: 2 };
      expect(kindOf(() => decide([], save(true, { sealedSecret: 'sealed-1' }, full)))).toBe('conflict');
      expect(() => decide([], save(true, { sealedSecret: 'sealed-1' }, full))).toThrow('WEBHOOKS_PER_WORKSPACE allows (2)');
      expect(decide([created], save(false, {}, full))).toEqual([saved(false)]);
      expect(kindOf(() => decide([], save(true, { sealedSecret: 'sealed-1' }, { ...full, limit: 0 })))).toBe('ok');
    });

    it('given no webhook, when it is created without a secret, then it throws', () => {
      expect(() => decide([], save(true))).toThrow('a new webhook needs a secret');
    });
  });

  describe('update', () => {
    it('given a webhook, when it is saved with sealedSecret and enabled null, then the current secret and flag are kept', () => {
      expect(decide([created, disabled], save(false, { description: 'second' }))).toEqual([saved(false, { description: 'second', enabled: false })]);
      expect(decide([created], save(false))).toEqual([saved(false)]);
    });

    it('given a webhook, when it is saved with a secret and a flag, then both are replaced', () => {
      expect(decide([created], save(false, { sealedSecret: 'sealed-2', enabled: false }))).toEqual([saved(false, { sealedSecret: 'sealed-2', enabled: false })]);
      expect(decide([created, disabled], save(false, { enabled: true }))).toEqual([saved(false)]);
    });

    it('given a rotated secret, when the webhook is saved with sealedSecret null, then the rotated secret is kept', () => {
      const rotated: WebhookEvent = { type: 'WebhookSecretRotated', data: { ...ref, sealedSecret: 'sealed-3' } };
      expect(decide([created, rotated], save(false))).toEqual([saved(false, { sealedSecret: 'sealed-3' })]);
    });
  });

  describe('missing, deleted and foreign webhooks', () => {
    const commands: [string, WebhookCommand][] = [
      ['update', save(false)],
      ['rotate', rotate('sealed-2')],
      ['enable', command('EnableWebhook')],
      ['disable', command('DisableWebhook')],
      ['delete', command('DeleteWebhook')],
      ['report a failure', report('ReportDeliveryFailed', 'd1')],
      ['report a success', report('ReportDeliverySent', 'd1')],
    ];

    it.each(commands)('given no webhook, when %s, then not_found', (_name, when) => {
      expect(kindOf(() => decide([], when))).toBe('not_found');
    });

    it.each(commands)('given a deleted webhook, when %s, then not_found', (_name, when) => {
      expect(kindOf(() => decide([created, deleted], when))).toBe('not_found');
    });

    it.each(commands)('given a webhook of another workspace, when %s, then not_found', (_name, when) => {
      const foreign: WebhookCommand = { ...when, data: { ...when.data, workspaceId: 'other' } } as WebhookCommand;
      expect(kindOf(() => decide([created], foreign))).toBe('not_found');
    });
  });

  describe('enable, disable, rotate, delete', () => {
    it('given an enabled webhook, when it is enabled, then nothing happens; when disabled, then WebhookDisabled', () => {
      expect(decide([created], command('EnableWebhook'))).toEqual([]);
      expect(decide([created], command('DisableWebhook'))).toEqual([disabled]);
    });

    it('given a disabled webhook, when it is disabled, then nothing happens; when enabled, then WebhookEnabled', () => {
      expect(decide([created, disabled], command('DisableWebhook'))).toEqual([]);
      expect(decide([created, disabled], command('EnableWebhook'))).toEqual([enabled]);
      expect(decide([created, disabled, enabled], command('EnableWebhook'))).toEqual([]);
    });

    it('given a webhook, when its secret is rotated, then WebhookSecretRotated carries the new sealed secret', () => {
      expect(decide([created], rotate('sealed-2'))).toEqual([{ type: 'WebhookSecretRotated', data: { ...ref, sealedSecret: 'sealed-2' } }]);
    });

    it('given a webhook, when it is deleted, then WebhookDeleted', () => {
      expect(decide([created], command('DeleteWebhook'))).toEqual([deleted]);
    });
  });

  describe('failing streaks', () => {
    it('given a healthy webhook, when a delivery fails, then WebhookFailing', () => {
      expect(decide([created], report('ReportDeliveryFailed', 'd1'))).toEqual([failing('d1')]);
    });

    it('given a failing webhook, when another delivery fails, then nothing (once per streak)', () => {
      expect(decide([created, failing('d1')], report('ReportDeliveryFailed', 'd2'))).toEqual([]);
    });

    it('given a healthy webhook, when a delivery is sent, then nothing', () => {
      expect(decide([created], report('ReportDeliverySent', 'd1'))).toEqual([]);
    });

    it('given a failing webhook, when a delivery is sent, then WebhookRecovered, and the next failure starts a new streak', () => {
      expect(decide([created, failing('d1')], report('ReportDeliverySent', 'd2'))).toEqual([recovered('d2')]);
      expect(decide([created, failing('d1'), recovered('d2')], report('ReportDeliveryFailed', 'd3'))).toEqual([failing('d3')]);
    });

    it('given a failing webhook, when it is updated, then it is still failing', () => {
      const state = foldEvents(webhookDecider, [created, failing('d1'), saved(false, { description: 'second' })]);
      expect(state).toEqual({ status: 'active', workspaceId: 'ws', settings: { ...settings, description: 'second' }, failing: true });
      expect(decide([created, failing('d1'), saved(false)], report('ReportDeliveryFailed', 'd2'))).toEqual([]);
      expect(decide([created, failing('d1'), saved(false)], report('ReportDeliverySent', 'd2'))).toEqual([recovered('d2')]);
    });
  });

  describe('evolve', () => {
    it('folds settings, flags and deletion', () => {
      const rotated: WebhookEvent = { type: 'WebhookSecretRotated', data: { ...ref, sealedSecret: 'sealed-2' } };
      expect(foldEvents(webhookDecider, [])).toEqual({ status: 'none' });
      expect(foldEvents(webhookDecider, [created])).toEqual({ status: 'active', workspaceId: 'ws', settings, failing: false });
      expect(foldEvents(webhookDecider, [created, rotated, disabled])).toEqual({
        status: 'active',
        workspaceId: 'ws',
        settings: { ...settings, sealedSecret: 'sealed-2', enabled: false },
        failing: false,
      });
      expect(foldEvents(webhookDecider, [created, failing('d1'), deleted])).toEqual({ status: 'deleted' });
    });
  });
});
