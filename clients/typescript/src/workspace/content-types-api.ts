import type { ContentType, ContentTypeChangeReport, ContentTypeDefinition, ContentTypeList, Success } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.contentTypes;

/** Content types, with their fields and content actions. */
export class ContentTypesApi {
  constructor(private readonly transport: Transport) {}

  list(): Promise<ContentTypeList> {
    return this.transport.json(routes.list);
  }

  get(key: string): Promise<ContentType> {
    return this.transport.json(routes.get, { path: { key } });
  }

  /**
   * Creates the type, or replaces the one with the same key. A change of field rules that stored
   * items break is refused (409, its report in the problem's `report`) unless `confirmBreakingChanges`.
   */
  save(definition: ContentTypeDefinition, options: { confirmBreakingChanges?: boolean } = {}): Promise<ContentType> {
    return this.transport.json(routes.save, { body: definition, ...(options.confirmBreakingChanges ? { query: { confirmBreakingChanges: 'true' } } : {}) });
  }

  /** What saving `definition` would do to the type's stored items; nothing is saved. */
  check(definition: ContentTypeDefinition): Promise<ContentTypeChangeReport> {
    return this.transport.json(routes.check, { body: definition });
  }

  /** Only an empty type can be deleted (409 otherwise). */
  delete(key: string): Promise<Success> {
    return this.transport.json(routes.delete, { path: { key } });
  }
}
