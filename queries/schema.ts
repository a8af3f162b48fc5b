import { HIDDEN_HEADER_VALUE } from '../src/domain/content-type/definition';
import { shapeOf } from '../src/domain/content-type/query-indexes';
import { SCHEMA_FORMAT, SCHEMA_VERSION, type SchemaContentType, type SchemaDocument, type SchemaWebhook } from '../src/domain/schema/document';
import type { WorkspaceSchema } from '../src/domain/schema/plan';
import { type ContentTypeQueries, definitionOf } from './content-types';
import type { LocaleQueries } from './locales';
import type { QueryIndexQueries } from './query-indexes';
import type { WebhookQueries } from './webhooks';

/** An export: every section present, the format and version first. */
export type ExportedSchema = SchemaDocument & WorkspaceSchema;

/**
 * A workspace's schema as code (docs/schema-as-code.md): its content types with the query indexes
 * operators declared and pinned, its locales, its webhooks without their secrets. Lists come in
 * a fixed order (by key, code, id) and every object with its members in one order, so two
 * exports of one schema are the same text.
 */
export class SchemaQueries {
  constructor(
    private readonly contentTypes: ContentTypeQueries,
    private readonly queryIndexes: QueryIndexQueries,
    private readonly locales: LocaleQueries,
    private readonly webhooks: WebhookQueries,
  ) {}

  async export(workspaceId: string): Promise<ExportedSchema> {
    const [types, locales, webhooks] = await Promise.all([this.contentTypes.documents(workspaceId), this.locales.list(workspaceId), this.webhooks.documents(workspaceId)]);
    const contentTypes: SchemaContentType[] = [];
    for (const document of [...types].sort((a, b) => ordinal(a.key, b.key))) {
      const indexes = await this.queryIndexes.declared(workspaceId, document.key);
      const definition = definitionOf(document);
      contentTypes.push({
        id: document.contentTypeId,
        // Also a definition saved before action headers were sealed shows none of their values.
        definition: { ...definition, actions: definition.actions.map((action) => ({ ...action, headers: hiddenValues(action.headers) })) },
        queryIndexes: {
          // Advised indexes follow each environment's own workload.
          indexes: (indexes?.indexes ?? []).filter((index) => index.origin !== 'advised').map((index) => ({ ...shapeOf(index), ...(index.origin === 'pinned' ? { origin: index.origin } : {}) })),
          forbidden: (indexes?.forbidden ?? []).map(shapeOf),
        },
      });
    }
    return {
      format: SCHEMA_FORMAT,
      version: SCHEMA_VERSION,
      contentTypes,
      locales: locales.map(({ code, name, fallbackCode, default: isDefault }) => ({ code, name, fallbackCode, default: isDefault })).sort((a, b) => ordinal(a.code, b.code)),
      webhooks: webhooks
        .map(
          (webhook): SchemaWebhook => ({
            id: webhook.webhookId,
            endpoint: webhook.endpoint,
            eventTypes: webhook.eventTypes,
            useCustomPayload: webhook.useCustomPayload,
            customPayload: webhook.customPayload,
            description: webhook.description,
            errorEmailTo: webhook.errorEmailTo,
            enabled: webhook.enabled,
          }),
        )
        .sort((a, b) => ordinal(a.id, b.id)),
    };
  }
}

const hiddenValues = (headers: Readonly<Record<string, string>>) => Object.fromEntries(Object.keys(headers).map((name) => [name, HIDDEN_HEADER_VALUE]));

/** By UTF-16 code units, as no collation of a database would order them differently. */
const ordinal = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
