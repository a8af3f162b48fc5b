import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOTP } from 'otpauth';
import pino from 'pino';
import { readModelProjectors } from '../../projections/read-models';
import { comparePositions } from '../../infra/eventstore/port';
import { runCli } from '../../src/cli/operator';
import { withStores } from '../../src/cli/stores';
import { captureCliOutput } from '../support/cli-output';
import { loadConfig } from '../../src/config';
import { buildContainer, TOKENS } from '../../src/container';
import { startService } from '../../src/server';
import { call } from '../support/http';
import { createTestDatabase } from '../support/postgres';
import { startHttpReceiver, type Receiver } from '../support/receivers';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { delay, eventually } from '../support/waiting';
import { openStoreSql } from '../support/store-sql';
import { deleteCheckpointEverywhere } from '../../projections/group-checkpoint';
import { checkpointName } from '../../projections/projector';
import { contentItemsProjector } from '../../projections/read-models/content-items';

const ENCRYPTION_KEY = randomBytes(32).toString('base64');
/** Webhooks of the test reach the local receiver over plain HTTP. */
const WEBHOOK_ENVIRONMENT = { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOW_HTTP: 'true' };
const SERIAL = 'SN-4242';
const WEBHOOK_SECRET = 'hook-secret-0123';

const productType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text', required: true, translatable: true },
    { key: 'price', type: 'Number' },
    { key: 'serial', type: 'Encrypted' },
  ],
};

/** Runs a CLI command; a failure carries what the command printed, so a refused verify names its problems. */
async function cli(argv: string[], environment: Record<string, string>) {
  const run = captureCliOutput();
  try {
    await runCli(argv, environment, run.output);
  } catch (error) {
    if (error instanceof Error) error.message = `${error.message}\n${run.lines.join('\n')}`;
    throw error;
  }
  return run;
}

/** A store nothing has been written to, and the variables that point a process at it. */
async function emptyStore(engine: Engine, encryptionKey = ENCRYPTION_KEY) {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-import-'));
  const database = engine === 'postgres' ? await createTestDatabase() : null;
  return {
    environment: { ADMIN_TOKEN, ENCRYPTION_KEY: encryptionKey, DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) },
    cleanUp: async () => {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every path under `dir` (names only), or null when it does not exist: what a refused import must leave as it found. */
async function listing(dir: string): Promise<string[] | null> {
  try {
    return (await readdir(dir, { recursive: true })).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function startOn(environment: Record<string, string>) {
  return startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ...WEBHOOK_ENVIRONMENT, ...environment }), pino({ level: 'silent' }));
}

interface Seeded {
  readonly webhookId: string;
  readonly publishedIds: string[];
  readonly draftId: string;
  readonly encryptedId: string;
  readonly totpSecret: string;
  readonly otherWorkspaceId: string;
}

async function seed(source: TestService, receiver: Receiver): Promise<Seeded> {
  const api = async (method: string, path: string, body?: unknown, key = source.writeKey) => {
    const answer = await call(source.url, method, path, { key, body });
    expect(answer.status).toBeLessThan(300);
    return answer.body;
  };
  await api('PUT', '/content-types', productType);
  await api('PUT', '/locales', { code: 'en', name: 'English' });
  await api('PUT', '/locales', { code: 'fr', fallbackCode: 'en' });
  const webhook = await api('PUT', '/webhooks', { endpoint: `${receiver.url}/hook`, secret: WEBHOOK_SECRET, eventTypes: { Product: [0] } });

  const lamp = await api('PUT', '/v2/contents/Product', { fields: { title: 'Lamp', price: 9 }, translations: { title: { fr: 'Lampe' } }, clientInfo: 'seed' });
  await api('PUT', '/v2/contents/Product', { id: lamp.id, fields: { title: 'Lamp', price: 12 } });
  const desk = await api('PUT', '/v2/contents/Product', { fields: { title: 'Desk', price: 100 } });
  await api('PUT', '/contents/Product/encrypt', { id: desk.id, encryptFields: { serial: SERIAL } });
  const draft = await api('PUT', '/v2/preview-contents/Product', { fields: { title: 'Chair v1' }, clientInfo: 'first' });
  await api('PUT', '/v2/preview-contents/Product', { id: draft.id, fields: { title: 'Chair v2' } });
  await api('PUT', '/v2/preview-contents/Product', { id: draft.id, fields: { title: 'Chair v3' } });
  const totp = await call(source.url, 'POST', `/admin/workspaces/${source.workspaceId}/totp`, { bearer: ADMIN_TOKEN });

  const other = await call(source.url, 'POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Other' } });
  const otherKey = await call(source.url, 'POST', `/admin/workspaces/${other.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { policies: ['WriteAccess'] } });
  await api('PUT', '/content-types', { name: 'Elsewhere', key: 'Elsewhere', fields: [] }, otherKey.body.key);

  // Lamp published twice, Desk once: three deliveries, all done before the export.
  await eventually(async () => {
    const log = await api('GET', `/webhooks/${webhook.id}/events`, undefined, source.readKey);
    return log.total === 3 && log.items.every((entry: { processStatus: number }) => entry.processStatus === 2);
  });
  return { webhookId: webhook.id, publishedIds: [lamp.id, desk.id], draftId: draft.id, encryptedId: desk.id, totpSecret: totp.body.secret, otherWorkspaceId: other.body.id };
}

/** The API's answers about the seeded workspace, keyed by request. */
async function snapshot(url: string, readKey: string, seeded: Seeded) {
  const ids = [...seeded.publishedIds, seeded.draftId];
  const requests: [string, string, unknown?][] = [
    ['GET', '/content-types'],
    ['GET', '/content-types/Product'],
    ['GET', '/locales'],
    ['POST', '/v2/contents/Product', { order: { fieldKey: 'title' } }],
    ['POST', '/v2/preview-contents/Product', { order: { fieldKey: 'title' } }],
    ['POST', '/contents/Product/encrypt/check', { id: seeded.encryptedId, encryptFields: { serial: SERIAL } }],
    ['GET', '/webhooks'],
    ['GET', `/webhooks/${seeded.webhookId}`],
    ['GET', `/webhooks/${seeded.webhookId}/events`],
    ...seeded.publishedIds.flatMap((id): [string, string][] => [
      ['GET', `/v2/contents/Product/${id}`],
      ['GET', `/contents/Product/${id}`],
    ]),
    ...ids.flatMap((id): [string, string][] => [
      ['GET', `/v2/preview-contents/Product/${id}`],
      ['GET', `/contents/Product/${id}/history`],
      ['GET', `/v2/contents/Product/${id}/versions/1`],
      ['GET', `/v2/preview-contents/Product/${id}/versions/1`],
    ]),
  ];
  const answers: Record<string, { status: number; body: unknown }> = {};
  for (const [method, path, body] of requests) {
    const answer = await call(url, method, path, { key: readKey, body });
    answers[`${method} ${path}`] = { status: answer.status, body: answer.body };
  }
  return answers;
}

async function decryptSerial(url: string, readKey: string, seeded: Seeded) {
  const totpCode = new TOTP({ secret: seeded.totpSecret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  return call(url, 'POST', '/contents/Product/encrypt/decrypt', { key: readKey, body: { id: seeded.encryptedId, encryptFieldKeys: ['serial'], totpCode } });
}

export function describeExportImportVerify(engine: Engine): void {
  describe(`export, import and verify (${engine})`, () => {
    let receiver: Receiver;
    let source: TestService;
    let sourceEnvironment: Record<string, string>;
    let seeded: Seeded;
    let before: Awaited<ReturnType<typeof snapshot>>;
    let workDir: string;
    let exportFile: string;
    let keyFile: string;
    let exportRun: ReturnType<typeof captureCliOutput>;

    beforeAll(async () => {
      receiver = await startHttpReceiver();
      source = await startTestService(engine, { ENCRYPTION_KEY, ...WEBHOOK_ENVIRONMENT });
      sourceEnvironment = { ...source.environment, ENCRYPTION_KEY };
      seeded = await seed(source, receiver);
      before = await snapshot(source.url, source.readKey, seeded);
      // The snapshot's secret check appends an event without waiting for the read models: let them take it before stopping.
      await eventually(async () => {
        const status = await call(source.url, 'GET', '/admin/projections', { bearer: ADMIN_TOKEN });
        return (status.body.projections as { atHead: boolean }[]).every((projection) => projection.atHead);
      });
      await source.service.close();
      workDir = await mkdtemp(join(tmpdir(), 'cms-export-'));
      exportFile = join(workDir, 'workspace.ndjson');
      keyFile = join(workDir, 'workspace.keys.json');
      exportRun = await cli(['export', source.workspaceId, '--out', exportFile, '--keys-out', keyFile], sourceEnvironment);
    }, 60_000);

    afterAll(async () => {
      await source?.close();
      await receiver?.close();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    });

    const exportLines = async () => (await readFile(exportFile, 'utf8')).trimEnd().split('\n');

    it('exports the workspace as NDJSON (a header, its events in order, a summary) and its wrapped keys to a file apart', async () => {
      const lines = (await exportLines()).map((line) => JSON.parse(line));
      const [header, ...rest] = lines;
      const summary = rest.pop();
      expect(header).toEqual({
        kind: 'header',
        format: 'cms-workspace-export',
        version: 2,
        workspaceId: source.workspaceId,
        exportedAt: expect.any(String),
      });
      expect(JSON.parse(await readFile(keyFile, 'utf8'))).toEqual({
        format: 'cms-workspace-keys',
        version: 1,
        workspaceId: source.workspaceId,
        exportedAt: expect.any(String),
        wrappedDataKey: expect.stringMatching(/^v1\./),
        itemKeys: [],
      });
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      expect(summary).toEqual({ kind: 'summary', events: rest.length });
      expect(rest.length).toBeGreaterThan(10);
      for (const event of rest) {
        expect(event).toEqual({
          kind: 'event',
          stream: expect.any(String),
          revision: expect.any(Number),
          id: expect.any(String),
          type: expect.any(String),
          data: expect.anything(),
          metadata: expect.objectContaining({ workspaceId: source.workspaceId, actor: expect.any(String), timestamp: expect.any(String) }),
          hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
      }
      expect(rest.map((event) => event.type)).toEqual(expect.arrayContaining(['WorkspaceCreated', 'ContentTypeSaved', 'ContentPublished', 'ContentEncryptedFieldsSet', 'TotpSecretSet']));
      const text = await readFile(exportFile, 'utf8');
      expect(text).not.toContain(seeded.otherWorkspaceId);
      // Secrets travel sealed under the workspace's data key, never in clear.
      for (const secret of [SERIAL, WEBHOOK_SECRET, seeded.totpSecret]) expect(text).not.toContain(secret);
      expect(exportRun.lines).toEqual([
        `exported ${rest.length} events of workspace ${source.workspaceId} to ${exportFile}, unsigned (no EXPORT_SIGNING_KEY)`,
        `wrote the workspace's keys, wrapped by ENCRYPTION_KEY, to ${keyFile}: store it apart from the export`,
      ]);
      expect(exportRun.drawn()).toContain('export [');
    });

    it('exports the same lines to stdout without --out, followed by the record of the first export', async () => {
      // An export ends at the settled head (no open transaction on the server can precede it):
      // wait until the first export's record is settled, as other tests' transactions may hold it back.
      await withStores(loadConfig({ ...sourceEnvironment, LOG_LEVEL: 'silent' }), 'export', async (stores) => {
        const [record] = await stores.events.readStream(`workspaceexport-${source.workspaceId}`);
        await eventually(async () => comparePositions(await stores.events.headPosition(), record!.position) >= 0);
      });
      const run = await cli(['export', source.workspaceId], sourceEnvironment);
      const withoutTime = (line: string) => line.replace(/"exportedAt":"[^"]+"/, '');
      const first = (await exportLines()).map(withoutTime);
      const second = run.lines.map(withoutTime);
      // The first export's record was appended after the head it ended at: not in its file, the next event of the second.
      expect(second.slice(0, first.length - 1)).toEqual(first.slice(0, -1));
      expect(second).toHaveLength(first.length + 1);
      expect(JSON.parse(second.at(-2)!)).toMatchObject({ kind: 'event', type: 'WorkspaceExported', stream: `workspaceexport-${source.workspaceId}`, revision: 0 });
      expect(JSON.parse(second.at(-1)!)).toEqual({ kind: 'summary', events: first.length - 1 });
    });

    it('records each complete export in the audit feed: who, when, the range and the hash of the file, which does not hold its own record', async () => {
      const text = await readFile(exportFile, 'utf8');
      expect(text).not.toContain('WorkspaceExported');
      const service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ...sourceEnvironment }), pino({ level: 'silent' }));
      try {
        const entries = await eventually(async () => {
          const page = await call(service.url, 'GET', `/admin/workspaces/${source.workspaceId}/audit?type=WorkspaceExported`, { bearer: ADMIN_TOKEN });
          expect(page.status).toBe(200);
          return page.body.items.length === 2 ? page.body.items : undefined;
        });
        const events = text.trimEnd().split('\n').length - 2;
        const [toFile, toStdout] = entries;
        expect(toFile).toMatchObject({
          type: 'WorkspaceExported',
          actorKind: 'system',
          actorId: 'cli',
          actorName: expect.stringContaining('@'),
          at: expect.any(String),
          summary: {
            events,
            through: expect.stringMatching(/^\d+\/\d+$/),
            fileSha256: createHash('sha256').update(text).digest('hex'),
            signed: false,
            keysExported: true,
          },
        });
        // The second export's range ends after the first one's record.
        expect(toStdout.summary).toMatchObject({ events: events + 1, keysExported: false });
        expect(JSON.stringify(entries)).not.toContain('v1.');
      } finally {
        await service.close();
      }
    });

    it('imports into an empty store, after which the API answers as before, encrypted values and secrets included', async () => {
      const target = await emptyStore(engine);
      try {
        const imported = await cli(['import', exportFile, '--keys', keyFile], target.environment);
        const events = (await exportLines()).length - 2;
        // The read models are built from the file's events and the import's record (WorkspaceImported).
        expect(imported.lines).toEqual([
          expect.stringMatching(
            new RegExp(`^imported workspace ${source.workspaceId}: ${events} events in \\d+\\.\\d s \\([\\d,]+ events/s\\); read models built from ${events + 1} events in \\d+\\.\\d s \\([\\d,]+ events/s\\)$`),
          ),
          "checked before writing: no signature (the export is unsigned), each event's chain hash",
        ]);
        expect(imported.drawn()).toMatch(/check \[[\s\S]*import \[.*events\/s[\s\S]*project \[.*events\/s/);
        expect((await cli(['verify'], target.environment)).lines.at(-1)).toBe('verify: ok (every stream in order, every read model at the head of the log)');

        const delivered = receiver.requests.length;
        const service = await startOn(target.environment);
        try {
          expect(await snapshot(service.url, source.readKey, seeded)).toEqual(before);
          // The import is recorded in the imported log: by whom, the file's hash (the export's own record names the same), signed or not.
          const feed = await call(service.url, 'GET', `/admin/workspaces/${source.workspaceId}/audit?type=WorkspaceImported`, { bearer: ADMIN_TOKEN });
          expect(feed.body.items).toEqual([
            expect.objectContaining({
              type: 'WorkspaceImported',
              stream: `workspaceimport-${source.workspaceId}`,
              actorKind: 'system',
              actorId: 'cli',
              actorName: expect.stringContaining('@'),
              summary: { events, fileSha256: createHash('sha256').update(await readFile(exportFile)).digest('hex'), signed: false, keysImported: true },
            }),
          ]);
          const decrypted = await decryptSerial(service.url, source.readKey, seeded);
          expect(decrypted.status).toBe(200);
          expect(decrypted.body).toEqual({ fields: { serial: SERIAL } });
          // The imported log goes on: a new version (a draft and its publication) of an imported item, with the imported write key.
          const saved = await call(service.url, 'PUT', '/v2/contents/Product', { key: source.writeKey, body: { id: seeded.publishedIds[0], fields: { title: 'Lamp', price: 15 } } });
          expect(saved.status).toBe(200);
          const history = await call(service.url, 'GET', `/contents/Product/${seeded.publishedIds[0]}/history`, { key: source.readKey });
          expect(history.body).toHaveLength((before[`GET /contents/Product/${seeded.publishedIds[0]}/history`]!.body as unknown[]).length + 2);
          // Only the new publication is delivered: imported events replay no side effects.
          await eventually(() => receiver.requests.length > delivered);
          await delay(300);
          expect(receiver.requests.slice(delivered).map((request) => JSON.parse(request.body).fields)).toEqual([{ title: 'Lamp', price: 15 }]);
        } finally {
          await service.close();
        }
      } finally {
        await target.cleanUp();
      }
    }, 60_000);

    it('refuses a store that already holds events, and leaves its folder as it was', async () => {
      // Without its (empty) file store, which opening the stores creates: the refusal must take it away again.
      await rm(join(sourceEnvironment.DATA_DIR!, 'blobs'), { recursive: true, force: true });
      const before = await listing(sourceEnvironment.DATA_DIR!);
      await expect(cli(['import', exportFile, '--keys', keyFile], sourceEnvironment)).rejects.toThrow('import: the event store is not empty');
      expect(await listing(sourceEnvironment.DATA_DIR!)).toEqual(before);
    });

    it('leaves a target folder that did not exist as it was: absent, after every kind of refusal and a verify', async () => {
      const missing = join(workDir, 'not-created');
      const environment = { ADMIN_TOKEN, DATA_DIR: missing };
      await expect(cli(['import', exportFile], environment)).rejects.toThrow('this export keeps its keys in a separate file: pass --keys <file>');
      await expect(cli(['import', exportFile, '--keys', keyFile], environment)).rejects.toThrow('does not open with this ENCRYPTION_KEY');
      await expect(cli(['import', exportFile, '--keys', keyFile], { ...environment, ENCRYPTION_KEY: randomBytes(32).toString('base64') })).rejects.toThrow(
        'does not open with this ENCRYPTION_KEY',
      );
      const lines = await exportLines();
      const badFile = join(workDir, 'bad-summary.ndjson');
      await writeFile(badFile, `${[...lines.slice(0, -1), '{"kind":"summary","events":1}'].join('\n')}\n`);
      await expect(cli(['import', badFile, '--keys', keyFile], { ...environment, ENCRYPTION_KEY })).rejects.toThrow(/^line \d+: the summary counts 1 events/);
      // verify only reads: it creates no store (and no key) to report on.
      const verified = await cli(['verify'], environment);
      expect(verified.lines).toContain('log: empty, no events');
      expect(verified.lines.at(-1)).toBe('verify: ok (every stream in order, every read model at the head of the log)');
      expect(await listing(missing)).toBeNull();
    });

    it('rejects a bad file naming its line, a cut-off file and another ENCRYPTION_KEY, and leaves the store empty', async () => {
      const lines = await exportLines();
      const variant = async (name: string, content: string[]) => {
        const path = join(workDir, name);
        await writeFile(path, `${content.join('\n')}\n`);
        return path;
      };
      const withLine = (number: number, text: string) => lines.map((line, index) => (index === number - 1 ? text : line));
      const firstEvent = JSON.parse(lines[1]!);
      const sameStream = lines.findIndex((line, index) => index > 1 && JSON.parse(line).stream === firstEvent.stream);
      const reordered = [...lines];
      [reordered[1], reordered[sameStream]] = [reordered[sameStream]!, reordered[1]!];

      const target = await emptyStore(engine);
      try {
        const importing = async (path: string, environment = target.environment) => {
          const before = await listing(target.environment.DATA_DIR);
          try {
            return await cli(['import', path, '--keys', keyFile], environment);
          } finally {
            expect(await listing(target.environment.DATA_DIR)).toEqual(before);
          }
        };
        await expect(importing(await variant('not-json.ndjson', withLine(3, '{"kind": "event",')))).rejects.toThrow('line 3: is not JSON');
        await expect(importing(await variant('no-id.ndjson', withLine(4, JSON.stringify({ ...JSON.parse(lines[3]!), id: 'x' }))))).rejects.toThrow(/^line 4: id: /);
        await expect(importing(await variant('unknown-kind.ndjson', withLine(2, '{"kind":"comment"}')))).rejects.toThrow(/^line 2: /);
        await expect(importing(await variant('reordered.ndjson', reordered))).rejects.toThrow(
          `line 2: stream ${firstEvent.stream} jumps to revision ${JSON.parse(reordered[1]!).revision}; revision 0 was expected`,
        );
        await expect(importing(await variant('cut-off.ndjson', lines.slice(0, -1)))).rejects.toThrow('ends without its summary line');
        const otherKey = { ...target.environment, ENCRYPTION_KEY: randomBytes(32).toString('base64') };
        await expect(importing(exportFile, otherKey)).rejects.toThrow('does not open with this ENCRYPTION_KEY');

        const verified = await cli(['verify'], target.environment);
        expect(verified.lines).toContain('log: empty, no events');
      } finally {
        await target.cleanUp();
      }
    }, 60_000);

    it('verifies a good store, and fails on a read model behind the head and on a gap in a stream', async () => {
      const good = await cli(['verify'], sourceEnvironment);
      expect(good.lines[0]).toMatch(/^log: \d+ events in \d+ streams; the last at position (\d+\/\d+)$/);
      const head = good.lines[0]!.split(' ').at(-1)!;
      expect(good.lines[1]).toMatch(/^positions are written A\/B: the transaction id and the sequence number of an event/);
      expect(good.lines[2]).toMatch(/^streams: in each of the \d+ streams the revisions run 0, 1, 2, \.\.\. in log order, without a gap$/);
      const readModels = good.lines.filter((line) => line.startsWith('  '));
      expect(readModels).toHaveLength(readModelProjectors.length);
      for (const line of readModels) expect(line).toMatch(new RegExp(`^  \\w+ +checkpoint at the head \\(position ${head}\\)$`));
      expect(good.lines.at(-1)).toBe('verify: ok (every stream in order, every read model at the head of the log)');
      expect(good.drawn()).toContain('verify [');

      const container = await buildContainer(loadConfig(sourceEnvironment), pino({ level: 'silent' }));
      try {
        await deleteCheckpointEverywhere(container.resolve(TOKENS.readStore), checkpointName(contentItemsProjector));
      } finally {
        for (const close of container.resolve(TOKENS.closers)) await close();
      }
      const behind = captureCliOutput();
      await expect(runCli(['verify'], sourceEnvironment, behind.output)).rejects.toThrow('verify: 1 problem found');
      expect(behind.lines).toContainEqual(expect.stringMatching(/^ {2}content_items +no checkpoint: never built, while the log runs to position \d+\/\d+$/));
      expect(behind.lines).toContainEqual(
        expect.stringMatching(/^problem: read model content_items: no checkpoint: never built, while the log runs to position \d+\/\d+; fix it with 'projections rebuild content_items'$/),
      );

      const sql = await openStoreSql(engine, sourceEnvironment);
      const stream = `content-${source.workspaceId}-${seeded.draftId}`;
      try {
        // The append-only trigger refuses this; an owner can switch it off, which the chain then shows.
        await expect(sql.query('delete from es_events where stream = $1 and revision = 1', [stream])).rejects.toThrow('the event log is append-only');
        await sql.transaction(async (tx) => {
          await tx.query('set local session_replication_role = replica');
          await tx.query('delete from es_events where stream = $1 and revision = 1', [stream]);
        });
      } finally {
        await sql.close();
      }
      const gap = captureCliOutput();
      await expect(runCli(['verify'], sourceEnvironment, gap.output)).rejects.toThrow('verify: 4 problems found');
      expect(gap.lines).toContainEqual(expect.stringMatching(new RegExp(`^problem: stream ${stream} revision 2 at position \\d+/\\d+: hash differs`)));
      expect(gap.lines).toContainEqual(expect.stringMatching(new RegExp(`^problem: stream ${stream}: revision 2 at position \\d+/\\d+, where revision 1 was expected$`)));
      expect(gap.lines).toContain('streams: 1 event out of order (listed below)');
      // The signed checkpoint counted the event among those it added: its interval is one short.
      expect(gap.lines).toContainEqual(expect.stringMatching(/^problem: checkpoint #1 of .* signed \d+ events added since the start of the log; the log holds \d+ as of it: events were removed/));
    }, 60_000);
  });
}
