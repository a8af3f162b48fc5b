import { randomInt, randomUUID } from 'node:crypto';
import type { WorkspaceCipher } from '../infra/crypto/envelope';
import { webhookDecider, type WebhookCommand } from '../src/domain/webhook/decider';
import { webhookEvent, type WebhookSettings, webhookStream } from '../src/domain/webhook/events';
import { TEMPLATE_ROOTS } from '../src/domain/webhook/template';
import { type FieldProblem, invalidFields } from '../src/domain/errors';
import { findTemplateProblem } from '../src/domain/json-template';
import { HTTP_SCHEMES, outboundUrlProblem } from '../src/domain/outbound-request';
import type { CommandContext, CommandRunner } from './aggregate';
import { measureQuota, type QuotaCounter } from './workspace-quota';

export const webhookAggregate = { decider: webhookDecider, parse: webhookEvent.parse };

const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `wh_` and 32 random characters, as the spec asks. */
export function generateWebhookSecret(): string {
  return `wh_${Array.from({ length: 32 }, () => SECRET_ALPHABET[randomInt(SECRET_ALPHABET.length)]).join('')}`;
}

export interface SaveWebhookInput extends Omit<WebhookSettings, 'sealedSecret' | 'enabled'> {
  /** Absent: enabled on create, kept on update. */
  readonly enabled: boolean | null;
  /** Absent or empty creates. */
  readonly id?: string | null;
  /** The id a create gives the webhook instead of a generated one (a schema apply keeps the id of the environment it came from). */
  readonly newId?: string;
  /** Absent or empty: generated on create, kept on update. */
  readonly secret?: string | null;
}

export interface WebhookRules {
  /** `http://` endpoints are accepted (WEBHOOK_ALLOW_HTTP). */
  readonly allowHttp: boolean;
  /** Whether the workspace has a content type with this key. */
  contentTypeExists(workspaceId: string, key: string): Promise<boolean>;
  /** Webhooks per workspace (WEBHOOKS_PER_WORKSPACE), counted in the webhooks read model. */
  readonly quota: QuotaCounter;
}

export class WebhookCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly cipher: WorkspaceCipher,
    private readonly rules: WebhookRules,
  ) {}

  /** Returns the webhook's id. */
  async save(workspaceId: string, input: SaveWebhookInput, context: CommandContext): Promise<string> {
    await this.check(workspaceId, input);
    const create = !input.id;
    const webhookId = create ? (input.newId ?? randomUUID()) : input.id!;
    const secret = input.secret ? input.secret : create ? generateWebhookSecret() : null;
    const { id: _id, newId: _newId, secret: _secret, ...settings } = input;
    const command: WebhookCommand = {
      type: 'SaveWebhook',
      create,
      quota: await measureQuota(this.rules.quota, workspaceId),
      data: { workspaceId, webhookId, ...settings, sealedSecret: secret === null ? null : await this.cipher.encrypt(workspaceId, secret) },
    };
    const stream = webhookStream(workspaceId, webhookId);
    if (create) await this.runner.create(webhookAggregate, stream, command, context);
    else await this.runner.run(webhookAggregate, stream, command, context);
    return webhookId;
  }

  /** The old secret stops signing at once: deliveries read the secret when they are sent. */
  async rotateSecret(workspaceId: string, webhookId: string, context: CommandContext): Promise<void> {
    const sealedSecret = await this.cipher.encrypt(workspaceId, generateWebhookSecret());
    await this.run({ type: 'RotateWebhookSecret', data: { workspaceId, webhookId, sealedSecret } }, context);
  }

  async change(type: 'EnableWebhook' | 'DisableWebhook' | 'DeleteWebhook', workspaceId: string, webhookId: string, context: CommandContext): Promise<void> {
    await this.run({ type, data: { workspaceId, webhookId } }, context);
  }

  /** True when this failure started a failing streak (and so deserves an e-mail). */
  async reportDelivery(sent: boolean, workspaceId: string, webhookId: string, deliveryId: string, context: CommandContext): Promise<boolean> {
    const { events } = await this.run({ type: sent ? 'ReportDeliverySent' : 'ReportDeliveryFailed', data: { workspaceId, webhookId, deliveryId } }, context);
    return events.some((event) => event.type === 'WebhookFailing');
  }

  private run(command: WebhookCommand, context: CommandContext) {
    return this.runner.run(webhookAggregate, webhookStream(command.data.workspaceId, command.data.webhookId), command, context);
  }

  /** A 400 listing every bad field: the endpoint, each unknown content type, the custom payload. */
  private async check(workspaceId: string, input: SaveWebhookInput): Promise<void> {
    const problems: FieldProblem[] = [];
    const endpoint = this.endpointProblem(input.endpoint);
    if (endpoint) problems.push({ field: 'endpoint', message: endpoint });
    for (const key of Object.keys(input.eventTypes)) {
      if (!(await this.rules.contentTypeExists(workspaceId, key))) problems.push({ field: `eventTypes.${key}`, message: `content type ${key} does not exist` });
    }
    const template = input.customPayload ? findTemplateProblem(input.customPayload, TEMPLATE_ROOTS) : null;
    if (template) problems.push({ field: `customPayload${template.path}`, message: template.message });
    if (input.useCustomPayload && !input.customPayload) problems.push({ field: 'customPayload', message: 'useCustomPayload needs a customPayload' });
    if (problems.length > 0) throw invalidFields(problems);
  }

  /** What is wrong with a webhook's endpoint (absolute, https unless WEBHOOK_ALLOW_HTTP); null when nothing. */
  endpointProblem(endpoint: string): string | null {
    const problem = outboundUrlProblem(endpoint, this.rules.allowHttp ? HTTP_SCHEMES : ['https:']);
    if (problem === 'must be an https URL') return `${problem} (WEBHOOK_ALLOW_HTTP=true allows http:// endpoints in development)`;
    return problem;
  }
}
