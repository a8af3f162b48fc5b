import type { Document } from '../../infra/readstore/port';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { auditEntriesProjector, AUDIT_ENTRIES, type AuditEntryDocument } from '../../projections/read-models/audit-entries';
import { ActorNames } from '../../queries/actor-names';
import { AuditFeedQueries } from '../../queries/audit-feed';
import { sortablePosition } from '../../src/domain/audit/log-position';
import { countingCalls } from '../support/counting';
import { openMemoryPglite } from '../support/pglite-template';
import { statementPlan } from '../support/query-plans';

function entry(index: number, type: string, actorKind: AuditEntryDocument['actorKind'] = 'admin'): AuditEntryDocument {
  const position = { commit: BigInt(index + 1), prepare: BigInt(index + 1) };
  return {
    id: `event-${index}`,
    workspaceId: 'ws',
    seq: sortablePosition(position),
    stream: `stream-${index % 7}`,
    revision: index,
    type,
    at: new Date(Date.UTC(2024, 0, 1, 0, 0, index)).toISOString(),
    actor: 'someone',
    actorKind,
    actorId: 'admin',
    actorName: 'Admin',
    requestId: null,
    serverRequestId: null,
    clientInfo: null,
    itemId: null,
    summary: {},
  };
}

describe('audit feed', () => {
  it('reads a page filtered by many event types with one query, in log order', async () => {
    const sql = await openMemoryPglite();
    const store = await PostgresReadStore.open(sql);
    for (const collection of auditEntriesProjector.collections) await store.ensureCollection(collection.name, collection.indexes, collection.columns);
    const types = Array.from({ length: 50 }, (_, index) => `Type${index}`);
    const documents: Document[] = Array.from({ length: 300 }, (_, index) => entry(index, index % 3 === 0 ? 'Other' : types[index % types.length]!));
    await store.apply(documents.map((document) => ({ kind: 'upsert', collection: AUDIT_ENTRIES, document })));
    const { proxy, calls } = countingCalls(store, ['list', 'find', 'listIds', 'findIds']);

    const page = await new AuditFeedQueries(proxy, new ActorNames(proxy)).page('ws', { types }, null, 20);

    expect(calls).toEqual({ list: 1, find: 0, listIds: 0, findIds: 0 });
    const expected = documents.filter((document) => document['type'] !== 'Other').slice(0, 20);
    expect(page.items.map((item) => item.eventId)).toEqual(expected.map((document) => document.id));
    expect(page.hasMore).toBe(true);
    await sql.close();
  });

  it('reads a page filtered by actor kind from an index of its own, not by filtering every entry of the workspace', async () => {
    const sql = await openMemoryPglite();
    const store = await PostgresReadStore.open(sql);
    for (const collection of auditEntriesProjector.collections) await store.ensureCollection(collection.name, collection.indexes, collection.columns);
    // Shared-key downloads are rare among many key writes: the page of them must not walk the rest.
    const documents: Document[] = Array.from({ length: 5000 }, (_, index) => entry(index, 'ContentDraftSaved', index % 500 === 0 ? 'sharedAccessKey' : 'apiKey'));
    await store.apply(documents.map((document) => ({ kind: 'upsert', collection: AUDIT_ENTRIES, document })));
    await store.analyzeCollection(AUDIT_ENTRIES);
    const [index] = await sql.query<{ name: string }>("select indexname as name from pg_indexes where tablename = 'rm_audit_entries' and indexdef like '%c_actorKind%'");

    let page: Awaited<ReturnType<AuditFeedQueries['page']>> | undefined;
    const plan = await statementPlan(
      sql,
      async (recording) => (page = await new AuditFeedQueries(recording, new ActorNames(recording)).page('ws', { actorKind: 'sharedAccessKey' }, null, 20)),
      (text) => text.includes('rm_audit_entries'),
    );

    expect(page!.items.map((item) => item.eventId)).toEqual(documents.filter((document) => document['actorKind'] === 'sharedAccessKey').map((document) => document.id));
    expect(index).toBeDefined();
    expect(plan).toContain(index!.name);
    await sql.close();
  });
});
