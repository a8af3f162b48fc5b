import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { comparePositions, positionToString, START } from '../../infra/eventstore/port';
import { type BuiltService, startBuiltService } from '../support/built-service';
import { call } from '../support/http';
import { createTestDatabase } from '../support/postgres';
import { ADMIN_TOKEN } from '../support/service';
import { eventually } from '../support/waiting';

const INSTANCES = 3;
const SHARED_KEY = randomBytes(32).toString('base64');
const WRITERS = 6;

const TAKEOVER_LIMIT_MS = 5000;

interface Ledger {
  /** Per writer: the highest version a write of it was acknowledged (200) for. */
  readonly acknowledged: number[];
  pairs: number;
  readonly stale: string[];
  /** 503 "the change was saved, not yet readable": counted, never a stale read. */
  behind: number;
}

export interface ScaleOutVariant {
  readonly title: string;
  /** What every instance is started with besides its store, given the test database's URL (read replicas). */
  readonly environment?: (databaseUrl: string) => Promise<Record<string, string>>;
  /** Write-then-read pairs to run (SCALE_OUT_PAIRS overrides it). */
  readonly pairs: number;
}

/**
 * Three built services on one PostgreSQL database: one projects (the lease holder), the others
 * follow its moves. Writes through one instance are read through another; the holder is killed -9
 * mid-load and another takes its place.
 */
export function describeScaleOut(variant: ScaleOutVariant): void {
  const PAIRS = Number(process.env.SCALE_OUT_PAIRS ?? variant.pairs);
  /** The holder is killed once this many pairs are done, so the rest run across the takeover. */
  const KILL_AFTER_PAIRS = Math.round(PAIRS * 0.4);
  describe(`scale out: three instances on one PostgreSQL database${variant.title} (built services)`, () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let shared: Record<string, string> = {};
    const dataDirs: string[] = [];
    const services: BuiltService[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
      shared = (await variant.environment?.(database.url)) ?? {};
      for (let index = 0; index < INSTANCES; index++) dataDirs.push(await mkdtemp(join(tmpdir(), 'cms-scale-')));
    });

    afterAll(async () => {
      for (const service of services) {
        if (service.process.exitCode === null && service.process.signalCode === null) {
          service.process.kill('SIGTERM');
          await service.exited;
        }
      }
      await database?.drop();
      for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    });

    it('reads every write through another instance, and a kill -9 of the projecting instance is taken over within seconds with nothing stale, lost or gone back', async () => {
      // Instances of one store share one ENCRYPTION_KEY (an instance with a key of its own refuses to start).
      const environment = (index: number) => ({ ...shared, DATABASE_URL: database.url, DATA_DIR: dataDirs[index]!, ADMIN_TOKEN, ENCRYPTION_KEY: SHARED_KEY });
      services.push(await startBuiltService(environment(0), { firstStart: true }));
      services.push(...(await Promise.all([1, 2].map((index) => startBuiltService(environment(index))))));
      const { readKey, writeKey } = services[0]!.firstStart!;
      expect((await call(services[0]!.url, 'PUT', '/content-types', { key: writeKey, body: { name: 'Note', key: 'Note', fields: [{ key: 'title', type: 'Text' }] } })).status).toBe(200);

      const projecting = async (service: BuiltService) =>
        (await call(service.url, 'GET', '/admin/projections', { bearer: ADMIN_TOKEN }).catch(() => null))?.body?.running === true;
      const holders = async (among: readonly BuiltService[]) => (await Promise.all(among.map(projecting))).filter(Boolean).length;
      expect(await holders(services)).toBe(1);
      const holder = (await Promise.all(services.map(async (service) => ((await projecting(service)) ? service : null)))).find(Boolean)!;
      const survivors = services.filter((service) => service !== holder);
      let alive: readonly BuiltService[] = services;

      // Each writer owns one item and moves its title through versions; each version is read back through another instance.
      const items: string[] = [];
      for (let writer = 0; writer < WRITERS; writer++) {
        const created = await call(services[writer % INSTANCES]!.url, 'PUT', '/v2/preview-contents/Note', { key: writeKey, body: { fields: { title: 'v0' } } });
        expect(created.status).toBe(200);
        items.push(created.body.id);
      }
      const ledger: Ledger = { acknowledged: items.map(() => 0), pairs: 0, stale: [], behind: 0 };
      const version = (title: unknown) => Number(String(title).slice(1));

      let killedAt = 0;
      const killHolder = async () => {
        alive = survivors;
        killedAt = Date.now();
        holder.process.kill('SIGKILL');
        await holder.exited;
      };
      let killing: Promise<void> | null = null;

      const runWriter = async (writer: number) => {
        for (let next = 1; ledger.pairs < PAIRS; next++) {
          if (ledger.pairs >= KILL_AFTER_PAIRS) killing ??= killHolder();
          const via = alive[(writer + next) % alive.length]!;
          const saved = await call(via.url, 'PUT', '/v2/preview-contents/Note', { key: writeKey, body: { id: items[writer], fields: { title: `v${next}` } } }).catch(() => null);
          if (saved === null || saved.status !== 200) {
            // The holder died under this request (no answer), or the read models were not back within the wait (503: saved).
            if (saved?.status === 503) ledger.behind += 1;
            else if (saved !== null) throw new Error(`write answered ${saved.status}: ${JSON.stringify(saved.body)}`);
            continue;
          }
          ledger.acknowledged[writer] = next;
          // Another instance than the writer's; when the one chosen is killed under the read, a survivor answers it.
          const readThrough = (service: BuiltService) => call(service.url, 'GET', `/v2/preview-contents/Note/${items[writer]}`, { key: readKey });
          let readVia = alive.filter((service) => service !== via)[(writer + next) % (alive.length - 1)]!;
          let read = await readThrough(readVia).catch(() => null);
          if (read === null) {
            expect(alive).not.toContain(readVia);
            readVia = survivors.find((service) => service !== via) ?? survivors[0]!;
            read = await readThrough(readVia);
          }
          if (read.status !== 200 || version(read.body.fields?.title) < next) ledger.stale.push(`writer ${writer} wrote v${next} via ${via.url}, read ${JSON.stringify(read.body.fields?.title)} via ${readVia.url}`);
          ledger.pairs += 1;
        }
      };
      const load = Promise.all(Array.from({ length: WRITERS }, (_, writer) => runWriter(writer)));
      // The read models' group checkpoint, sampled through the load and the takeover: it never goes back.
      const store = new Client({ connectionString: database.url });
      // Ended by the database's drop when the test fails before it ends it.
      store.on('error', () => undefined);
      await store.connect();
      const checkpointWentBack: string[] = [];
      let loading = true;
      void load.finally(() => (loading = false));
      const sampling = (async () => {
        let last = START;
        while (loading) {
          const { rows } = await store.query<{ commit: string; prepare: string }>(
            `select commit::text, prepare::text from readstore_checkpoints where name like 'live:%' order by commit desc, prepare desc limit 1`,
          );
          const position = rows[0] ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : START;
          if (comparePositions(position, last) < 0) checkpointWentBack.push(`${positionToString(last)} -> ${positionToString(position)}`);
          else last = position;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();

      // Another instance projects within the limit after the kill, while the load goes on.
      await eventually(() => killedAt > 0, 30_000);
      await eventually(async () => (await holders(survivors)) === 1, TAKEOVER_LIMIT_MS + 5000);
      const takeoverMs = Date.now() - killedAt;
      await load;
      await killing;
      await sampling;
      await store.end();
      expect(checkpointWentBack).toEqual([]);

      expect(ledger.stale).toEqual([]);
      // Writes through the instances that do not project are answered once the holder's move reaches them: only the takeover may hold one per writer past the wait.
      expect(ledger.behind).toBeLessThanOrEqual(WRITERS);
      expect(ledger.pairs).toBeGreaterThanOrEqual(PAIRS);
      expect(takeoverMs).toBeLessThan(TAKEOVER_LIMIT_MS);
      // Nothing acknowledged is lost and no item went back: every survivor reads each item at its last acknowledged version or later.
      for (const service of survivors) {
        for (const [writer, id] of items.entries()) {
          const read = await call(service.url, 'GET', `/v2/preview-contents/Note/${id}`, { key: readKey });
          expect(version(read.body.fields?.title)).toBeGreaterThanOrEqual(ledger.acknowledged[writer]!);
        }
      }
      // The new holder took every event in order: its read models are at the head of the log.
      await eventually(async () => {
        const status = await call(survivors[0]!.url, 'GET', '/admin/projections', { bearer: ADMIN_TOKEN });
        return status.body.projections.every((projection: { lagEvents: number }) => projection.lagEvents === 0);
      }, 5000);
      console.log(`scale-out${variant.title}: ${ledger.pairs} write-then-read pairs on other instances, ${ledger.stale.length} stale, ${ledger.behind} answered 503 across the takeover, takeover in ${takeoverMs} ms`);
    }, Math.max(60_000, PAIRS * 150));
  });
}
