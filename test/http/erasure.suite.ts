import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqlClient } from '../../infra/sql/client';
import { runCli } from '../../src/cli/operator';
import { captureCliOutput } from '../support/cli-output';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startService } from '../../src/server';
import { call } from '../support/http';
import { createTestDatabase } from '../support/postgres';
import { startHttpReceiver, type Receiver } from '../support/receivers';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import type { ContentTableDocument } from '../../projections/content-tables/schema';
import { openStoreSql } from '../support/store-sql';

const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const WEBHOOK_ENVIRONMENT = { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_UNIT_MS: '50', ENCRYPTION_KEY };

/** Values no other text of the store holds, so finding one anywhere is a leak. */
const NAME = `Zelda-${randomBytes(6).toString('hex')}`;
const FRENCH_NAME = `Zeldette-${randomBytes(6).toString('hex')}`;
const EMAIL = `z${randomBytes(6).toString('hex')}@example.org`;
const SERIAL = `SN-${randomBytes(6).toString('hex')}`;
const KEPT_NAME = `Kept-${randomBytes(6).toString('hex')}`;
const ERASED_VALUES = [NAME, FRENCH_NAME, EMAIL, SERIAL];

const patientType = {
  name: 'Patient',
  key: 'Patient',
  personalData: true,
  fields: [
    { key: 'name', type: 'Text', required: true, translatable: true },
    { key: 'email', type: 'Text' },
    { key: 'ssn', type: 'Encrypted' },
  ],
};
const noteType = { name: 'Note', key: 'Note', fields: [{ key: 'text', type: 'Text' }] };


/** Every row of the event table and of every read-model table whose stored JSON holds `value`, as `table: count`. */
async function rowsHolding(sql: SqlClient, value: string): Promise<string[]> {
  const found: string[] = [];
  const events = await sql.query<{ count: string }>('select count(*) as count from es_events where data::text like $1 or metadata::text like $1', [`%${value}%`]);
  if (Number(events[0]!.count) > 0) found.push(`es_events: ${events[0]!.count}`);
  // Every table holding documents, and the typed content tables, whose rows are typed columns only (their documents are content_items').
  const tables = await sql.query<{ table_name: string }>(
    "select distinct table_name from information_schema.columns where (column_name = 'doc' or table_name like 'rm\\_ct\\_%') and table_schema = current_schema() order by table_name",
  );
  for (const { table_name: table } of tables) {
    const rows = await sql.query<{ count: string }>(`select count(*) as count from "${table}" as row where row::text like $1`, [`%${value}%`]);
    if (Number(rows[0]!.count) > 0) found.push(`${table}: ${rows[0]!.count}`);
  }
  return found;
}

export function describeErasure(engine: Engine): void {
  describe(`erasure of personal-data items (${engine})`, () => {
    let receiver: Receiver;
    let service: TestService;
    let environment: Record<string, string>;
    let workDir: string;
    let patientId: string;
    let keptId: string;
    let retriedId: string;
    /** Assistant threads whose answer drew on the patient, and on a note only. */
    let patientThread: string;
    let noteThread: string;
    const api = (method: string, path: string, body?: unknown, key = service.writeKey) => call(service.url, method, path, { key, body });
    /** Asks the assistant in a new thread and waits for its answer; the thread's id. */
    const ask = async (prompt: string) => {
      const asked = await api('POST', '/ai-assistant/thread', { threadId: null, prompt }, service.readKey);
      expect(asked.status).toBe(200);
      const { threadId, runId } = asked.body as { threadId: string; runId: string };
      await eventually(async () => (await api('GET', `/ai-assistant/thread/${threadId}/run/${runId}/status`, undefined, service.readKey)).body.status === 'completed');
      return threadId;
    };
    const answerOf = (threadId: string, url = service.url) => call(url, 'GET', `/ai-assistant/thread/${threadId}/response`, { key: service.readKey });
    /** Until the builder has switched Patient to typed tables, its versions table among them (a pass runs every second). */
    const typedTablesServe = async () => {
      const { TOKENS } = await import('../../src/container');
      const readStore = service.service.container.resolve(TOKENS.readStore);
      await eventually(async () => (await readStore.get<ContentTableDocument>(CONTENT_TABLES, `${service.workspaceId}:Patient`))?.serving?.versions, 60_000);
    };

    beforeAll(async () => {
      receiver = await startHttpReceiver();
      service = await startTestService(engine, WEBHOOK_ENVIRONMENT);
      environment = { ...service.environment, ENCRYPTION_KEY };
      workDir = await mkdtemp(join(tmpdir(), 'cms-erase-'));
      for (const type of [patientType, noteType]) expect((await api('PUT', '/content-types', type)).status).toBe(200);
      expect((await api('PUT', '/locales', { code: 'en', name: 'English' })).status).toBe(200);
      expect((await api('PUT', '/locales', { code: 'fr', fallbackCode: 'en' })).status).toBe(200);
      expect((await api('PUT', '/webhooks', { endpoint: `${receiver.url}/hook`, eventTypes: { Patient: [0, 2] } })).status).toBe(200);
    }, 60_000);

    afterAll(async () => {
      await service?.close();
      await receiver?.close();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    });

    it('marks a content type as holding personal data (validated, shown)', async () => {
      expect((await api('GET', '/content-types/Patient', undefined, service.readKey)).body).toMatchObject({ key: 'Patient', personalData: true });
      expect((await api('GET', '/content-types/Note', undefined, service.readKey)).body).toMatchObject({ key: 'Note', personalData: false });
      const bad = await api('PUT', '/content-types', { ...noteType, key: 'Bad', personalData: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'personalData' })]);
    });

    it('serves a personal-data item as usual, sends it to webhooks, and keeps only ciphertext in the log', async () => {
      const saved = await api('PUT', '/v2/contents/Patient', { fields: { name: NAME, email: EMAIL }, translations: { name: { fr: FRENCH_NAME } } });
      expect(saved.status).toBe(200);
      patientId = saved.body.id;
      expect((await api('PUT', '/contents/Patient/encrypt', { id: patientId, encryptFields: { ssn: SERIAL } })).status).toBe(200);
      keptId = (await api('PUT', '/v2/contents/Patient', { fields: { name: KEPT_NAME } })).body.id;

      const read = await api('GET', `/v2/contents/Patient/${patientId}`, undefined, service.readKey);
      expect(read.body).toMatchObject({ id: patientId, fields: { name: NAME, email: EMAIL }, translations: { name: { fr: FRENCH_NAME } } });
      // Version 1 is the draft save, version 2 its publication: the published path serves version 2.
      const version = await api('GET', `/contents/Patient/${patientId}/versions/2`, undefined, service.readKey);
      expect(version.status).toBe(200);
      expect(version.body).toMatchObject({ stage: 'published', item: { fields: expect.arrayContaining([{ key: 'name', type: 'Text', value: NAME }]) } });
      // A restore carries the values too: sealed like a save, so the erasure below leaves them nowhere.
      expect((await api('POST', `/v2/preview-contents/Patient/${patientId}/versions/1/restore`, { reason: 'test' })).status).toBe(200);
      // The receiver gets the values while the item exists.
      const delivered = await eventually(() => receiver.requests.find((request) => (JSON.parse(request.body) as { contentId?: string }).contentId === patientId));
      expect(JSON.parse(delivered.body)).toMatchObject({ eventType: 'Published', contentId: patientId, fields: { name: NAME, email: EMAIL } });

      const raw = await service.service.container.resolve((await import('../../src/container')).TOKENS.eventStore).readStream(`content-${service.workspaceId}-${patientId}`);
      expect(raw.map((event) => event.type)).toEqual(['ContentDraftSaved', 'ContentPublished', 'ContentEncryptedFieldsSet', 'ContentRestored']);
      for (const event of raw) {
        expect(event.data).toMatchObject({ sealed: expect.stringMatching(/^v1\./) });
        for (const value of ERASED_VALUES) expect(JSON.stringify(event.data)).not.toContain(value);
      }
    });

    it("answers the assistant's questions from the item; the answer is kept sealed under the item's key, in the log and the thread's read model", async () => {
      patientThread = await ask('Who is Zelda?');
      const answer = await answerOf(patientThread);
      expect(answer.body.response).toContain(NAME);
      expect(answer.body.response).toContain(patientId);
      const { TOKENS } = await import('../../src/container');
      const [completed] = (await service.service.container.resolve(TOKENS.eventStore).readStream(`ai-thread-${service.workspaceId}-${patientThread}`)).filter(
        (event) => event.type === 'AiRunCompleted',
      );
      expect(completed!.data).toMatchObject({ response: '', sealed: { items: [{ itemId: patientId }] } });
      expect(JSON.stringify(completed!.data)).not.toContain(NAME);
      // An answer drawn from items of other types only stays in clear.
      expect((await api('PUT', '/v2/contents/Note', { fields: { text: 'lantern maintenance schedule' } })).status).toBe(200);
      noteThread = await ask('lantern maintenance');
      expect((await answerOf(noteThread)).body.response).toContain('lantern maintenance schedule');
    });

    it('opens a sealed delivery copy for a retry; the delivery log shows no values of personal-data items', async () => {
      receiver.respondWith(500);
      const retried = await api('PUT', '/v2/contents/Patient', { fields: { name: 'Retried-name' } });
      // Picked by content id: a delivery of an earlier save (the kept item's) may still arrive meanwhile.
      const [failed, sent] = await eventually(() => {
        const forItem = receiver.requests.filter((request) => (JSON.parse(request.body) as { contentId?: string }).contentId === retried.body.id);
        return forItem.length >= 2 ? forItem : undefined;
      });
      expect(JSON.parse(failed!.body).fields).toEqual({ name: 'Retried-name' });
      expect(JSON.parse(sent!.body)).toMatchObject({ contentId: retried.body.id, fields: { name: 'Retried-name' } });
      const webhookId = (await api('GET', '/webhooks', undefined, service.readKey)).body[0].id;
      retriedId = retried.body.id;
      const log = await eventually(async () => {
        const answer = await api('GET', `/webhooks/${webhookId}/events`, undefined, service.readKey);
        const entry = answer.body.items.find((item: { contentId: string }) => item.contentId === retriedId);
        return entry?.isResponseSuccessStatusCode ? answer.body : undefined;
      });
      expect(log.items.find((item: { contentId: string }) => item.contentId === retriedId)).toMatchObject({ fields: {}, translations: {}, customPayload: null });
      expect(JSON.stringify(log)).not.toContain('Retried-name');
    });

    it('refuses erasure without a reason (400) and of a type not marked personal data (409)', async () => {
      const noReason = await api('POST', `/v2/contents/Patient/${patientId}/erase`, {});
      expect(noReason.status).toBe(400);
      expect(noReason.body.errors).toEqual([expect.objectContaining({ field: 'reason' })]);
      const note = await api('PUT', '/v2/contents/Note', { fields: { text: 'plain' } });
      const refused = await api('POST', `/v2/contents/Note/${note.body.id}/erase`, { reason: 'test' });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain('not a personal-data content type');
      expect((await api('POST', `/v2/contents/Patient/00000000-0000-0000-0000-000000000000/erase`, { reason: 'test' })).status).toBe(404);
      expect((await api('POST', `/contents/Patient/${patientId}/erase`, { reason: 'test' }, service.readKey)).status).toBe(403);
    });

    it('decides on a long sealed history from the few events it opens: translations kept through saves that lost a race', async () => {
      // A type of its own, which the webhook of this suite does not hear.
      expect((await api('PUT', '/content-types', { ...patientType, name: 'Client', key: 'Client' })).status).toBe(200);
      const created = await api('PUT', '/v2/contents/Client', { fields: { name: 'v0' }, translations: { name: { fr: 'gardé' } } });
      const id = created.body.id as string;
      // More versions than the command side reads whole (16 events), so a fresh read folds on the headers.
      for (let version = 1; version <= 12; version++) expect((await api('PUT', '/v2/contents/Client', { id, fields: { name: `v${version}` } })).status).toBe(200);
      // Concurrent saves from one state: the ones that lose the race read the item again, and keep its translations from that read.
      const racing = await Promise.all(['a', 'b', 'c'].map((name) => api('PUT', '/v2/contents/Client', { id, fields: { name } })));
      expect(racing.map((answer) => answer.status)).toEqual([200, 200, 200]);
      for (const answer of racing) expect(answer.body.translations).toEqual({ name: { fr: 'gardé' } });
      const read = await api('GET', `/v2/contents/Client/${id}`, undefined, service.readKey);
      expect(read.body.translations).toEqual({ name: { fr: 'gardé' } });
      const raw = await service.service.container.resolve((await import('../../src/container')).TOKENS.eventStore).readStream(`content-${service.workspaceId}-${id}`);
      expect(raw).toHaveLength(32);
      for (const event of raw) expect(JSON.stringify(event.data)).not.toContain('gardé');
      expect((await api('POST', `/v2/contents/Client/${id}/erase`, { reason: 'test done' })).status).toBe(200);
    });

    it('still erases an item sealed while its type held personal data, after the flag is turned off', async () => {
      const lead = { name: 'Lead', key: 'Lead', fields: [{ key: 'name', type: 'Text' }] };
      expect((await api('PUT', '/content-types', { ...lead, personalData: true })).status).toBe(200);
      const sealedLead = (await api('PUT', '/v2/contents/Lead', { fields: { name: 'sealed lead' } })).body.id;
      expect((await api('PUT', '/content-types', { ...lead, personalData: false })).status).toBe(200);
      const clearLead = (await api('PUT', '/v2/contents/Lead', { fields: { name: 'clear lead' } })).body.id;
      expect((await api('POST', `/v2/contents/Lead/${clearLead}/erase`, { reason: 'test' })).status).toBe(409);
      expect((await api('POST', `/v2/contents/Lead/${sealedLead}/erase`, { reason: 'test' })).status).toBe(200);
      expect((await api('GET', `/v2/contents/Lead/${sealedLead}`, undefined, service.readKey)).status).toBe(410);
    });

    it('erases the item: reads answer 410, the history keeps who did what when, lists leave it out, webhooks hear Deleted', async () => {
      const publishedThen = new Date().toISOString();
      const listedAt = async (time: string) => {
        const answer = await api('POST', `/v2/contents/Patient?asOf=${encodeURIComponent(time)}`, { pageSize: 100 }, service.readKey);
        expect(answer.status).toBe(200);
        return answer.body as { items: { id: string; fields: { name?: string } }[]; total: number };
      };
      // The erasure reaches the typed tables through their live mirror.
      await typedTablesServe();
      const before = await listedAt(publishedThen);
      expect(before.items.find((item) => item.id === patientId)?.fields.name).toBe(NAME);
      expect(before.total).toBe(before.items.length);

      const erased = await api('POST', `/contents/Patient/${patientId}/erase`, { reason: 'erasure request 2026-118', clientInfo: 'dpo' });
      expect(erased.status).toBe(200);
      expect(erased.body).toEqual({ success: true });

      for (const path of [`/v2/contents/Patient/${patientId}`, `/contents/Patient/${patientId}`, `/v2/preview-contents/Patient/${patientId}`, `/v2/contents/Patient/${patientId}/versions/1`]) {
        const answer = await api('GET', path, undefined, service.readKey);
        expect({ path, status: answer.status }).toEqual({ path, status: 410 });
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(answer.body).toMatchObject({ status: 410, title: 'Gone', detail: expect.stringContaining('erased') });
      }
      const check = await api('POST', '/contents/Patient/encrypt/check', { id: patientId, encryptFields: { ssn: SERIAL } }, service.readKey);
      expect(check.status).toBe(410);
      // Every write verb on the erased item, as docs/api.md lists them.
      const writes: [string, string, unknown][] = [
        ['PUT', '/v2/contents/Patient', { id: patientId, fields: { name: 'again' } }],
        ['PUT', '/v2/preview-contents/Patient', { id: patientId, fields: { name: 'again' } }],
        ['PATCH', `/v2/contents/Patient/${patientId}`, { fields: { name: 'again' } }],
        ['PATCH', `/v2/preview-contents/Patient/${patientId}`, { fields: { name: 'again' } }],
        ['PUT', `/v2/preview-contents/Patient/${patientId}/publish`, undefined],
        ['PUT', `/v2/contents/Patient/${patientId}/unpublish`, undefined],
        ['DELETE', `/v2/preview-contents/Patient/${patientId}`, undefined],
        ['DELETE', `/v2/contents/Patient/${patientId}`, undefined],
        ['PUT', '/contents/Patient/encrypt', { id: patientId, encryptFields: { ssn: 'again' } }],
        ['POST', `/v2/contents/Patient/${patientId}/versions/1/restore`, {}],
      ];
      for (const [method, path, body] of writes) {
        const sent = method === 'PATCH' ? { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/merge-patch+json' } } : { body };
        const answer = await call(service.url, method, path, { key: service.writeKey, ...sent });
        expect({ method, path, status: answer.status }).toEqual({ method, path, status: 410 });
        expect(answer.body).toMatchObject({ status: 410, detail: expect.stringContaining('erased') });
      }

      const history = await api('GET', `/contents/Patient/${patientId}/history`, undefined, service.readKey);
      expect(history.status).toBe(200);
      expect(history.body.map((entry: { type: string }) => entry.type)).toEqual(['ContentDraftSaved', 'ContentPublished', 'ContentEncryptedFieldsSet', 'ContentRestored', 'ContentErased']);
      expect(history.body[4]).toMatchObject({ version: 5, actor: expect.stringMatching(/^key:/), clientInfo: 'dpo' });
      expect(JSON.stringify(history.body)).not.toContain(NAME);

      const list = await api('POST', '/v2/contents/Patient', {}, service.readKey);
      expect(list.body.items.map((item: { id: string }) => item.id).sort()).toEqual([keptId, retriedId].sort());
      // Its past is gone too: the as-of list of a time it was published leaves it out.
      const pastList = await listedAt(publishedThen);
      expect(pastList.items.map((item) => item.id)).toContain(keptId);
      expect(pastList.items.map((item) => item.id)).not.toContain(patientId);
      // The total of that time (item_counts, not a count of rows) leaves it out too.
      expect(pastList.total).toBe(before.total - 1);

      const deleted = await eventually(() => receiver.requests.map((request) => JSON.parse(request.body)).find((body) => body.eventType === 'Deleted'));
      expect(deleted).toMatchObject({ contentId: patientId, fields: {}, translations: {} });

      // The assistant's answer that drew on the item can no longer be read; one about other items can.
      const answer = await answerOf(patientThread);
      expect(answer.status).toBe(410);
      expect(answer.body.detail).toContain('erased');
      expect((await answerOf(noteThread)).status).toBe(200);

      // Erasing again only shreds again.
      expect((await api('POST', `/v2/contents/Patient/${patientId}/erase`, { reason: 'retry' })).status).toBe(200);
      expect((await api('GET', `/v2/contents/Patient/${keptId}`, undefined, service.readKey)).body.fields).toEqual({ name: KEPT_NAME });
    });

    it('erases through the admin CLI (cms erase), which needs a reason', async () => {
      const other = await api('PUT', '/v2/contents/Patient', { fields: { name: 'Operator-erased' } });
      const argv = ['erase', service.workspaceId, 'Patient', other.body.id, '--url', service.url];
      await expect(runCli(argv, environment, captureCliOutput().output)).rejects.toThrow('erase needs --reason');
      const run = captureCliOutput();
      await runCli([...argv, '--reason', 'ticket 7'], environment, run.output);
      expect(run.lines).toEqual([expect.stringContaining(`erased content item ${other.body.id} (Patient)`)]);
      expect((await api('GET', `/v2/contents/Patient/${other.body.id}`, undefined, service.readKey)).status).toBe(410);
      const history = await api('GET', `/contents/Patient/${other.body.id}/history`, undefined, service.readKey);
      expect(history.body.at(-1)).toMatchObject({ type: 'ContentErased', actor: 'admin' });
      await expect(runCli(['erase', service.workspaceId, 'Note', other.body.id, '--reason', 'x', '--url', service.url], environment, captureCliOutput().output)).rejects.toThrow('409 Note is not a personal-data content type');
    });

    it('shreds a workspace data key with care: clear 410s, no silent new key, an explicit new one, events for both', async () => {
      const admin = { bearer: ADMIN_TOKEN };
      const created = await call(service.url, 'POST', '/admin/workspaces', { ...admin, body: { name: 'Closing' } });
      const workspaceId = created.body.id as string;
      const key = (await call(service.url, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { ...admin, body: { policies: ['ReadAccess', 'WriteAccess'] } })).body.key;
      const closing = (method: string, path: string, body?: unknown) => call(service.url, method, path, { key, body });
      expect((await closing('PUT', '/content-types', { name: 'Card', key: 'Card', fields: [{ key: 'pin', type: 'Encrypted' }] })).status).toBe(200);
      const card = (await closing('PUT', '/v2/contents/Card', { fields: {} })).body.id;
      expect((await closing('PUT', '/contents/Card/encrypt', { id: card, encryptFields: { pin: '1234' } })).status).toBe(200);
      const totp = (await call(service.url, 'POST', `/admin/workspaces/${workspaceId}/totp`, admin)).body.secret;
      expect(typeof totp).toBe('string');
      const hook = await closing('PUT', '/webhooks', { endpoint: `${receiver.url}/closing`, eventTypes: { Card: [0] } });
      expect(hook.status).toBe(200);

      expect((await call(service.url, 'POST', `/admin/workspaces/${workspaceId}/data-key/shred`, { ...admin, body: {} })).status).toBe(400);
      expect((await call(service.url, 'POST', `/admin/workspaces/${workspaceId}/data-key/shred`, { ...admin, body: { reason: 'contract ended' } })).status).toBe(200);

      // A delivery whose signing secret the shred made unreadable ends at once, in error, saying why: no retries, nothing sent.
      const sentBefore = receiver.requests.length;
      const shreddedCard = (await closing('PUT', '/v2/contents/Card', { fields: {} })).body.id;
      const ended = await eventually(async () => {
        const log = await closing('GET', `/webhooks/${hook.body.id}/events`);
        expect(log.status).toBe(200);
        return log.body.items.find((item: { contentId: string; processStatus: number }) => item.contentId === shreddedCard && item.processStatus === -1);
      });
      expect(ended).toMatchObject({ responseStatusCode: 0, isResponseSuccessStatusCode: false, responseMessage: expect.stringMatching(/^not sent: the data key of workspace .* was shredded/) });
      const delivery = await service.service.container
        .resolve((await import('../../src/container')).TOKENS.eventStore)
        .readStream(`webhookdelivery-${workspaceId}-${ended.id}`);
      expect(delivery.filter((event) => event.type === 'WebhookDeliveryAttempted').map((event) => event.data)).toEqual([
        expect.objectContaining({ attempt: 1, success: false, nextAttemptAt: null }),
      ]);
      expect(receiver.requests.slice(sentBefore).filter((request) => request.path === '/closing')).toEqual([]);
      expect((await closing('GET', `/webhooks/${hook.body.id}`)).status).toBe(410);

      const check = await closing('POST', '/contents/Card/encrypt/check', { id: card, encryptFields: { pin: '1234' } });
      expect(check.status).toBe(410);
      expect(check.body.detail).toContain('was shredded');
      const decrypt = await closing('POST', '/contents/Card/encrypt/decrypt', { id: card, encryptFieldKeys: ['pin'], totpCode: '000000' });
      expect(decrypt.status).toBe(410);
      expect(decrypt.body.detail).toContain('TOTP secret');
      // No silent new key: writes that encrypt refuse, the TOTP secret too, until an operator makes one.
      expect((await closing('PUT', '/contents/Card/encrypt', { id: card, encryptFields: { pin: '9999' } })).status).toBe(410);
      const newTotp = await call(service.url, 'POST', `/admin/workspaces/${workspaceId}/totp`, admin);
      expect(newTotp.status).toBe(410);
      expect(newTotp.body.detail).toContain(`POST /admin/workspaces/${workspaceId}/data-key`);

      const run = captureCliOutput();
      await runCli(['workspaces', 'new-key', workspaceId, '--reason', 'reopened', '--url', service.url], environment, run.output);
      expect(run.lines).toEqual([`created a new data key for workspace ${workspaceId}`]);
      expect((await call(service.url, 'POST', `/admin/workspaces/${workspaceId}/data-key`, { ...admin, body: { reason: 'again' } })).status).toBe(409);
      expect((await call(service.url, 'POST', `/admin/workspaces/${workspaceId}/totp`, admin)).status).toBe(201);
      // The old value stays unreadable under the new key; a new one is written and read.
      expect((await closing('POST', '/contents/Card/encrypt/check', { id: card, encryptFields: { pin: '1234' } })).status).toBe(410);
      expect((await closing('PUT', '/contents/Card/encrypt', { id: card, encryptFields: { pin: '9999' } })).status).toBe(200);
      expect((await closing('POST', '/contents/Card/encrypt/check', { id: card, encryptFields: { pin: '9999' } })).body).toEqual({ match: true });

      const { TOKENS } = await import('../../src/container');
      const events = await service.service.container.resolve(TOKENS.eventStore).readStream(`workspacekey-${workspaceId}`);
      expect(events.map((event) => [event.type, event.data, event.metadata.actor, event.metadata.workspaceId])).toEqual([
        ['WorkspaceDataKeyShredded', { workspaceId, reason: 'contract ended' }, 'admin', workspaceId],
        ['WorkspaceDataKeyCreated', { workspaceId, reason: 'reopened' }, 'admin', workspaceId],
      ]);
    });

    it('leaves the values nowhere: not in the event table, not in any read model (also after a rebuild), not in a new export', async () => {
      const expectNowhere = async () => {
        // After the rebuild, also the typed tables are built again by replay.
        await typedTablesServe();
        await service.service.close();
        const sql = await openStoreSql(engine, environment);
        try {
          for (const value of ERASED_VALUES) expect({ value, rows: await rowsHolding(sql, value) }).toEqual({ value, rows: [] });
          // The as-of read models (the typed versions tables, rm_pv_*, and the item states and counts) keep no trace of the item
          // either: not even its id (the counts keep anonymous intervals).
          expect((await rowsHolding(sql, patientId)).filter((row) => /published_|^rm_pv_/.test(row))).toEqual([]);
          // The grep finds what is there: the item that was not erased.
          expect(await rowsHolding(sql, KEPT_NAME)).toEqual(
            expect.arrayContaining([expect.stringMatching(/content_items/), expect.stringMatching(/^rm_ct_/), expect.stringMatching(/^rm_pv_/)]),
          );
        } finally {
          await sql.close();
        }
        service = await service.restart();
      };
      await expectNowhere();

      const started = await call(service.url, 'POST', '/admin/projections/rebuild', { bearer: ADMIN_TOKEN, body: {} });
      expect(started.status).toBe(202);
      const rebuilt = await eventually(async () => {
        const status = (await call(service.url, 'GET', '/admin/projections/rebuild', { bearer: ADMIN_TOKEN })).body;
        return status.state === 'running' ? undefined : status;
      }, 120_000);
      expect(rebuilt).toMatchObject({ state: 'succeeded', error: null });
      expect((await api('GET', `/v2/contents/Patient/${keptId}`, undefined, service.readKey)).body.fields).toEqual({ name: KEPT_NAME });
      expect((await api('GET', `/v2/contents/Patient/${patientId}`, undefined, service.readKey)).status).toBe(410);
      expect((await answerOf(patientThread)).status).toBe(410);
      expect((await answerOf(noteThread)).status).toBe(200);
      await expectNowhere();

      await service.service.close();
      const exportFile = join(workDir, 'after-erase.ndjson');
      const keyFile = join(workDir, 'after-erase.keys.json');
      await runCli(['export', service.workspaceId, '--out', exportFile, '--keys-out', keyFile], environment, captureCliOutput().output);
      const exported = await readFile(exportFile, 'utf8');
      expect(exported).toContain('ContentErased');
      expect(exported).toContain(patientId);
      for (const value of ERASED_VALUES) expect(exported).not.toContain(value);
      const keys = JSON.parse(await readFile(keyFile, 'utf8'));
      expect(keys.itemKeys.map((key: { itemId: string }) => key.itemId).sort()).toEqual([keptId, retriedId].sort());
      for (const value of ERASED_VALUES) expect(JSON.stringify(keys)).not.toContain(value);

      // The export round-trips with its key file: the kept item reads, the erased one stays gone.
      const target: Record<string, string> = { ...environment, DATA_DIR: join(workDir, 'imported') };
      const targetDatabase = engine === 'postgres' ? await createTestDatabase() : null;
      if (targetDatabase) target.DATABASE_URL = targetDatabase.url;
      try {
        await runCli(['import', exportFile, '--keys', keyFile], target, captureCliOutput().output);
        const imported = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ...WEBHOOK_ENVIRONMENT, ...target }), pino({ level: 'silent' }));
        try {
          const read = (id: string) => call(imported.url, 'GET', `/v2/contents/Patient/${id}`, { key: service.readKey });
          expect((await read(keptId)).body.fields).toEqual({ name: KEPT_NAME });
          expect((await read(patientId)).status).toBe(410);
          expect((await answerOf(patientThread, imported.url)).status).toBe(410);
          expect((await answerOf(noteThread, imported.url)).body.response).toContain('lantern maintenance schedule');
        } finally {
          await imported.close();
        }
      } finally {
        await targetDatabase?.drop();
      }
      service = await service.restart();
    }, 300_000);
  });
}
