import type { Locale, LocaleList, SaveLocaleRequest, Success } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.locales;

/** Languages with fallback chains and one default. */
export class LocalesApi {
  constructor(private readonly transport: Transport) {}

  list(): Promise<LocaleList> {
    return this.transport.json(routes.list);
  }

  /** Creates or updates the locale with this code; the first one becomes the default. */
  save(locale: SaveLocaleRequest): Promise<Locale> {
    return this.transport.json(routes.save, { body: locale });
  }

  /** The default locale, and one another falls back to, cannot be deleted (400). */
  delete(code: string): Promise<Success> {
    return this.transport.json(routes.delete, { path: { code } });
  }
}
