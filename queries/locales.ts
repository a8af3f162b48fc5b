import type { ReadStore } from '../infra/readstore/port';
import { LOCALES, type LocaleDocument } from '../projections/read-models/locales';

export interface LocaleModel {
  readonly code: string;
  readonly name: string;
  readonly fallbackCode: string | null;
  readonly default: boolean;
}

export const toLocaleModel = ({ code, name, fallbackCode, default: isDefault }: LocaleDocument): LocaleModel => ({
  code,
  name,
  fallbackCode,
  default: isDefault,
});

export class LocaleQueries {
  constructor(private readonly store: ReadStore) {}

  async list(workspaceId: string): Promise<LocaleModel[]> {
    const { items } = await this.store.find<LocaleDocument>(LOCALES, {
      filter: { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
      sort: [{ field: 'code', direction: 'asc' }],
    });
    return items.map(toLocaleModel);
  }
}
