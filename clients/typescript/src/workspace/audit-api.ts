import type { AuditEntry, AuditPage, Operations } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.audit;

export type AuditQuery = Operations['getAuditFeed']['query'];

/** The workspace's audit feed; the key needs AuditAccess. */
export class AuditApi {
  constructor(private readonly transport: Transport) {}

  /** One page in log order; pass its `next` as `after` for the following one. */
  async page(query: AuditQuery = {}): Promise<AuditPage> {
    // JSON unless NDJSON is asked for, which this client never does.
    return (await this.transport.json(routes.page, { query })) as AuditPage;
  }

  /** Every matching entry after `query.after`, page by page, up to the entries there are now. */
  async *entries(query: AuditQuery = {}): AsyncGenerator<AuditEntry> {
    let after = query.after;
    for (;;) {
      const page = await this.page({ ...query, ...(after === undefined ? {} : { after }) });
      yield* page.items;
      if (!page.hasMore || page.next === null) return;
      after = page.next;
    }
  }
}
