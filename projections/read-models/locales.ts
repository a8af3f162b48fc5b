import { localeEvent, localeKey } from '../../src/domain/locale/events';
import type { Change, Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const LOCALES = 'locales';

/** id `${workspaceId}:${lower-case code}`. */
export interface LocaleDocument extends Document {
  readonly workspaceId: string;
  readonly code: string;
  readonly name: string;
  readonly fallbackCode: string | null;
  readonly default: boolean;
}

export const localeDocumentId = (workspaceId: string, code: string) => `${workspaceId}:${localeKey(code)}`;

export const localesProjector: Projector = {
  name: 'locales',
  collections: [{ name: LOCALES, indexes: [{ fields: ['workspaceId', 'code'] }] }],
  eventTypes: new Set(['LocaleAdded', 'LocaleUpdated', 'DefaultLocaleChanged', 'LocaleDeleted']),

  async project(recorded, view) {
    const event = localeEvent.parse(recorded);
    const { workspaceId } = event.data;
    switch (event.type) {
      case 'LocaleAdded':
      case 'LocaleUpdated': {
        const id = localeDocumentId(workspaceId, event.data.locale.code);
        const current = await view.get<LocaleDocument>(LOCALES, id);
        const document: LocaleDocument = { id, workspaceId, ...event.data.locale, default: current?.default ?? false };
        return [{ kind: 'upsert', collection: LOCALES, document }];
      }
      case 'DefaultLocaleChanged': {
        const changes: Change[] = [];
        if (event.data.previousCode !== null) changes.push(...(await setDefault(view, workspaceId, event.data.previousCode, false)));
        changes.push(...(await setDefault(view, workspaceId, event.data.code, true)));
        return changes;
      }
      case 'LocaleDeleted':
        return [{ kind: 'delete', collection: LOCALES, id: localeDocumentId(workspaceId, event.data.code) }];
    }
  },
};

async function setDefault(view: Parameters<Projector['project']>[1], workspaceId: string, code: string, isDefault: boolean): Promise<Change[]> {
  const current = await view.get<LocaleDocument>(LOCALES, localeDocumentId(workspaceId, code));
  return current ? [{ kind: 'upsert', collection: LOCALES, document: { ...current, default: isDefault } }] : [];
}
