import { randomUUID } from 'node:crypto';
import { TOTP } from 'otpauth';
import pino from 'pino';
import { CmsAdminClient, CmsClient } from '../../clients/typescript/src';
import { loadConfig } from '../../src/config';
import { buildContainer, TOKENS } from '../../src/container';
import { client } from '../support/http';
import { eventually } from '../support/waiting';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { comparePositions, type EventStore, type Position, positionFromString, type RecordedEvent } from '../../infra/eventstore/port';
import type { ReadStore } from '../../infra/readstore/port';
import { ActorNames } from '../../queries/actor-names';
import { VERSION_3_COLUMNS, VERSION_3_INDEXES, type Version3Document, version3Document, version3Feed, type Version3Filter } from '../support/audit-entries-v3';
import { checkpointName } from '../../projections/projector';
import { AUDIT_ENTRIES, auditEntriesProjector } from '../../projections/read-models/audit-entries';
import { openStoreSql } from '../support/store-sql';
import { deleteCheckpointEverywhere, resolveCheckpoints } from '../../projections/group-checkpoint';

const ALICE = 'alice-admin-token-0123456789';
const BOB = 'bob-admin-token-0123456789ab';
const noteType = {
  name: 'Note',
  key: 'Note',
  fields: [
    { key: 'title', type: 'Text', required: true },
    { key: 'pin', type: 'Encrypted' },
  ],
};

interface Entry {
  eventId: string;
  position: string;
  stream: string;
  revision: number;
  type: string;
  at: string;
  actor: string;
  actorKind: string;
  actorId: string;
  actorName: string | null;
  requestId: string | null;
  serverRequestId: string | null;
  itemId: string | null;
  summary: Record<string, unknown>;
}

/** A small asset uploaded in one chunk; its id. */
export async function uploadAsset(api: ReturnType<typeof client>, key: string, file: Buffer, readKey = key): Promise<string> {
  const assetId = randomUUID();
  const chunk = {
    assetId,
    fileUploadId: randomUUID(),
    originalFileName: 'file.bin',
    chunkIndex: 0,
    chunkSize: file.length,
    totalChunkCount: 1,
    chunkByteOffset: 0,
    totalFileSize: file.length,
    stream: file.toString('base64'),
  };
  expect([200, 202]).toContain((await api('POST', '/assets/uploadAsset', { key, body: chunk })).status);
  await eventually(async () => (await api('GET', `/assets/${assetId}`, { key: readKey })).status === 200);
  return assetId;
}

/** Every event of the log up to `through`, in order. */
async function logThrough(events: EventStore, through: Position): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (let after: Position | undefined; ; ) {
    const page = await events.readAll({ ...(after ? { after } : {}), maxCount: 1000 });
    all.push(...page.filter((event) => comparePositions(event.position, through) <= 0));
    if (page.length === 0 || comparePositions(page.at(-1)!.position, through) >= 0) return all;
    after = page.at(-1)!.position;
  }
}

/**
 * The feed as version 3 of its read model left a store: a document per event, its typed columns
 * and indexes, its checkpoint where this version's was. Answers the documents.
 */
async function leaveAsVersion3Did(readStore: ReadStore, events: EventStore): Promise<Version3Document[]> {
  const current = checkpointName(auditEntriesProjector);
  const position = resolveCheckpoints(await readStore.listCheckpoints()).get(current)!;
  const documents = (await logThrough(events, position)).flatMap((event) => version3Document(event) ?? []);
  await readStore.dropCollection(AUDIT_ENTRIES);
  await readStore.ensureCollection(AUDIT_ENTRIES, VERSION_3_INDEXES, VERSION_3_COLUMNS);
  await readStore.apply(
    documents.map((document) => ({ kind: 'upsert', collection: AUDIT_ENTRIES, document })),
    [{ name: checkpointName({ name: auditEntriesProjector.name, version: 3 }), position }],
  );
  await deleteCheckpointEverywhere(readStore, current);
  return documents;
}

export function describeAuditTrail(engine: Engine): void {
  describe(`attribution and the audit feed (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let workspaceId: string;
    let editor: { key: string; id: string };
    let auditor: { key: string; id: string };

    const issue = async (name: string, policies: string[], bearer = ALICE) => {
      const issued = await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { bearer, body: { name, policies } });
      expect(issued.status).toBe(201);
      return { key: issued.body.key as string, id: issued.body.id as string };
    };
    const saveNote = async (title: string, key = editor.key, headers: Record<string, string> = {}) => {
      const saved = await api('PUT', '/v2/contents/Note', { key, headers, body: { fields: { title } } });
      expect(saved.status).toBe(200);
      return saved.body.id as string;
    };
    /** Every entry of the feed for `query`, following the cursor page by page. */
    /** Runs `work` on the store with the service closed: the store as an earlier version would have left it. */
    async function onClosedStore<T>(work: (readStore: ReadStore, events: EventStore) => Promise<T>): Promise<T> {
      await service.service.close();
      const container = await buildContainer(loadConfig(service.environment), pino({ level: 'silent' }));
      try {
        return await work(container.resolve(TOKENS.readStore), container.resolve(TOKENS.eventStore));
      } finally {
        for (const close of container.resolve(TOKENS.closers)) await close();
      }
    }

    /** Starts the service again and waits for the rebuild its start runs (the backfill). */
    async function restartUntilRebuilt() {
      service = await service.restart({ ADMIN_TOKENS: `alice=${ALICE}, bob=${BOB}` });
      api = client(service.url);
      return eventually(async () => {
        const status = (await api('GET', '/admin/projections', { bearer: ALICE })).body.rebuild;
        return status?.state === 'succeeded' && status;
      });
    }

    const wholeFeed = async (query = '', limit = 1000) => {
      const entries: Entry[] = [];
      let after = '';
      for (;;) {
        const page = await api('GET', `/audit?limit=${limit}${query}${after}`, { key: auditor.key });
        expect(page.status).toBe(200);
        entries.push(...page.body.items);
        if (!page.body.hasMore) return entries;
        after = `&after=${page.body.next}`;
      }
    };

    beforeAll(async () => {
      service = await startTestService(engine, { ADMIN_TOKENS: `alice=${ALICE}, bob=${BOB}` });
      api = client(service.url);
      workspaceId = (await api('POST', '/admin/workspaces', { bearer: ALICE, body: { name: 'Audited' } })).body.id;
      editor = await issue('editor', ['ReadAccess', 'WriteAccess']);
      auditor = await issue('auditor', ['AuditAccess'], BOB);
      expect((await api('PUT', '/content-types', { key: editor.key, body: noteType })).status).toBe(200);
    });
    afterAll(() => service.close());

    it('accepts every named admin token and ADMIN_TOKEN (named admin); anything else is 401', async () => {
      for (const bearer of [ALICE, BOB, ADMIN_TOKEN]) expect((await api('GET', '/admin/workspaces', { bearer })).status).toBe(200);
      for (const bearer of [`${ALICE}x`, ALICE.slice(0, -1), 'alice', editor.key]) expect((await api('GET', '/admin/workspaces', { bearer })).status).toBe(401);
    });

    it('records which admin acted: the workspace and key events name alice and bob, ADMIN_TOKEN acts as admin', async () => {
      const byAdmin = await api('POST', `/admin/workspaces/${workspaceId}/api-keys`, { bearer: ADMIN_TOKEN, body: { name: 'spare', policies: ['ReadAccess'] } });
      const entries = await wholeFeed('&type=WorkspaceCreated,ApiKeyIssued');
      const attribution = ({ type, actorKind, actorId, actorName, summary }: Entry) => ({ type, actorKind, actorId, actorName, keyId: summary.keyId });
      expect(entries.map(attribution)).toEqual([
        { type: 'WorkspaceCreated', actorKind: 'admin', actorId: 'alice', actorName: 'alice', keyId: undefined },
        { type: 'ApiKeyIssued', actorKind: 'admin', actorId: 'alice', actorName: 'alice', keyId: editor.id },
        { type: 'ApiKeyIssued', actorKind: 'admin', actorId: 'bob', actorName: 'bob', keyId: auditor.id },
        { type: 'ApiKeyIssued', actorKind: 'admin', actorId: 'admin', actorName: 'admin', keyId: byAdmin.body.id },
      ]);
      // The admin's own view of the same feed, and the admin filter.
      const adminView = await api('GET', `/admin/workspaces/${workspaceId}/audit?actorKind=admin&actorId=bob`, { bearer: ALICE });
      expect(adminView.status).toBe(200);
      expect(adminView.body.items.map((entry: Entry) => entry.summary.keyId)).toEqual([auditor.id]);
    });

    it("answers the actor's name and the request ids (the client's and the server's) in an item's history and the feed, beside what it answered before", async () => {
      const saved = await api('PUT', '/v2/contents/Note', { key: editor.key, headers: { 'x-request-id': 'audit-trace-1' }, body: { fields: { title: 'First' } } });
      const id = saved.body.id as string;
      const serverRequestId = saved.headers.get('x-server-request-id');
      expect(serverRequestId).toMatch(/^[0-9a-f-]{36}$/);
      const history = await api('GET', `/contents/Note/${id}/history`, { key: editor.key });
      expect(history.status).toBe(200);
      expect(history.body.length).toBeGreaterThan(0);
      expect(history.body[0]).toEqual(
        {
          version: 1,
          type: 'ContentDraftSaved',
          at: expect.any(String),
          actor: `key:${editor.id}`,
          actorKind: 'apiKey',
          actorId: editor.id,
          actorName: 'editor',
          clientInfo: null,
          requestId: 'audit-trace-1',
          serverRequestId,
        },
      );
      for (const entry of history.body) expect(entry).toMatchObject({ actorName: 'editor', requestId: 'audit-trace-1', serverRequestId });
      const feed = await eventually(async () => {
        const entries = await wholeFeed(`&itemId=${id}`);
        return entries.length === history.body.length && entries;
      });
      for (const entry of feed) expect(entry).toMatchObject({ requestId: 'audit-trace-1', serverRequestId });
      // Without an X-Request-Id the server's id is the request id too.
      const unnamed = await api('PUT', '/v2/contents/Note', { key: editor.key, body: { fields: { title: 'Unnamed' } } });
      expect(unnamed.headers.get('x-request-id')).toBe(unnamed.headers.get('x-server-request-id'));
    });

    it('names the key of an event written before attribution, and keeps revoked keys listed with their revocation time', async () => {
      const writer = await issue('old writer', ['WriteAccess', 'ReadAccess']);
      const id = await saveNote('Before attribution', writer.key);
      // An event as the previous version wrote it: the actor without kind, id or name.
      const events = service.service.container.resolve(TOKENS.eventStore);
      await events.append(
        `content-${workspaceId}-${id}`,
        [{ type: 'ContentPublished', data: { workspaceId, itemId: id, contentType: 'Note', firstPublish: true, fields: { title: 'Before attribution' }, translations: {} }, metadata: { workspaceId, actor: `key:${writer.id}`, correlationId: 'old-request', timestamp: new Date().toISOString() } }],
        'any',
      );
      expect((await api('DELETE', `/admin/workspaces/${workspaceId}/api-keys/${writer.id}`, { bearer: ALICE })).status).toBe(200);
      const history = await eventually(async () => {
        const answer = await api('GET', `/contents/Note/${id}/history`, { key: editor.key });
        return answer.body.at(-1)?.requestId === 'old-request' && answer.body;
      });
      expect(history.at(-1)).toMatchObject({ actor: `key:${writer.id}`, actorKind: 'apiKey', actorId: writer.id, actorName: 'old writer', requestId: 'old-request', serverRequestId: null });
      const listed = await api('GET', `/admin/workspaces/${workspaceId}/api-keys`, { bearer: BOB });
      expect(listed.body).toContainEqual(expect.objectContaining({ id: writer.id, name: 'old writer', revokedAt: expect.any(String) }));
      const published = await eventually(async () => (await wholeFeed(`&itemId=${id}&type=ContentPublished`)).at(-1));
      expect(published).toMatchObject({ actorKind: 'apiKey', actorId: writer.id, actorName: 'old writer', requestId: 'old-request' });
    });

    it('gives the feed to AuditAccess only: a read or write key gets 403, no key 401, and AuditAccess reads no content', async () => {
      expect((await api('GET', '/audit', { key: editor.key })).status).toBe(403);
      expect((await api('GET', '/audit')).status).toBe(401);
      expect((await api('GET', '/content-types', { key: auditor.key })).status).toBe(403);
      expect((await api('GET', '/audit', { key: auditor.key })).status).toBe(200);
      expect((await api('GET', '/admin/workspaces/0b9e0a52-0000-4000-8000-000000000000/audit', { bearer: ALICE })).status).toBe(404);
      expect((await api('GET', `/admin/workspaces/${workspaceId}/audit`, { key: auditor.key })).status).toBe(401);
    });

    it("shows only its own workspace's events", async () => {
      const other = (await api('POST', '/admin/workspaces', { bearer: ALICE, body: { name: 'Elsewhere' } })).body.id as string;
      await api('POST', `/admin/workspaces/${other}/api-keys`, { bearer: ALICE, body: { name: 'elsewhere', policies: ['ReadAccess'] } });
      const entries = await wholeFeed();
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.every((entry) => !entry.stream.includes(other) && entry.summary.name !== 'elsewhere')).toBe(true);
    });

    it('answers 400 naming the parameter for bad filters and cursors', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['after=abc', 'after'],
        ['from=yesterday', 'from'],
        ['actorKind=robot', 'actorKind'],
        ['type=', 'type'],
      ]) {
        const answer = await api('GET', `/audit?${query}`, { key: auditor.key });
        expect(answer.status).toBe(400);
        expect(answer.body.errors[0].field).toBe(field);
      }
      expect((await api('GET', '/audit?type=A&type=B', { key: auditor.key })).status).toBe(400);
    });

    it('filters by actor, event type, stream, item and time range', async () => {
      const second = await issue('second editor', ['WriteAccess', 'ReadAccess']);
      const first = await saveNote('Filter one');
      const before = new Date().toISOString();
      const other = await saveNote('Filter two', second.key);

      const bySecond = await wholeFeed(`&actorKind=apiKey&actorId=${second.id}`);
      expect(bySecond.map((entry) => [entry.type, entry.itemId])).toEqual([
        ['ContentDraftSaved', other],
        ['ContentPublished', other],
      ]);
      expect((await wholeFeed(`&itemId=${first}`)).map((entry) => entry.type)).toEqual(['ContentDraftSaved', 'ContentPublished']);
      expect((await wholeFeed(`&stream=content-${workspaceId}-${other}`)).map((entry) => entry.revision)).toEqual([0, 1]);
      const published = await wholeFeed('&type=ContentPublished');
      expect(published.every((entry) => entry.type === 'ContentPublished')).toBe(true);
      expect(published.map((entry) => entry.itemId)).toContain(other);
      const since = await wholeFeed(`&from=${encodeURIComponent(before)}&type=ContentDraftSaved,ContentPublished`);
      expect(since.map((entry) => entry.itemId)).toEqual([other, other]);
      expect(await wholeFeed(`&to=${encodeURIComponent(before)}&itemId=${other}`)).toEqual([]);
    });

    it('finds a time range in a log of days, and only it', async () => {
      const events = service.service.container.resolve(TOKENS.eventStore);
      const stream = `audit-days-${randomUUID()}`;
      const day = 86_400_000;
      const times = [10, 5, 1].map((days) => new Date(Date.now() - days * day).toISOString());
      await events.append(
        stream,
        times.map((timestamp, index) => ({ type: 'AuditTestNoted', data: { workspaceId, name: `day ${index}` }, metadata: { workspaceId, actor: 'system', correlationId: `day-${index}`, timestamp } })),
        'no_stream',
      );
      await eventually(async () => (await wholeFeed(`&stream=${stream}`)).length === 3);
      const between = (from: number, to: number) =>
        wholeFeed(`&stream=${stream}&from=${new Date(Date.now() - from * day).toISOString()}&to=${new Date(Date.now() - to * day).toISOString()}`);
      expect((await between(6, 2)).map((entry) => entry.summary.name)).toEqual(['day 1']);
      expect((await between(11, 4)).map((entry) => entry.summary.name)).toEqual(['day 0', 'day 1']);
      expect((await between(5.5, 0)).map((entry) => entry.summary.name)).toEqual(['day 1', 'day 2']);
      expect(await between(20, 12)).toEqual([]);
    });

    it('pages by log position: following the cursor while others write neither skips nor repeats an entry', async () => {
      const start = (await wholeFeed()).at(-1)!.position;
      let writing = true;
      const writes = (async () => {
        const ids: string[] = [];
        while (writing || ids.length < 20) ids.push(await saveNote(`Concurrent ${ids.length}`));
        return ids;
      })();
      const seen: Entry[] = [];
      let after = start;
      for (let pages = 0; pages < 40; pages++) {
        const page = await api('GET', `/audit?limit=3&after=${after}&type=ContentDraftSaved`, { key: auditor.key });
        seen.push(...page.body.items);
        after = page.body.next;
      }
      writing = false;
      const written = await writes;
      // Read to the end after the writes, then compare with one read of the whole range.
      for (;;) {
        const page = await api('GET', `/audit?limit=3&after=${after}&type=ContentDraftSaved`, { key: auditor.key });
        seen.push(...page.body.items);
        after = page.body.next;
        if (!page.body.hasMore) break;
      }
      const whole = await api('GET', `/audit?limit=1000&after=${start}&type=ContentDraftSaved`, { key: auditor.key });
      expect(seen.map((entry) => entry.eventId)).toEqual(whole.body.items.map((entry: Entry) => entry.eventId));
      expect(new Set(seen.map((entry) => entry.itemId))).toEqual(new Set(written));
    });

    it('streams the whole filtered feed as NDJSON, page after page', async () => {
      // More entries than one page of the export: appended straight to the log.
      const events = service.service.container.resolve(TOKENS.eventStore);
      const stream = `audit-test-${randomUUID()}`;
      const batch = Array.from({ length: 1200 }, (_, index) => ({
        type: 'AuditTestNoted',
        data: { workspaceId, name: `n${index}`, secret: 'never-shown' },
        metadata: { workspaceId, actor: 'system', correlationId: `bulk-${index}`, timestamp: new Date().toISOString() },
      }));
      await events.append(stream, batch, 'no_stream');
      await eventually(async () => (await wholeFeed(`&stream=${stream}`)).length === batch.length);

      const response = await fetch(`${service.url}/audit?stream=${stream}`, { headers: { 'x-api-key': auditor.key, accept: 'application/x-ndjson' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/x-ndjson');
      const text = await response.text();
      expect(text).not.toContain('never-shown');
      const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Entry);
      expect(lines.map((line) => line.summary.name)).toEqual(batch.map((event) => event.data.name));
      expect(lines.map((line) => line.revision)).toEqual(batch.map((_, index) => index));
      expect(lines[0]).toMatchObject({ actorKind: 'system', actorId: 'system', type: 'AuditTestNoted', requestId: 'bulk-0' });

      // From a cursor: the rest of the feed only.
      const rest = await fetch(`${service.url}/audit?stream=${stream}&after=${lines[1099]!.position}`, { headers: { 'x-api-key': auditor.key, accept: 'application/x-ndjson' } });
      expect((await rest.text()).trimEnd().split('\n').map((line) => (JSON.parse(line) as Entry).revision)).toEqual(Array.from({ length: 100 }, (_, index) => 1100 + index));
    });

    it('records decrypt and check attempts with their outcome, and shows no secret', async () => {
      const id = await saveNote('Secret holder');
      expect((await api('PUT', '/contents/Note/encrypt', { key: editor.key, body: { id, encryptFields: { pin: 'PIN-98765' } } })).status).toBe(200);
      expect((await api('POST', '/contents/Note/encrypt/check', { key: editor.key, body: { id, encryptFields: { pin: 'PIN-00000' } } })).body).toEqual({ match: false });
      const totp = await api('POST', `/admin/workspaces/${workspaceId}/totp`, { bearer: ALICE });
      const code = new TOTP({ secret: totp.body.secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
      const decrypted = await api('POST', '/contents/Note/encrypt/decrypt', { key: editor.key, headers: { 'x-request-id': 'decrypt-1' }, body: { id, encryptFieldKeys: ['pin'], totpCode: code } });
      expect(decrypted.body).toEqual({ fields: { pin: 'PIN-98765' } });
      expect((await api('PUT', `/admin/workspaces/${workspaceId}/scheduler-signing-secret`, { bearer: ALICE, body: { secret: 'signing-secret-0123456789' } })).status).toBe(200);

      const reads = await eventually(async () => {
        const entries = await wholeFeed(`&type=SecretAccessAttempted&itemId=${id}`);
        return entries.length === 2 && entries;
      });
      expect(reads.map(({ summary, actorName }) => ({ ...summary, actorName }))).toEqual([
        { itemId: id, contentType: 'Note', operation: 'check', fieldKeys: ['pin'], outcome: 'mismatched', actorName: 'editor' },
        { itemId: id, contentType: 'Note', operation: 'decrypt', fieldKeys: ['pin'], outcome: 'decrypted', actorName: 'editor' },
      ]);
      expect(reads[1]!.requestId).toBe('decrypt-1');

      const feed = JSON.stringify(await wholeFeed());
      for (const secret of ['PIN-98765', 'PIN-00000', totp.body.secret, 'signing-secret-0123456789', code, editor.key.split('_').slice(2).join('_')]) {
        expect(feed).not.toContain(secret);
      }
      expect(feed).not.toMatch(/[0-9a-f]{64}/);
    });

    it('records shared-access key creation and each download, attributed to the shared key, without the key', async () => {
      const asset = await uploadAsset(api, editor.key, Buffer.from('shared file'));
      const shared = await api('POST', `/assets/${asset}/shared-access-keys`, { key: editor.key, body: {} });
      const sharedKey = shared.body.sharedAccessKey as string;
      const url = `${service.url}/shared-access/${workspaceId}/asset/${asset}?sharedAccessKey=${encodeURIComponent(sharedKey)}`;
      expect(await (await fetch(url, { headers: { 'x-request-id': 'download-1' } })).text()).toBe('shared file');
      expect((await fetch(url, { headers: { range: 'bytes=0-5' } })).status).toBe(206);
      expect((await fetch(url.replace(/sharedAccessKey=.*/, 'sharedAccessKey=sak_x_y'))).status).toBe(403);

      const entries = await eventually(async () => {
        const found = await wholeFeed(`&itemId=${asset}&type=SharedAccessKeyIssued,SharedAssetDownloaded`);
        return found.length === 3 && found;
      });
      const keyId = entries[0]!.summary.keyId as string;
      expect(keyId.replace(/-/g, '')).toBe(sharedKey.split('_')[1]);
      expect(entries.map(({ type, actorKind, actorId, summary }) => ({ type, actorKind, actorId, summary }))).toEqual([
        { type: 'SharedAccessKeyIssued', actorKind: 'apiKey', actorId: editor.id, summary: { assetId: asset, keyId, expiresAt: null } },
        { type: 'SharedAssetDownloaded', actorKind: 'sharedAccessKey', actorId: keyId, summary: { assetId: asset, keyId, range: false } },
        { type: 'SharedAssetDownloaded', actorKind: 'sharedAccessKey', actorId: keyId, summary: { assetId: asset, keyId, range: true } },
      ]);
      expect(entries[1]!.requestId).toBe('download-1');
      expect(JSON.stringify(entries)).not.toContain(sharedKey.split('_').slice(2).join('_'));
    });

    it('records every read of webhook signing secrets (one webhook, the list), attributed to the reader, without the secret', async () => {
      const reader = await issue('hook reader', ['ReadAccess']);
      const secret = 'webhook-signing-secret-5150';
      const saved = await api('PUT', '/webhooks', { key: editor.key, body: { endpoint: 'https://hooks.example.org/in', secret, eventTypes: { Note: [0] } } });
      expect(saved.status).toBe(200);
      const webhookId = saved.body.id as string;
      const one = await api('GET', `/webhooks/${webhookId}`, { key: reader.key, headers: { 'x-request-id': 'hook-read-1' } });
      expect(one.body.secret).toBe(secret);
      const all = await api('GET', '/webhooks', { key: reader.key });
      expect(all.body.map((webhook: { id: string }) => webhook.id)).toEqual([webhookId]);
      expect((await api('GET', '/webhooks/no-such-hook', { key: reader.key })).status).toBe(404);

      const reads = await eventually(async () => {
        const entries = await wholeFeed('&type=WebhookSecretsRead');
        return entries.length === 2 && entries;
      });
      expect(reads.map(({ stream, actorKind, actorId, actorName, summary }) => ({ stream, actorKind, actorId, actorName, summary }))).toEqual([
        { stream: `webhooksecretaccess-${workspaceId}`, actorKind: 'apiKey', actorId: reader.id, actorName: 'hook reader', summary: { webhookIds: [webhookId] } },
        { stream: `webhooksecretaccess-${workspaceId}`, actorKind: 'apiKey', actorId: reader.id, actorName: 'hook reader', summary: { webhookIds: [webhookId] } },
      ]);
      expect(reads[0]!.requestId).toBe('hook-read-1');
      expect(JSON.stringify(await wholeFeed())).not.toContain(secret);
    });

    it('reads through the SDK: CmsClient.audit pages the feed, CmsAdminClient.workspaces.audit reads any workspace', async () => {
      const sdk = new CmsClient({ baseUrl: service.url, apiKey: auditor.key });
      const viaSdk: unknown[] = [];
      for await (const entry of sdk.audit.entries({ type: 'ApiKeyIssued', limit: 2 })) viaSdk.push(entry);
      expect(viaSdk).toEqual(await wholeFeed('&type=ApiKeyIssued'));
      const admin = new CmsAdminClient({ baseUrl: service.url, adminToken: BOB });
      expect((await admin.workspaces.audit(workspaceId, { type: 'WorkspaceCreated' })).items.map((entry) => entry.actorId)).toEqual(['alice']);
    });

    it('backfills the feed of a store that already held events: complete once the rebuild at start has finished', async () => {
      const before = await wholeFeed();
      // The store as the previous version left it: no audit_entries collection nor checkpoint.
      await onClosedStore(async (readStore) => {
        await readStore.dropCollection('audit_entries');
        await deleteCheckpointEverywhere(readStore, checkpointName(auditEntriesProjector));
      });
      const rebuild = await restartUntilRebuilt();
      expect(rebuild.projections).toEqual(['audit_entries']);
      const after = await wholeFeed();
      expect(after.slice(0, before.length)).toEqual(before);
    });

    it('rebuilds a feed of version 3 (a row per event) blue/green at the first start of this version: a row per append, and the entries, filters and cursors version 3 answered', async () => {
      // A mixed workload beside the tests' above: saves with publishes, an erasure, a release publish (one append over many streams), an import (one append of many events).
      const personType = { name: 'Person', key: 'Person', fields: [{ key: 'name', type: 'Text' }], personalData: true };
      expect((await api('PUT', '/content-types', { key: editor.key, body: personType })).status).toBe(200);
      const person = (await api('PUT', '/v2/contents/Person', { key: editor.key, body: { fields: { name: 'Erin' } } })).body.id as string;
      expect((await api('POST', `/v2/contents/Person/${person}/erase`, { key: editor.key, body: { reason: 'asked' } })).status).toBe(200);
      const released = [await saveNote('Release 1'), await saveNote('Release 2'), await saveNote('Release 3')];
      for (const id of released) expect((await api('PUT', '/v2/preview-contents/Note', { key: editor.key, body: { id, fields: { title: `${id} again` } } })).status).toBe(200);
      const release = (await api('POST', '/v2/releases', { key: editor.key, body: { name: 'upgrade' } })).body.id as string;
      expect((await api('POST', `/v2/releases/${release}/items`, { key: editor.key, body: { items: released.map((itemId) => ({ itemId, contentType: 'Note', action: 'publish' })) } })).status).toBe(200);
      expect((await api('POST', `/v2/releases/${release}/publish`, { key: editor.key })).status).toBe(200);
      const imported = `import-${randomUUID()}`;
      const importMetadata = { workspaceId, actor: 'system', correlationId: 'import-1', timestamp: new Date().toISOString() };
      await service.service.container.resolve(TOKENS.eventStore).append(
        imported,
        Array.from({ length: 7 }, (_, index) => ({ type: index % 2 === 0 ? 'AuditTestImported' : 'AuditTestTagged', data: { workspaceId, itemId: 'imported-item', name: `i${index}` }, metadata: importMetadata })),
        'no_stream',
      );
      const single = await saveNote('One row');
      await eventually(async () => (await wholeFeed(`&itemId=${single}&type=ContentPublished`)).length === 1);

      const filters: [string, Version3Filter, number][] = [
        ['', {}, 1000],
        ['&type=ContentPublished', { types: ['ContentPublished'] }, 2],
        ['&type=ContentDraftSaved,ContentErased,AuditTestTagged', { types: ['ContentDraftSaved', 'ContentErased', 'AuditTestTagged'] }, 3],
        [`&actorId=${editor.id}`, { actorId: editor.id }, 5],
        ['&actorKind=admin', { actorKind: 'admin' }, 1],
        [`&itemId=${person}`, { itemId: person }, 1],
        [`&stream=content-${workspaceId}-${released[0]}`, { stream: `content-${workspaceId}-${released[0]}` }, 1],
        [`&stream=${imported}&type=AuditTestTagged`, { stream: imported, types: ['AuditTestTagged'] }, 1],
      ];
      // Entries up to the end of the whole feed as first read: other work (a webhook's retries) may append more meanwhile.
      const end = positionFromString((await wholeFeed()).at(-1)!.position);
      const upTo = <T extends { position: string }>(entries: T[]) => entries.filter((entry) => comparePositions(positionFromString(entry.position), end) <= 0);
      const feeds = async () => (await Promise.all(filters.map(([query, , limit]) => wholeFeed(query, limit)))).map(upTo);
      const before = await feeds();
      const answeredByVersion3 = await onClosedStore(async (readStore, events) => {
        const documents = await leaveAsVersion3Did(readStore, events);
        return Promise.all(filters.map(([, filter]) => new ActorNames(readStore).fillIn(upTo(version3Feed(documents, workspaceId, filter)))));
      });
      // One row per append served what a row per event did, and so does its rebuild from the log.
      expect(before).toEqual(answeredByVersion3);
      expect(before[0]!.length).toBeGreaterThan(20);

      const rebuild = await restartUntilRebuilt();
      expect(rebuild.projections).toEqual(['audit_entries']);
      expect(await feeds()).toEqual(answeredByVersion3);

      await service.service.close();
      const sql = await openStoreSql(engine, service.environment);
      try {
        const columns = await sql.query<{ name: string }>("select column_name as name from information_schema.columns where table_name = 'rm_audit_entries' and column_name like 'c\\_%' order by 1");
        expect(columns.map((column) => column.name)).toEqual(['c_actorId', 'c_actorKind', 'c_at', 'c_itemId', 'c_secondType', 'c_seq', 'c_stream', 'c_type', 'c_workspaceId']);
        const rowsOf = (stream: string) => sql.query<{ doc: { entries: { type: string }[] } }>('select doc from rm_audit_entries where "c_stream" = $1', [stream]);
        const [saveAndPublish, ...none] = await rowsOf(`content-${workspaceId}-${single}`);
        expect(none).toEqual([]);
        expect(saveAndPublish!.doc.entries.map((entry) => entry.type)).toEqual(['ContentDraftSaved', 'ContentPublished']);
        expect((await rowsOf(imported)).map((row) => row.doc.entries.length)).toEqual([7]);
        const [{ rows, entries }] = (await sql.query<{ rows: number; entries: number }>(
          "select count(*)::int as rows, sum(jsonb_array_length((doc)::jsonb -> 'entries'))::int as entries from rm_audit_entries where \"c_workspaceId\" = $1",
          [workspaceId],
        )) as [{ rows: number; entries: number }];
        expect(entries).toBeGreaterThanOrEqual(before[0]!.length);
        expect(rows).toBeLessThan(entries);
      } finally {
        await sql.close();
      }
      service = await service.restart({ ADMIN_TOKENS: `alice=${ALICE}, bob=${BOB}` });
      api = client(service.url);
    });
  });
}
