/**
 * The worker thread that owns the embedded database: PGlite runs PostgreSQL compiled to
 * WebAssembly synchronously, so on the service's own thread every statement would stall
 * every request. Here statements run one at a time (PGlite is one connection); a transaction
 * holds the database from `begin` to `commit`/`rollback` and its statements are the only
 * ones that run meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Mutex, PGlite, type Results, types } from '@electric-sql/pglite';
import type { pg_trgm as Trigrams } from '@electric-sql/pglite/dist/contrib/pg_trgm';
import { EmbeddedMaintenance } from './pglite-maintenance';
import type { WorkerError, WorkerMessage, WorkerRequest, WorkerSettings } from './pglite-messages';
import { PreparedStatements } from './pglite-statements';

// The package exports contrib modules by subpath only, which this project's module resolution does not read for types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: typeof Trigrams };

const port = parentPort!;
const { dataDir, image, settings, modules, maintenance: maintenanceSettings } = (workerData as { data: WorkerSettings }).data;

/** Column types whose parsed values JSON carries unchanged (PGlite parses int8 to a number and numeric to a string). */
const JSON_SAFE_TYPES = new Set<number>([types.BOOL, types.INT2, types.INT4, types.INT8, types.OID, types.TEXT, types.VARCHAR, types.BPCHAR, types.CHAR, 19 /* name */, types.UUID, types.NUMERIC, types.JSON, types.JSONB]);

/**
 * Rows of JSON types go back as JSON text, parsed by the receiving side: the objects it gets
 * then belong to its own realm, which matters where that side is a vm context (tests under
 * jest, whose toStrictEqual and instanceof look at prototypes), and JSON.parse is as fast as
 * copying structured data. Other rows (dates, bytes, floats that may be NaN) are copied.
 */
function answer(id: number, results: Results): WorkerMessage {
  if (results.fields.every((field) => JSON_SAFE_TYPES.has(field.dataTypeID))) {
    try {
      return { kind: 'rows', id, json: JSON.stringify(results.rows) };
    } catch {
      // A value JSON cannot carry (a bigint): copied below.
    }
  }
  return { kind: 'answer', id, value: results.rows };
}

/** An error's message and its own plain fields (SQLSTATE `code`, detail, constraint, ...); not PGlite's message `name` and `length`. */
function describe(error: unknown): WorkerError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields = Object.fromEntries(
    Object.entries(error).filter(([field, value]) => field !== 'name' && field !== 'length' && ['string', 'number', 'boolean'].includes(typeof value)),
  );
  return { message: error.message, fields };
}

async function serve(): Promise<void> {
  const startParams = [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  // pg_trgm backs the substring indexes of typed read models (end, contains).
  const db = new PGlite({ ...(dataDir ? { dataDir } : {}), ...(image ? { loadDataDir: new Blob([image]) } : {}), ...modules, startParams, extensions: { pg_trgm } });
  await db.waitReady;
  const statements = new PreparedStatements(db);
  /** One holder at a time: a lone statement, a transaction (from begin to its end), LISTEN or close. */
  const turns = new Mutex();
  const transactions = new Map<number, () => void>();
  const unlisteners = new Map<string, () => Promise<void>>();
  let nextTransaction = 0;

  const alone = <T>(work: () => Promise<T>): Promise<T> => turns.runExclusive(work);
  const maintenance = new EmbeddedMaintenance(db, alone, maintenanceSettings);
  maintenance.start();
  const ownTurn = (transaction: number) => {
    const release = transactions.get(transaction);
    if (!release) throw new Error(`transaction ${transaction} is not open`);
    return release;
  };

  const done = (id: number): WorkerMessage => ({ kind: 'answer', id, value: null });

  const handle = async (request: WorkerRequest): Promise<WorkerMessage> => {
    switch (request.kind) {
      case 'query': {
        const { sql, params } = request;
        maintenance.ranStatement();
        if (request.transaction === undefined) return answer(request.id, await alone(() => statements.run(sql, params, request.genericPlan === true)));
        ownTurn(request.transaction);
        return answer(request.id, await statements.run(sql, params));
      }
      case 'begin': {
        const release = await turns.acquire();
        try {
          await statements.run('begin', []);
        } catch (error) {
          release();
          throw error;
        }
        transactions.set(++nextTransaction, release);
        return { kind: 'answer', id: request.id, value: nextTransaction };
      }
      case 'commit':
      case 'rollback': {
        const release = ownTurn(request.transaction);
        transactions.delete(request.transaction);
        try {
          if (request.kind === 'commit') await statements.commit();
          else await statements.run('rollback', []);
        } finally {
          // A failed COMMIT has ended the transaction too (PostgreSQL rolls it back).
          if (db.isInTransaction()) await statements.run('rollback', []).catch(() => undefined);
          release();
        }
        return done(request.id);
      }
      case 'listen':
        await alone(async () => {
          if (unlisteners.has(request.channel)) return;
          unlisteners.set(request.channel, await db.listen(request.channel, (payload) => send({ kind: 'notify', channel: request.channel, payload })));
        });
        return done(request.id);
      case 'unlisten':
        await alone(async () => {
          await unlisteners.get(request.channel)?.();
          unlisteners.delete(request.channel);
        });
        return done(request.id);
      case 'close':
        maintenance.stop();
        await alone(async () => {
          if (!db.closed) await db.close();
        });
        return done(request.id);
    }
  };

  port.on('message', (request: WorkerRequest) => {
    handle(request).then(send, (error: unknown) => send({ kind: 'failure', id: request.id, error: describe(error) }));
  });
  send({ kind: 'ready' });
}

function send(message: WorkerMessage): void {
  port.postMessage(message);
}

void serve();
