import { randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import pino from 'pino';
import { eventHash } from '../../infra/eventstore/chain';
import { type Checkpoint, checkpointKey, CheckpointRefused } from '../../infra/eventstore/chain-audit';
import { eventMacKey } from '../../infra/eventstore/event-mac';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PostgresChainAudit } from '../../infra/eventstore/postgres-chain-audit';
import { witnessText } from '../../infra/eventstore/witness-file';
import type { EventMetadata } from '../../infra/eventstore/port';
import type { SqlClient, SqlQueryable } from '../../infra/sql/client';
import { runCli } from '../../src/cli/operator';
import { loadConfig } from '../../src/config';
import { buildContainer, TOKENS } from '../../src/container';
import { startService } from '../../src/server';
import { captureCliOutput } from '../support/cli-output';
import { call } from '../support/http';
import { signedWith, startHttpsReceiver } from '../support/receivers';
import { eventually } from '../support/waiting';
import { createTestDatabase } from '../support/postgres';
import { copyPgliteTemplate } from '../support/pglite-template';
import { ADMIN_TOKEN, type Engine } from '../support/service';
import { openStoreSql } from '../support/store-sql';
import { createServiceRole } from '../support/service-role';

/**
 * An auditor's attacks on the event log, made directly in SQL by someone who owns the tables:
 * the append-only triggers are bypassed (`session_replication_role = replica`), and where a
 * chain would give the edit away it is recomputed, as anyone can (the hashes hold no secret).
 * Every one must make `cms verify` fail, naming the first break.
 */

const ENCRYPTION_KEY = randomBytes(32).toString('base64');

interface Store {
  readonly environment: Record<string, string>;
  readonly cleanUp: () => Promise<void>;
}

interface EventRow {
  position: string;
  stream: string;
  revision: string;
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

async function newStore(engine: Engine): Promise<Store> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-tamper-'));
  const database = engine === 'postgres' ? await createTestDatabase() : null;
  if (engine === 'pglite') await copyPgliteTemplate(join(dataDir, 'pglite'));
  return {
    environment: { ADMIN_TOKEN, ENCRYPTION_KEY, DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) },
    cleanUp: async () => {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A copy of `seeded`: the data folder, and for PostgreSQL a database made from the seeded one as template. */
async function copyStore(engine: Engine, seeded: Store): Promise<Store> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-tamper-'));
  await cp(seeded.environment.DATA_DIR!, dataDir, { recursive: true });
  if (engine === 'pglite') {
    return { environment: { ...seeded.environment, DATA_DIR: dataDir }, cleanUp: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const source = new URL(seeded.environment.DATABASE_URL!);
  const name = `cms_tamper_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${source.pathname.slice(1)}`);
  await admin.end();
  const url = new URL(source);
  url.pathname = `/${name}`;
  return {
    environment: { ...seeded.environment, DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    cleanUp: async () => {
      const client = new Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` as the tables' owner would, with the append-only triggers switched off. */
async function asOwner(engine: Engine, store: Store, work: (tx: SqlQueryable) => Promise<void>): Promise<void> {
  const sql = await openStoreSql(engine, store.environment);
  try {
    await sql.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await work(tx);
    });
  } finally {
    await sql.close();
  }
}

async function readStream(tx: SqlQueryable, stream: string): Promise<EventRow[]> {
  return tx.query<EventRow>(
    'select position::text as position, stream, revision::text as revision, id::text as id, type, data, metadata from es_events where stream = $1 order by revision',
    [stream],
  );
}

/** What an owner who knows the scheme does after an edit: the stream's hashes and head recomputed from its first event. */
async function rechain(tx: SqlQueryable, stream: string): Promise<void> {
  let previous: Buffer | null = null;
  let revision = -1;
  for (const row of await readStream(tx, stream)) {
    revision = Number(row.revision);
    previous = eventHash(row, revision, previous);
    await tx.query('update es_events set hash = $2 where position = $1', [row.position, previous]);
  }
  await tx.query('update es_streams set revision = $2, hash = $3 where stream = $1', [stream, revision, previous]);
}

/** `projections rebuild` with the stores opened by the CLI (no service answers at the --url given). */
async function rebuildOffline(environment: Record<string, string>, ...flags: string[]) {
  const run = captureCliOutput();
  const error = await runCli(['projections', 'rebuild', '--url', 'http://127.0.0.1:9', ...flags], environment, run.output).then(
    () => null,
    (reason: Error) => reason,
  );
  return { error, lines: run.lines };
}

async function verify(environment: Record<string, string>) {
  const run = captureCliOutput();
  const error = await runCli(['verify'], environment, run.output).then(
    () => null,
    (reason: Error) => reason,
  );
  return { error, lines: run.lines, problems: run.lines.filter((line) => line.startsWith('problem: ')) };
}

async function verifyAgainst(environment: Record<string, string>, file: string) {
  const run = captureCliOutput();
  const error = await runCli(['verify', '--against', file], environment, run.output).then(
    () => null,
    (reason: Error) => reason,
  );
  return { error, lines: run.lines, problems: run.lines.filter((line) => line.startsWith('problem: ')) };
}

/** The problems verify reports about the log itself, leaving out read models (appends made past the service are not projected). */
const logProblems = (problems: string[]) => problems.filter((problem) => !problem.startsWith('problem: read model'));

const signingKey = () => checkpointKey(Buffer.from(ENCRYPTION_KEY, 'base64'));
/** The service's own key for the events' MACs: what a store opened here appends with, as the service would. */
const macKey = () => eventMacKey(Buffer.from(ENCRYPTION_KEY, 'base64'));

/**
 * Tampers as the owner (`work`, triggers off), then opens the event store as the service does
 * and signs a checkpoint, on one connection: the checkpoint, or the refusal.
 */
async function tamperThenSign(engine: Engine, store: Store, work: (tx: SqlQueryable) => Promise<void>): Promise<Checkpoint | CheckpointRefused> {
  const sql = await openStoreSql(engine, store.environment);
  try {
    await sql.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await work(tx);
    });
    const events = await PostgresEventStore.create(sql);
    return await events.audit.writeCheckpoint('periodic', signingKey()).catch((error: unknown) => {
      if (error instanceof CheckpointRefused) return error;
      throw error;
    });
  } finally {
    await sql.close();
  }
}

async function storedCheckpoints(engine: Engine, store: Store): Promise<Checkpoint[]> {
  const sql = await openStoreSql(engine, store.environment);
  try {
    return await new PostgresChainAudit(sql).checkpoints();
  } finally {
    await sql.close();
  }
}

/** A witness file of the store's checkpoint `id`, as CHECKPOINT_WITNESS_DIR would hold it. */
async function keep(engine: Engine, store: Store, id: number): Promise<string> {
  const checkpoint = (await storedCheckpoints(engine, store)).find((stored) => stored.id === id)!;
  const path = join(store.environment.DATA_DIR!, `kept-${id}.json`);
  await writeFile(path, witnessText(checkpoint));
  return path;
}

const systemMetadata = (): EventMetadata => ({ workspaceId: null, actor: 'test', correlationId: randomUUID(), timestamp: new Date().toISOString() });

export function describeTampering(engine: Engine): void {
  describe(`tampering with the event log (${engine})`, () => {
    let seeded: Store;
    /** The content item whose stream the attacks rewrite: created, repriced, unpublished (a legal takedown), repriced. */
    let itemStream: string;
    let otherStream: string;
    let writeKey: string;
    let workspaceId: string;
    let store: Store;

    beforeAll(async () => {
      seeded = await newStore(engine);
      // No periodic checkpoint while seeding: the one checkpoint is the one a clean stop signs.
      const service = await startService(
        loadConfig({ PORT: '0', LOG_LEVEL: 'silent', CHAIN_CHECKPOINT_INTERVAL_MS: '3600000', ...seeded.environment }),
        pino({ level: 'silent' }),
      );
      try {
        ({ writeKey, workspaceId } = service.bootstrap!);
        const api = async (method: string, path: string, body?: unknown) => {
          const answer = await call(service.url, method, path, { key: writeKey, body });
          expect(answer.status).toBeLessThan(300);
          return answer.body;
        };
        await api('PUT', '/content-types', { name: 'Product', key: 'Product', fields: [{ key: 'title', type: 'Text' }, { key: 'price', type: 'Number' }] });
        const lamp = await api('PUT', '/v2/contents/Product', { fields: { title: 'Lamp', price: 9 } });
        await api('PUT', '/v2/contents/Product', { id: lamp.id, fields: { title: 'Lamp', price: 12 } });
        await api('PUT', `/v2/contents/Product/${lamp.id}/unpublish`, {});
        await api('PUT', '/v2/contents/Product', { id: lamp.id, fields: { title: 'Lamp', price: 15 } });
        const desk = await api('PUT', '/v2/contents/Product', { fields: { title: 'Desk', price: 100 } });
        itemStream = `content-${workspaceId}-${lamp.id}`;
        otherStream = `content-${workspaceId}-${desk.id}`;
      } finally {
        await service.close();
      }
    }, 120_000);

    afterAll(async () => {
      await seeded?.cleanUp();
    });

    beforeEach(async () => {
      store = await copyStore(engine, seeded);
    });

    afterEach(async () => {
      await store.cleanUp();
    });

    it('verifies the untouched log, its chain and its signed checkpoint', async () => {
      const { error, lines } = await verify(store.environment);
      expect(error).toBeNull();
      expect(lines).toContainEqual(expect.stringMatching(/^chain: the hash of each of the \d+ events verifies/));
      expect(lines).toContainEqual(expect.stringMatching(/^checkpoints: 1; the latest, #1 of .*, matches the log \(\d+ streams, \d+ events\)$/));
      expect(lines).toContain('tail: every event is covered by the latest checkpoint');
      expect(lines.at(-1)).toBe('verify: ok (every stream in order, every read model at the head of the log)');
    });

    it('counts the events appended after the latest checkpoint as an unprotected tail', async () => {
      const container = await buildContainer(loadConfig(store.environment), pino({ level: 'silent' }));
      try {
        const metadata: EventMetadata = { workspaceId: 'tail', actor: 'test', correlationId: 'tail', timestamp: new Date().toISOString() };
        await container.resolve(TOKENS.eventStore).append('tail-after-checkpoint', [{ type: 'TailOne', data: {}, metadata }, { type: 'TailTwo', data: {}, metadata }], 'no_stream');
      } finally {
        for (const close of container.resolve(TOKENS.closers)) await close();
      }
      const { lines } = await verify(store.environment);
      expect(lines).toContainEqual(expect.stringMatching(/^checkpoints: 1; the latest, #1 of .*, matches the log/));
      expect(lines).toContainEqual(expect.stringMatching(/^tail: 2 events lie after the latest checkpoint, unprotected: cutting them off the end of the log would go unseen/));
    });

    it('refuses UPDATE, DELETE and TRUNCATE of events, and moving a stream head back, while the triggers are on', async () => {
      const sql = await openStoreSql(engine, store.environment);
      try {
        for (const statement of [
          `update es_events set data = '{}' where stream = '${itemStream}'`,
          `delete from es_events where stream = '${itemStream}'`,
          'truncate es_events',
          `delete from es_streams where stream = '${itemStream}'`,
          `update es_streams set revision = 0 where stream = '${itemStream}'`,
          'delete from es_checkpoints',
        ]) {
          await expect(sql.query(statement)).rejects.toThrow(/append-only|may only move forwards/);
        }
      } finally {
        await sql.close();
      }
      expect((await verify(store.environment)).error).toBeNull();
    });

    it("names the event whose data was edited (a price)", async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query(`update es_events set data = jsonb_set(data, '{fields,price}', '1') where stream = $1 and revision = 1`, [itemStream]);
      });
      const { error, problems } = await verify(store.environment);
      expect(error?.message).toMatch(/^verify: \d+ problems? found$/);
      expect(problems[0]).toMatch(new RegExp(`^problem: stream ${itemStream} revision 1 at position \\d+/\\d+: hash differs: stored [0-9a-f]{16}\\.\\.\\., recomputed`));
    });

    it('refuses to rebuild the read models from a log with an edited event, naming it, and rebuilds it with --skip-chain-check', async () => {
      expect((await rebuildOffline(store.environment)).lines.at(-1)).toMatch(/\(offline; each event's chain hash checked\)$/);
      const readModelRow = async () => {
        const sql = await openStoreSql(engine, store.environment);
        try {
          return (await sql.query<{ doc: { fields: { price: number } } }>(`select doc from rm_content_items where doc->'fields'->>'title' = 'Lamp' and doc->>'stage' = 'draft'`))[0]?.doc;
        } finally {
          await sql.close();
        }
      };
      expect((await readModelRow())?.fields.price).toBe(15);
      let lastSave = -1;
      await asOwner(engine, store, async (tx) => {
        lastSave = Math.max(...(await readStream(tx, itemStream)).filter((row) => row.type === 'ContentDraftSaved').map((row) => Number(row.revision)));
        await tx.query(`update es_events set data = jsonb_set(data, '{fields,price}', '1') where stream = $1 and revision = $2`, [itemStream, lastSave]);
      });

      const refused = await rebuildOffline(store.environment);
      expect(refused.error?.message).toMatch(
        new RegExp(`^the event log's hash chain is broken: stream ${itemStream} revision ${lastSave} at position \\d+/\\d+ has a stored hash that does not match its content.*--skip-chain-check`),
      );
      expect((await readModelRow())?.fields.price).toBe(15);

      const forced = await rebuildOffline(store.environment, '--skip-chain-check');
      expect(forced.error).toBeNull();
      expect(forced.lines.at(-1)).toMatch(/\(offline; the hash chain NOT checked \(--skip-chain-check\)\)$/);
      expect((await readModelRow())?.fields.price).toBe(1);
    });

    it('names the event whose metadata (the actor) and title were rewritten', async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query(`update es_events set metadata = jsonb_set(metadata, '{actor}', '"someone-else"') where stream = $1 and revision = 2`, [itemStream]);
        await tx.query(`update es_events set data = jsonb_set(data, '{fields,title}', '"Torch"') where stream = $1 and revision = 3`, [itemStream]);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(new RegExp(`^problem: stream ${itemStream} revision 2 at position \\d+/\\d+: hash differs`));
    });

    it('names the first renumbered event after the legal takedown was deleted', async () => {
      let takedown = -1;
      await asOwner(engine, store, async (tx) => {
        const events = await readStream(tx, itemStream);
        takedown = events.findIndex((row) => row.type.includes('Unpublish'));
        expect(takedown).toBeGreaterThan(0);
        await tx.query('delete from es_events where stream = $1 and revision = $2', [itemStream, takedown]);
        for (let revision = takedown + 1; revision < events.length; revision++) {
          await tx.query('update es_events set revision = $2 where stream = $1 and revision = $3', [itemStream, revision - 1, revision]);
        }
        await tx.query('update es_streams set revision = revision - 1 where stream = $1', [itemStream]);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(new RegExp(`^problem: stream ${itemStream} revision ${takedown} at position \\d+/\\d+: hash differs: .*the one before it was removed, replaced or reordered$`));
    });

    it('catches a deleted takedown even when the owner recomputed the chain: the signed checkpoint no longer matches', async () => {
      await asOwner(engine, store, async (tx) => {
        const events = await readStream(tx, itemStream);
        const takedown = events.findIndex((row) => row.type.includes('Unpublish'));
        await tx.query('delete from es_events where stream = $1 and revision = $2', [itemStream, takedown]);
        for (let revision = takedown + 1; revision < events.length; revision++) {
          await tx.query('update es_events set revision = $2 where stream = $1 and revision = $3', [itemStream, revision - 1, revision]);
        }
        await rechain(tx, itemStream);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(/^problem: checkpoint #1 of .* signed \d+ streams holding \d+ events; the log holds \d+ streams holding \d+ events as of it: events or whole streams were removed$/);
    });

    it('catches an edited price with a recomputed chain: its MAC names the event, and the stream heads differ from the signed ones', async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query(`update es_events set data = jsonb_set(data, '{fields,price}', '1') where stream = $1 and revision = 1`, [itemStream]);
        await rechain(tx, itemStream);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(new RegExp(`^problem: stream ${itemStream} revision 1 at position \\d+/\\d+: its MAC does not verify`));
      expect(problems[1]).toMatch(/^problem: checkpoint #1 of .*: the stream heads differ from the ones it signed \(same counts\): events were changed, replaced or re-chained$/);
    });

    it('names the first of two reordered events', async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query('update es_events set revision = -1 where stream = $1 and revision = 1', [itemStream]);
        await tx.query('update es_events set revision = 1 where stream = $1 and revision = 2', [itemStream]);
        await tx.query('update es_events set revision = 2 where stream = $1 and revision = -1', [itemStream]);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(new RegExp(`^problem: stream ${itemStream}: revision 2 at position \\d+/\\d+, where revision 1 was expected$`));
      expect(problems[1]).toMatch(new RegExp(`^problem: stream ${itemStream} revision 2 at position \\d+/\\d+: hash differs`));
    });

    it('catches a forged event inserted into history with a correct hash of its own and the later ones re-chained', async () => {
      await asOwner(engine, store, async (tx) => {
        const events = await readStream(tx, itemStream);
        for (let revision = events.length - 1; revision >= 1; revision--) {
          await tx.query('update es_events set revision = $2 where stream = $1 and revision = $3', [itemStream, revision + 1, revision]);
        }
        const forged = { ...events[1]!, id: '00000000-0000-4000-8000-000000000001', data: { fields: { title: 'Lamp', price: 0.01 } } };
        await tx.query(`insert into es_events (stream, revision, id, type, data, metadata, hash) values ($1, 1, $2, $3, $4::text::jsonb, $5::text::jsonb, '\\x00')`, [
          itemStream,
          forged.id,
          forged.type,
          JSON.stringify(forged.data),
          JSON.stringify(forged.metadata),
        ]);
        await rechain(tx, itemStream);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      // The forged row comes last in log order (a new transaction), after its later revisions.
      expect(problems[0]).toMatch(new RegExp(`^problem: stream ${itemStream}: revision 2 at position \\d+/\\d+, where revision 1 was expected$`));
      expect(problems).toContainEqual(expect.stringMatching(/^problem: checkpoint #1 of .* signed \d+ streams holding \d+ events; the log holds .*: events were added before it$/));
    });

    it("catches the log's tail cut off, with the stream heads moved back to match", async () => {
      await asOwner(engine, store, async (tx) => {
        const tail = await tx.query<{ stream: string; revision: string }>('select stream, revision::text as revision from es_events order by xid desc, position desc limit 2');
        for (const { stream, revision } of tail) {
          await tx.query('delete from es_events where stream = $1 and revision = $2', [stream, revision]);
          if (revision === '0') await tx.query('delete from es_streams where stream = $1', [stream]);
        }
        for (const stream of new Set(tail.map((row) => row.stream))) {
          if ((await readStream(tx, stream)).length > 0) await rechain(tx, stream);
        }
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(/^problem: checkpoint #1 of .* signed \d+ streams holding \d+ events; the log holds .*: events or whole streams were removed$/);
    });

    it('names the stream whose end was cut off when its head was left as it was', async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query('delete from es_events where stream = $1 and revision = (select max(revision) from es_events where stream = $1)', [itemStream]);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^problem: stream ${itemStream}: its head records revision \\d+, but the log ends at revision \\d+: events were cut off its end$`)));
    });

    it('catches a whole stream deleted', async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query('delete from es_events where stream = $1', [otherStream]);
        await tx.query('delete from es_streams where stream = $1', [otherStream]);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(/^problem: checkpoint #1 of .* signed (\d+) streams holding \d+ events; the log holds \d+ streams holding \d+ events as of it: events or whole streams were removed$/);
    });

    // An export file is checked before any store is opened, and its import into each engine is
    // cli-export's suite: these run once, on PostgreSQL, which keeps CI under its time limit.
    const onceOnPostgres = (name: string, block: () => void) => (engine === 'postgres' ? describe(name, block) : undefined);
    onceOnPostgres('export files', () => {
      const SIGNING_KEY = randomBytes(32).toString('base64');
      let signedFile: string;
      let unsignedFile: string;
      let target: Store;

      beforeEach(async () => {
        signedFile = join(store.environment.DATA_DIR!, 'signed.ndjson');
        unsignedFile = join(store.environment.DATA_DIR!, 'unsigned.ndjson');
        await runCli(['export', workspaceId, '--out', signedFile, '--keys-out', `${signedFile}.keys`], { ...store.environment, EXPORT_SIGNING_KEY: SIGNING_KEY }, captureCliOutput().output);
        await runCli(['export', workspaceId, '--out', unsignedFile, '--keys-out', `${unsignedFile}.keys`], store.environment, captureCliOutput().output);
        target = await newStore(engine);
      });

      afterEach(async () => {
        await target.cleanUp();
      });

      const importInto = (file: string, environment: Record<string, string>) => runCli(['import', file, '--without-keys'], environment, captureCliOutput().output);

      /** The file with the item's first price changed; `rechain`: and the stream's hashes recomputed, as anyone can. */
      async function edited(file: string, rechain: boolean): Promise<string> {
        const lines = (await readFile(file, 'utf8')).split('\n');
        const index = lines.findIndex((line) => line.includes(itemStream) && line.includes('"price":9'));
        expect(index).toBeGreaterThan(0);
        lines[index] = lines[index]!.replace('"price":9', '"price":1');
        if (rechain) {
          let previous: Buffer | null = null;
          for (const [number, line] of lines.entries()) {
            if (!line.includes(`"stream":"${itemStream}"`)) continue;
            const event = JSON.parse(line);
            previous = eventHash(event, event.revision, previous);
            lines[number] = JSON.stringify({ ...event, hash: previous.toString('hex') });
          }
        }
        const path = `${file}.edited`;
        await writeFile(path, lines.join('\n'));
        return path;
      }

      it('imports a signed export, keeping every event, its recorded time and its hash', async () => {
        const output = captureCliOutput();
        await runCli(['import', signedFile, '--keys', `${signedFile}.keys`], { ...target.environment, EXPORT_SIGNING_KEY: SIGNING_KEY }, output.output);
        expect(output.lines.at(-1)).toBe("checked before writing: the signature (EXPORT_SIGNING_KEY), each event's chain hash");
        const exported = (await readFile(signedFile, 'utf8'))
          .split('\n')
          .filter((line) => line.includes('"kind":"event"'))
          .map((line) => JSON.parse(line));
        const sql = await openStoreSql(engine, target.environment);
        try {
          const imported = await sql.query<{ id: string; type: string; data: unknown; metadata: EventMetadata; hash: string }>(
            `select id::text as id, type, data, metadata, encode(hash, 'hex') as hash from es_events order by xid, position`,
          );
          // The import's own record follows them.
          const record = imported.pop();
          expect(imported.map(({ id, metadata, hash }) => ({ id, metadata, hash }))).toEqual(exported.map((event) => ({ id: event.id, metadata: event.metadata, hash: event.hash })));
          expect(record).toMatchObject({ type: 'WorkspaceImported', data: { workspaceId, events: exported.length, signed: true, keysImported: true }, metadata: { actorId: 'cli' } });
        } finally {
          await sql.close();
        }
        expect((await verify({ ...target.environment })).problems.filter((problem) => !problem.includes('read model'))).toEqual([]);
      });

      it('refuses an edited signed export whose chain was recomputed, before writing anything', async () => {
        await expect(importInto(await edited(signedFile, true), { ...target.environment, EXPORT_SIGNING_KEY: SIGNING_KEY })).rejects.toThrow(
          /^line \d+: the signature does not match: the file was changed after export, or signed with another EXPORT_SIGNING_KEY$/,
        );
        await expectEmpty(target);
      });

      it('refuses an edited unsigned export by its chain, naming the line', async () => {
        await expect(importInto(await edited(unsignedFile, false), target.environment)).rejects.toThrow(
          new RegExp(`^line \\d+: stream ${itemStream} revision 0: its hash does not match its content and the hash before it: the event was changed after it was exported$`),
        );
        await expectEmpty(target);
      });

      it('refuses an unsigned export when a key is set, a signed one without the key, and one signed with another key', async () => {
        await expect(importInto(unsignedFile, { ...target.environment, EXPORT_SIGNING_KEY: SIGNING_KEY })).rejects.toThrow(
          'the export carries no signature, and EXPORT_SIGNING_KEY is set: an unsigned export is refused',
        );
        await expect(importInto(signedFile, target.environment)).rejects.toThrow('the export is signed, and no EXPORT_SIGNING_KEY is set to check it');
        await expect(importInto(signedFile, { ...target.environment, EXPORT_SIGNING_KEY: randomBytes(32).toString('base64') })).rejects.toThrow(
          'the signature does not match',
        );
        // The flag admits a file without a signature, never one whose signature fails.
        await expect(
          runCli(['import', signedFile, '--without-keys', '--allow-unsigned'], { ...target.environment, EXPORT_SIGNING_KEY: randomBytes(32).toString('base64') }, captureCliOutput().output),
        ).rejects.toThrow('the signature does not match');
        await expectEmpty(target);
      });

      it('imports an unsigned export while a key is set only with --allow-unsigned, and warns', async () => {
        const output = captureCliOutput();
        await runCli(['import', unsignedFile, '--without-keys', '--allow-unsigned'], { ...target.environment, EXPORT_SIGNING_KEY: SIGNING_KEY }, output.output);
        expect(output.lines).toContainEqual(expect.stringMatching(/^import: WARNING: the export is unsigned and EXPORT_SIGNING_KEY is set; imported anyway because of --allow-unsigned/));
        expect(output.lines.at(-1)).toBe("checked before writing: no signature (the export is unsigned), each event's chain hash");
      });

      async function expectEmpty(empty: Store): Promise<void> {
        if (engine === 'pglite') {
          await expect(readdir(join(empty.environment.DATA_DIR!, 'pglite'))).rejects.toThrow('ENOENT');
          return;
        }
        const client = new Client({ connectionString: empty.environment.DATABASE_URL });
        await client.connect();
        try {
          const { rows } = await client.query(`select count(*)::int as tables from information_schema.tables where table_name = 'es_events'`);
          expect(rows[0].tables).toBe(0);
        } finally {
          await client.end();
        }
      }
    });

    it('refuses to sign over a stream rewritten with recomputed hashes, so the next checkpoint does not launder it', async () => {
      const refused = await tamperThenSign(engine, store, async (tx) => {
        await tx.query(`update es_events set data = jsonb_set(data, '{fields,price}', '1') where stream = $1 and revision = 1`, [itemStream]);
        await rechain(tx, itemStream);
      });
      expect(refused).toBeInstanceOf(CheckpointRefused);
      expect((refused as CheckpointRefused).message).toMatch(
        /^no checkpoint was signed: the event log does not extend checkpoint #1: the stream heads as of checkpoint #1, rebuilt from the log, are not the ones it signed \(\d+ streams holding \d+ events; it signed \d+ holding \d+\): events it covered were changed, replaced or re-chained$/,
      );
      expect(await storedCheckpoints(engine, store)).toHaveLength(1);
    });

    it('refuses to sign over a whole stream deleted, and over an event forged into history with the later hashes recomputed', async () => {
      const deleted = await tamperThenSign(engine, store, async (tx) => {
        await tx.query('delete from es_events where stream = $1', [otherStream]);
        await tx.query('delete from es_streams where stream = $1', [otherStream]);
      });
      expect(deleted).toBeInstanceOf(CheckpointRefused);
      expect((deleted as CheckpointRefused).problems).toEqual([expect.stringMatching(/^the stream heads as of checkpoint #1, .*: events or whole streams it covered were removed$/)]);

      const forged = await tamperThenSign(engine, store, async (tx) => {
        const events = await readStream(tx, itemStream);
        for (let revision = events.length - 1; revision >= 1; revision--) {
          await tx.query('update es_events set revision = $2 where stream = $1 and revision = $3', [itemStream, revision + 1, revision]);
        }
        await tx.query(`insert into es_events (stream, revision, id, type, data, metadata, hash) values ($1, 1, $2, $3, $4::text::jsonb, $5::text::jsonb, '\\x00')`, [
          itemStream,
          randomUUID(),
          events[1]!.type,
          JSON.stringify({ fields: { title: 'Lamp', price: 0.01 } }),
          JSON.stringify(events[1]!.metadata),
        ]);
        await rechain(tx, itemStream);
      });
      expect(forged).toBeInstanceOf(CheckpointRefused);
      expect((forged as CheckpointRefused).problems).toContainEqual(
        expect.stringMatching(new RegExp(`^stream ${itemStream} revision 1: added since the checkpoint, though the stream had already reached revision \\d+$`)),
      );
      expect(await storedCheckpoints(engine, store)).toHaveLength(1);
    });

    it('a running service refuses to sign a rewritten log: error log, metric, /health/ready degraded, an alert in the service audit feed', async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query(`update es_events set data = jsonb_set(data, '{fields,price}', '1') where stream = $1 and revision = 3`, [itemStream]);
        await rechain(tx, itemStream);
      });
      const service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', CHAIN_CHECKPOINT_INTERVAL_MS: '1000', ...store.environment }), pino({ level: 'silent' }));
      try {
        const degraded = await eventually(async () => {
          const answer = await call(service.url, 'GET', '/health/ready');
          return answer.body.status === 'degraded' && answer;
        });
        expect(degraded.status).toBe(200);
        expect(degraded.body.checks).toMatchObject({ eventStore: 'up', eventLog: 'degraded' });
        // Refused again at each interval: counted each time, recorded once while the finding stays the same.
        await eventually(async () => /eventlog_alerts_total\{reason="checkpointRefused"\} [2-9]/.test((await call(service.url, 'GET', '/metrics')).body));
        type Alert = { summary: { reason: string } };
        const refusedIn = (items: Alert[] | undefined) => (items ?? []).filter((item) => item.summary.reason === 'checkpointRefused');
        const feed = await eventually(async () => {
          const page = await call(service.url, 'GET', '/admin/audit?type=EventLogAlertRaised', { bearer: ADMIN_TOKEN });
          return refusedIn(page.body.items).length > 0 && page.body;
        });
        // A process runner that had not read the rewritten event before the last stop (it reads the log after a pause) reads it now, and its MAC check raises eventForged: the only other alert there may be.
        const reasons: string[] = feed.items.map((item: Alert) => item.summary.reason);
        expect(reasons.filter((reason) => reason !== 'checkpointRefused' && reason !== 'eventForged')).toEqual([]);
        expect(refusedIn(feed.items)).toHaveLength(1);
        expect(refusedIn(feed.items)[0]).toMatchObject({
          type: 'EventLogAlertRaised',
          stream: 'eventlog-alerts',
          actorKind: 'system',
          summary: { reason: 'checkpointRefused', checkpoint: 1, problems: [expect.stringMatching(/^the stream heads as of checkpoint #1, rebuilt from the log, are not the ones it signed/)] },
        });
        // Not in any workspace's feed.
        expect((await call(service.url, 'GET', `/admin/workspaces/${workspaceId}/audit?type=EventLogAlertRaised`, { bearer: ADMIN_TOKEN })).body.items).toEqual([]);
      } finally {
        await service.close();
      }
      expect(await storedCheckpoints(engine, store)).toHaveLength(1);
    });

    it('publishes each checkpoint to CHECKPOINT_WITNESS_DIR and CHECKPOINT_WITNESS_URL as it is signed, and verify --against proves the log extends one', async () => {
      const receiver = await startHttpsReceiver();
      const witnessDir = join(store.environment.DATA_DIR!, 'witness');
      const ca = join(store.environment.DATA_DIR!, 'witness-ca.pem');
      await writeFile(ca, receiver.caCertificate);
      const secret = randomBytes(24).toString('hex');
      const environment = {
        ...store.environment,
        CHECKPOINT_WITNESS_DIR: witnessDir,
        CHECKPOINT_WITNESS_URL: `${receiver.url}/witness`,
        CHECKPOINT_WITNESS_SECRET: secret,
        OUTBOUND_CA_FILE: ca,
      };
      receiver.respondWith(503);
      try {
        const service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', CHAIN_CHECKPOINT_INTERVAL_MS: '1000', ...environment }), pino({ level: 'silent' }));
        try {
          expect((await call(service.url, 'PUT', '/v2/contents/Product', { key: writeKey, body: { fields: { title: 'Chair', price: 40 } } })).status).toBe(200);
          // The first POST is answered 503: retried, never in the way of the writes.
          const [refused, taken] = await receiver.waitFor(2, 20_000);
          expect(refused!.body).toBe(taken!.body);
          expect(taken!.method).toBe('POST');
          expect(signedWith(taken!, secret)).toBe(true);
          expect(JSON.parse(taken!.body)).toMatchObject({ kind: 'cms-event-log-checkpoint', id: 2, body: { id: 2, previous: expect.stringMatching(/^[0-9a-f]{64}$/) } });
        } finally {
          await service.close();
        }
        // A clean stop signs and publishes once more.
        const files = (await readdir(witnessDir)).filter((name) => name.endsWith('.json')).sort();
        expect(files[0]).toBe('checkpoint-000000000002.json');
        const stored = await storedCheckpoints(engine, store);
        expect(files).toEqual(stored.slice(1).map((checkpoint) => `checkpoint-${String(checkpoint.id).padStart(12, '0')}.json`));
        expect(await readFile(join(witnessDir, files.at(-1)!), 'utf8')).toBe(witnessText(stored.at(-1)!));
        expect(receiver.requests.at(-1)!.body).toBe(witnessText(stored.at(-1)!));
      } finally {
        await receiver.close();
      }

      // verify takes the newest file of CHECKPOINT_WITNESS_DIR when no --against is given.
      const newest = await verify({ ...store.environment, CHECKPOINT_WITNESS_DIR: witnessDir });
      expect(newest.error).toBeNull();
      expect(newest.lines).toContainEqual(expect.stringMatching(/^against: checkpoint #\d+ of .* \(.*checkpoint-\d{12}\.json\) is stored unchanged; every checkpoint since names its predecessor and extends it/));

      const kept = join(witnessDir, 'checkpoint-000000000002.json');
      await asOwner(engine, store, async (tx) => {
        await tx.query(`update es_events set data = jsonb_set(data, '{fields,price}', '1') where stream = $1 and revision = 1`, [itemStream]);
        await rechain(tx, itemStream);
      });
      const tampered = await verifyAgainst(store.environment, kept);
      expect(tampered.error).not.toBeNull();
      expect(tampered.problems).toContainEqual(expect.stringMatching(/^problem: checkpoint #\d+ of .*: the stream heads differ from the ones it signed/));

      const forgedFile = join(store.environment.DATA_DIR!, 'forged.json');
      await writeFile(forgedFile, (await readFile(kept, 'utf8')).replace(/"events":(\d+)/, (_, events) => `"events":${Number(events) + 1}`));
      await expect(runCli(['verify', '--against', forgedFile], store.environment, captureCliOutput().output)).rejects.toThrow(
        /^verify --against: the signature of checkpoint #2 in .*forged\.json does not match: it was altered, or ENCRYPTION_KEY is not its store's$/,
      );
    }, 60_000);

    it('verify opens the store read-only: a log an owner marked as written before the chain is reported, not re-chained and signed, and the service refuses it', async () => {
      await asOwner(engine, store, async (tx) => {
        for (const trigger of ['es_events_append_only', 'es_events_no_truncate']) await tx.query(`drop trigger ${trigger} on es_events`);
        await tx.query('alter table es_events alter column hash drop not null');
        await tx.query(`comment on table es_events is 'written before the chain'`);
        await tx.query(`update es_events set data = jsonb_set(data, '{fields,price}', '1') where stream = $1 and revision = 1`, [itemStream]);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(new RegExp(`^problem: stream ${itemStream} revision 1 at position \\d+/\\d+: hash differs`));
      expect(problems).toContainEqual(
        'problem: es_events is marked as written before the hash chain (its hash column accepts NULL), yet 1 checkpoints are signed: someone marked it so that the next start would re-chain the log as it now is and sign it (the service refuses to start on it)',
      );
      expect(problems).toContainEqual(expect.stringMatching(/^problem: append-only guard es_events\.es_events_append_only: missing \(dropped\)/));
      const sql = await openStoreSql(engine, store.environment);
      try {
        const [column] = await sql.query<{ nullable: string }>(`select is_nullable as nullable from information_schema.columns where table_name = 'es_events' and column_name = 'hash'`);
        expect(column!.nullable).toBe('YES');
        expect(await new PostgresChainAudit(sql).checkpoints()).toHaveLength(1);
        await expect(PostgresEventStore.create(sql)).rejects.toThrow(/^es_events is marked as written before the hash chain .* yet 1 signed checkpoints exist: .* Refusing to; run 'cms verify'$/);
      } finally {
        await sql.close();
      }
    });

    it('reports dropped and disabled append-only triggers, and the service puts them back at its start, recording it', async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query('drop trigger es_events_append_only on es_events');
        await tx.query('alter table es_checkpoints disable trigger es_checkpoints_no_truncate');
      });
      const { problems } = await verify(store.environment);
      expect(problems).toEqual([
        expect.stringMatching(/^problem: append-only guard es_events\.es_events_append_only: missing \(dropped\): events and checkpoints could be changed/),
        expect.stringMatching(/^problem: append-only guard es_checkpoints\.es_checkpoints_no_truncate: disabled/),
      ]);
      const container = await buildContainer(loadConfig(store.environment), pino({ level: 'silent' }));
      try {
        const [alert] = await container.resolve(TOKENS.eventStore).readStream('eventlog-alerts');
        expect(alert).toMatchObject({
          type: 'EventLogAlertRaised',
          data: { reason: 'guardsRestored', checkpoint: null, problems: ['es_events.es_events_append_only: missing (dropped)', 'es_checkpoints.es_checkpoints_no_truncate: disabled'] },
        });
        expect((await container.resolve(TOKENS.chainAudit)!.audit.guards()).triggers).toEqual([]);
      } finally {
        for (const close of container.resolve(TOKENS.closers)) await close();
      }
    });

    describe('a log of 13 checkpoints', () => {
      let layered: Store;

      beforeAll(async () => {
        layered = await copyStore(engine, seeded);
        const sql = await openStoreSql(engine, layered.environment);
        try {
          const events = await PostgresEventStore.create(sql, { macKey: macKey() });
          for (let round = 2; round <= 13; round++) {
            await events.append(`layer-${round}`, [0, 1, 2].map((step) => ({ type: 'Layer', data: { round, step }, metadata: systemMetadata() })), 'no_stream');
            await events.audit.writeCheckpoint('periodic', signingKey());
          }
        } finally {
          await sql.close();
        }
      }, 60_000);

      afterAll(async () => {
        await layered?.cleanUp();
      });

      // In place of the outer copy of the seeded store, which the outer afterEach cleans up.
      beforeEach(async () => {
        await store.cleanUp();
        store = await copyStore(engine, layered);
      });

      it('orders checkpoints by number past 10: the latest, #13, matches the log, and --against a kept one proves the log extends it', async () => {
        const { lines, problems } = await verifyAgainst(store.environment, await keep(engine, store, 13));
        expect(logProblems(problems)).toEqual([]);
        expect(lines).toContainEqual(expect.stringMatching(/^checkpoints: 13; the latest, #13 of .*, matches the log \(\d+ streams, \d+ events\)$/));
        expect(lines).toContain('tail: every event is covered by the latest checkpoint');
        expect(lines).toContainEqual(expect.stringMatching(/^against: checkpoint #13 of .* is stored unchanged/));
      });

      it('catches the newest checkpoint deleted, and one in the middle', async () => {
        await asOwner(engine, store, async (tx) => {
          await tx.query('delete from es_checkpoints where id in (5, 13)');
        });
        const { problems, lines } = await verify(store.environment);
        expect(logProblems(problems)).toEqual([
          'problem: checkpoint #5 is missing between #4 and #6: deleted',
          'problem: checkpoint #13 was signed after #12 (the id sequence says so) and is gone: deleted, with the events only they covered if the tail below holds fewer than were appended',
        ]);
        expect(lines).toContainEqual(expect.stringMatching(/^tail: 3 events lie after the latest checkpoint/));
      });

      it("catches a stream's events moved after the log's end, and two events that swapped their places in the global order", async () => {
        await asOwner(engine, store, async (tx) => {
          // One revision at a time, so that the stream stays in order at its new place.
          for (const revision of [0, 1, 2]) {
            await tx.query(`update es_events set xid = pg_current_xact_id(), position = nextval('es_events_position_seq') where stream = 'layer-5' and revision = $1`, [revision]);
          }
          // The last event checkpoint #12 added and the first #13 added: each stream stays in order.
          const [first, second] = await tx.query<{ position: string; xid: string }>(
            `(select position::text as position, xid::text as xid from es_events where stream = 'layer-12' and revision = 2)
             union all (select position::text as position, xid::text as xid from es_events where stream = 'layer-13' and revision = 0)`,
          );
          await tx.query('update es_events set position = -1 where position = $1', [first!.position]);
          await tx.query('update es_events set position = $1, xid = $2::text::xid8 where position = $3', [first!.position, first!.xid, second!.position]);
          await tx.query('update es_events set position = $1, xid = $2::text::xid8 where position = -1', [second!.position, second!.xid]);
        });
        const { problems } = await verify(store.environment);
        expect(logProblems(problems)).toEqual([
          expect.stringMatching(/^problem: checkpoint #13 of .* signed \d+ streams holding \d+ events; the log holds \d+ streams holding \d+ events as of it: events or whole streams were removed$/),
          expect.stringMatching(/^problem: checkpoint #5 of .* signed 3 events added since #4; the log holds 0 as of it: events were removed, or moved later in the global order$/),
          expect.stringMatching(/^problem: checkpoint #12 of .*: the global order of the 3 events it added since #11 is not the one it signed: events were moved \(their log positions changed\) or replaced$/),
          expect.stringMatching(/^problem: checkpoint #13 of .*: the global order of the 3 events it added since #12 is not the one it signed/),
        ]);
      });

      it('catches the newest two checkpoints deleted with the events they alone covered, and --against names the missing one', async () => {
        const kept = await keep(engine, store, 13);
        await asOwner(engine, store, async (tx) => {
          await tx.query('delete from es_checkpoints where id >= 12');
          await tx.query(`delete from es_events where stream in ('layer-12', 'layer-13')`);
          await tx.query(`delete from es_streams where stream in ('layer-12', 'layer-13')`);
        });
        const { problems, lines } = await verifyAgainst(store.environment, kept);
        expect(logProblems(problems)).toEqual([
          expect.stringMatching(/^problem: checkpoints #12 to #13 were signed after #11 \(the id sequence says so\) and are gone: deleted/),
          expect.stringMatching(/^problem: --against: the store holds no checkpoint #13 of .*: its newest is #11, so the checkpoints after it were deleted, with the events only they covered$/),
        ]);
        expect(lines).toContain('tail: every event is covered by the latest checkpoint');
      });

      it('catches every checkpoint deleted, on a log older than the checkpoint interval', async () => {
        await asOwner(engine, store, async (tx) => {
          await tx.query('delete from es_checkpoints');
        });
        const { problems } = await verify({ ...store.environment, CHAIN_CHECKPOINT_INTERVAL_MS: '1000' });
        expect(logProblems(problems)).toEqual([
          'problem: checkpoints #1 to #13 were signed (the id sequence says so) and none is left: deleted',
          expect.stringMatching(/^problem: no checkpoint, while the log's first event was recorded at .*, longer than CHAIN_CHECKPOINT_INTERVAL_MS \(1000 ms\) ago/),
        ]);
        // Nor does the next start sign a new first checkpoint over them.
        expect(await tamperThenSign(engine, store, async () => undefined)).toBeInstanceOf(CheckpointRefused);
      });
    });

    it("a forged INSERT with the service's own grants and a correct chain link is quarantined and alerted on, never projected, never signed, and named by verify", async () => {
      const forgedId = randomUUID();
      let forgedRevision = -1;
      /** One transaction as the issue found it: a well-formed event under another actor, its link computed, the head moved forwards; no trigger off. */
      const forge = async (tx: SqlQueryable) => {
        const [head] = await tx.query<{ revision: string; hash: Buffer }>('select revision::text as revision, hash from es_streams where stream = $1 for update', [itemStream]);
        const template = (await readStream(tx, itemStream)).filter((row) => (row.data as { fields?: { price?: number } }).fields?.price !== undefined).at(-1)!;
        const data = template.data as { fields: Record<string, unknown> };
        const forged = {
          id: forgedId,
          stream: itemStream,
          type: template.type,
          data: { ...data, fields: { ...data.fields, price: 0.01 } },
          metadata: { ...template.metadata, actor: 'key:someone-else', correlationId: randomUUID(), timestamp: new Date().toISOString() },
        };
        forgedRevision = Number(head!.revision) + 1;
        const hash = eventHash(forged, forgedRevision, Buffer.from(head!.hash));
        await tx.query(`insert into es_events (stream, revision, id, type, data, metadata, hash, mac) values ($1, $2, $3, $4, $5::text::jsonb, $6::text::jsonb, $7, $8)`, [
          itemStream,
          forgedRevision,
          forgedId,
          forged.type,
          JSON.stringify(forged.data),
          JSON.stringify(forged.metadata),
          hash,
          randomBytes(32),
        ]);
        await tx.query('update es_streams set revision = $2, previous_hash = hash, hash = $3 where stream = $1', [itemStream, forgedRevision, hash]);
      };
      const forgeOn = async (sql: SqlClient) => {
        try {
          await sql.transaction(forge);
        } finally {
          await sql.close();
        }
      };
      // PGlite is one process: forged before the service starts, on a plain connection. PostgreSQL: while it runs, as a role granted what docs/production.md grants it.
      if (engine === 'pglite') await forgeOn(await openStoreSql(engine, store.environment));
      const service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', CHAIN_CHECKPOINT_INTERVAL_MS: '1000', ...store.environment }), pino({ level: 'silent' }));
      try {
        if (engine === 'postgres') {
          const role = await createServiceRole(store.environment.DATABASE_URL!);
          try {
            await forgeOn(await openStoreSql(engine, { DATABASE_URL: role.url }));
          } finally {
            await role.drop();
          }
        }
        const quarantined = await eventually(async () => {
          const entries = (await call(service.url, 'GET', '/admin/projections/quarantine', { bearer: ADMIN_TOKEN })).body.entries as { eventId: string; error: string }[];
          return entries.length > 0 && entries;
        });
        expect(new Set(quarantined.map((entry) => entry.eventId))).toEqual(new Set([forgedId]));
        expect(quarantined[0]!.error).toMatch(new RegExp(`^stream ${itemStream} revision ${forgedRevision} at position \\d+/\\d+: its MAC does not verify`));
        const ready = await eventually(async () => {
          const answer = await call(service.url, 'GET', '/health/ready');
          return answer.body.status === 'degraded' && answer;
        });
        expect(ready.body.checks).toMatchObject({ eventLog: 'degraded' });
        expect((await call(service.url, 'GET', '/metrics')).body).toMatch(/eventlog_alerts_total\{reason="eventForged"\} 1\b/);
        // The checkpoint signer checks the MACs of the events it would add, and refuses, at every interval.
        await eventually(async () => /eventlog_alerts_total\{reason="checkpointRefused"\} [1-9]/.test((await call(service.url, 'GET', '/metrics')).body));
        const feed = await eventually(async () => {
          const page = await call(service.url, 'GET', '/admin/audit?type=EventLogAlertRaised', { bearer: ADMIN_TOKEN });
          return page.body.items?.length > 1 && page.body;
        });
        const macProblem = expect.stringMatching(new RegExp(`^stream ${itemStream} revision ${forgedRevision} at position \\d+/\\d+: its MAC does not verify`));
        expect(feed.items).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ summary: expect.objectContaining({ reason: 'eventForged', problems: [macProblem] }) }),
            expect.objectContaining({ summary: expect.objectContaining({ reason: 'checkpointRefused', problems: [macProblem] }) }),
          ]),
        );
        // A genuine write after it is projected as ever.
        expect((await call(service.url, 'PUT', '/v2/contents/Product', { key: writeKey, body: { fields: { title: 'Chair', price: 40 } } })).status).toBe(200);
      } finally {
        await service.close();
      }
      const sql = await openStoreSql(engine, store.environment);
      try {
        // No checkpoint sees the forged row, not the one at the clean stop either, though a genuine write came after it.
        const [latest] = await sql.query<{ id: number; snapshot: string }>(`select id, body->>'snapshot' as snapshot from es_checkpoints order by id desc limit 1`);
        const [seen] = await sql.query<{ seen: boolean }>(`select pg_visible_in_snapshot(xid, $2::text::pg_snapshot) as seen from es_events where id = $1`, [forgedId, latest!.snapshot]);
        expect(seen).toEqual({ seen: false });
        const prices = (await sql.query<{ price: number }>(`select (doc->'fields'->>'price')::float8 as price from rm_content_items where doc->'fields'->>'title' in ('Lamp', 'Chair')`)).map((row) => row.price);
        expect(prices).toContain(40);
        expect(prices).not.toContain(0.01);
      } finally {
        await sql.close();
      }
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(logProblems(problems)).toEqual([expect.stringMatching(new RegExp(`^problem: stream ${itemStream} revision ${forgedRevision} at position \\d+/\\d+: its MAC does not verify`))]);
      // Nor does a rebuild project it.
      expect((await rebuildOffline(store.environment)).error?.message).toMatch(
        new RegExp(`^the event log holds an event the service did not write: stream ${itemStream} revision ${forgedRevision} at position \\d+/\\d+: its MAC does not verify`),
      );
    }, 60_000);

    it("catches an event's MAC removed, and then the MAC marker deleted so that events without one would pass as older", async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query('update es_events set mac = null where stream = $1 and revision = 1', [itemStream]);
      });
      const removed = await verify(store.environment);
      expect(logProblems(removed.problems)).toEqual([
        expect.stringMatching(new RegExp(`^problem: stream ${itemStream} revision 1 at position \\d+/\\d+: carries no MAC, though every event carries one \\(the signed MAC marker: MACs began with the log\\)`)),
      ]);
      await asOwner(engine, store, async (tx) => {
        await tx.query('delete from es_mac_marker');
      });
      const deleted = await verify(store.environment);
      expect(logProblems(deleted.problems)).toEqual([
        expect.stringMatching(/^problem: the MAC marker \(es_mac_marker\) is missing while \d+ events carry a MAC: it was deleted/),
      ]);
    });

    it('catches a forged checkpoint signed without the master key', async () => {
      await asOwner(engine, store, async (tx) => {
        await tx.query(`update es_checkpoints set signature = repeat('0', 64)`);
      });
      const { error, problems } = await verify(store.environment);
      expect(error).not.toBeNull();
      expect(problems[0]).toMatch(/^problem: checkpoint #1 of .*: its signature does not match/);
    });
  });
}
