import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { QueryOptions, SqlClient, SqlQueryable } from './client';
import type { WorkerMessage, WorkerQuestion, WorkerSettings } from './pglite-messages';
import { startWorker } from './worker-script';

/**
 * PostgreSQL settings of the embedded engine, added to PGlite's own. shared_buffers: PGlite's
 * default of 128 MB is resident from the start; the embedded store is for small data sets and
 * the operating system caches its files anyway. plan_cache_mode: statements are prepared once
 * (infra/sql/pglite-statements.ts) but planned for their values each time, as on PostgreSQL.
 * full_page_writes: a page image in the WAL after each checkpoint guards against a page torn by
 * a power loss, which PGlite, running with fsync off, does not survive anyway; a killed process
 * tears no page (its writes reach the file whole), and checkpoints come every
 * EMBEDDED_CHECKPOINT_WAL_MB, which would otherwise fill the WAL with images. min_wal_size: the
 * WAL files a checkpoint keeps for reuse at the least (two, PostgreSQL's minimum); max_wal_size
 * is set from the checkpoint interval (walSettings). default_statistics_target: an analyze
 * samples 300 rows per unit of target, and on this engine it holds the one thread every
 * statement waits for: at PostgreSQL's 100 (30,000 rows) the analyze of a table of 100,000 items
 * held it 0.3-0.8 s, at 10 (3,000 rows) 30-90 ms (bench/RESULTS.md, 2026-11-30 13:29 UTC).
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '32MB',
  default_statistics_target: '10',
  plan_cache_mode: 'force_custom_plan',
  full_page_writes: 'off',
  min_wal_size: '32MB',
};

/** The default of EMBEDDED_CHECKPOINT_WAL_MB: WAL written between two checkpoints of the embedded engine. */
export const DEFAULT_CHECKPOINT_WAL_MB = 64;

/**
 * In single-user mode PostgreSQL neither checkpoints when max_wal_size is reached nor on a
 * timer (the checkpointer process does that): the worker does (pglite-maintenance.ts). Here
 * max_wal_size only caps the WAL files a checkpoint keeps for reuse: one interval's worth, so the
 * WAL directory holds at most about two intervals (PGlite's default of 1 GB kept 1 GB of them).
 */
function walSettings(checkpointWalMb: number): Record<string, string> {
  return { max_wal_size: `${Math.max(32, checkpointWalMb)}MB` };
}

export interface PgliteOptions {
  /** Replace settings of EMBEDDED_SETTINGS (measurements). */
  readonly settings?: Readonly<Record<string, string>>;
  /** WAL written between two checkpoints, in MB (EMBEDDED_CHECKPOINT_WAL_MB); DEFAULT_CHECKPOINT_WAL_MB by default. */
  readonly checkpointWalMb?: number;
  /**
   * An in-memory database starts from this image of a data directory (a tar made by PGlite's
   * dumpDataDir) instead of creating one, which takes PGlite seconds (tests open many).
   */
  readonly image?: Uint8Array;
}

/** SQLSTATE connection_failure: the embedded engine stopped, answered like a lost connection (503). */
const CONNECTION_FAILURE = '08006';
/** The least time from the end of one start of the engine (ready or failed) to the next. */
const RESTART_INTERVAL_MS = 1000;

/** Node's WebAssembly global (its typings come with the DOM library, not loaded here). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WorkerSettings['modules']['pgliteWasmModule']> };

let compiled: Promise<WorkerSettings['modules']> | undefined;

/**
 * PGlite's WebAssembly (the files beside its entry point), compiled once: a worker that starts
 * from the same modules skips compiling and optimising them again, halving its start.
 */
function wasmModules(): Promise<WorkerSettings['modules']> {
  compiled ??= (async () => {
    const dist = dirname(require.resolve('@electric-sql/pglite'));
    const compile = async (file: string) => WebAssembly.compile(await readFile(join(dist, file)));
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([compile('pglite.wasm'), compile('initdb.wasm')]);
    return { pgliteWasmModule, initdbWasmModule };
  })();
  return compiled;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

function engineStopped(reason: string, cause?: unknown): Error {
  return Object.assign(new Error(`the embedded database stopped: ${reason}`, { cause }), { code: CONNECTION_FAILURE });
}

/**
 * PGlite in a worker thread of its own (infra/sql/pglite-worker.ts), so that the statements
 * it runs synchronously do not stall the service's requests. Like a connection to a server,
 * the engine can be lost: its worker failing or exiting fails the statements in flight with
 * SQLSTATE 08006, and the next statement starts it again on the same data directory (at
 * most once a second), listening again on every channel (each told with an empty payload, as
 * notifications may have been missed). A database kept in memory cannot come back.
 *
 * The engine has no statement timeout: `statement_timeout` is accepted but never fires (the
 * WASM build has no timer signal; a 3 s pg_sleep under a 500 ms timeout runs its 3 s), so
 * reads are bounded by the limits on their input instead (docs/operations.md, "Costly input").
 */
export class PgliteSqlClient implements SqlClient {
  readonly engine = 'pglite' as const;
  private worker: Worker | null = null;
  private starting: Promise<Worker> | null = null;
  /** When the last start of the engine ended, ready or failed; 0 before the first. */
  private lastStart = 0;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  private constructor(private readonly settings: WorkerSettings) {}

  /** `dataDir` undefined keeps everything in memory (tests). */
  static async open(dataDir?: string, options: PgliteOptions = {}): Promise<PgliteSqlClient> {
    const checkpointWalMb = options.checkpointWalMb ?? DEFAULT_CHECKPOINT_WAL_MB;
    const settings: WorkerSettings = {
      ...(dataDir ? { dataDir } : {}),
      ...(options.image && !dataDir ? { image: options.image } : {}),
      settings: { ...EMBEDDED_SETTINGS, ...walSettings(checkpointWalMb), ...options.settings },
      maintenance: { checkpointWalBytes: checkpointWalMb * 1024 * 1024 },
      modules: await wasmModules(),
    };
    if (dataDir) {
      await mkdir(dataDir, { recursive: true });
      // Creating a database takes PGlite hundreds of megabytes it never gives back; a worker of
      // its own creates it and exits with them.
      if (!existsSync(join(dataDir, 'PG_VERSION'))) {
        const creator = new PgliteSqlClient(settings);
        await creator.running();
        await creator.close();
      }
    }
    const client = new PgliteSqlClient(settings);
    await client.running();
    return client;
  }

  /** One connection, whose transactions never run beside another's: nothing to tell the log's readers apart from. */
  forReadModels(): SqlClient {
    return this;
  }

  query<Row>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Row[]> {
    return this.request({ kind: 'query', sql, params, ...(options?.prepare === 'generic' ? { genericPlan: true } : {}) }) as Promise<Row[]>;
  }

  /** No separate read path: the engine has no statement timeout to give reads (see above). */
  read<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.query<Row>(sql, params);
  }

  /** A transaction lives in the worker that began it: once that worker is gone, so is the transaction, and its statements fail. */
  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    const worker = await this.running();
    const inTransaction = (question: WorkerQuestion) => this.send(worker, question);
    const transaction = (await this.request({ kind: 'begin' }, worker)) as number;
    try {
      const result = await work({
        query: <Row>(sql: string, params: unknown[] = []) => inTransaction({ kind: 'query', sql, params, transaction }) as Promise<Row[]>,
      });
      await inTransaction({ kind: 'commit', transaction });
      return result;
    } catch (error) {
      await inTransaction({ kind: 'rollback', transaction }).catch(() => undefined);
      throw error;
    }
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const existing = this.listeners.get(channel);
    if (existing) existing.add(onNotify);
    else {
      await this.request({ kind: 'listen', channel });
      this.listeners.set(channel, new Set([onNotify]));
    }
    return async () => {
      const callbacks = this.listeners.get(channel);
      if (!callbacks?.delete(onNotify) || callbacks.size > 0) return;
      this.listeners.delete(channel);
      if (!this.closed) await this.request({ kind: 'unlisten', channel }).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker ?? (await this.starting?.catch(() => null)) ?? null;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    try {
      await this.send(worker, { kind: 'close' });
    } finally {
      await worker.terminate();
      await exited;
    }
  }

  private async request(question: WorkerQuestion, worker?: Worker): Promise<unknown> {
    if (this.closed) throw engineStopped('the client is closed');
    return this.send(worker ?? (await this.running()), question);
  }

  private send(worker: Worker, question: WorkerQuestion): Promise<unknown> {
    if (this.worker !== worker) return Promise.reject(engineStopped('its thread is gone'));
    const id = ++this.nextId;
    const answer = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // An idle engine does not keep the process alive, as a library in the process would not.
    if (this.pending.size === 1) worker.ref();
    worker.postMessage({ ...question, id });
    return answer;
  }

  private settle(id: number, outcome: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    outcome(pending);
  }

  /** The worker serving statements, started (again) when there is none. */
  private running(): Promise<Worker> {
    if (this.worker) return Promise.resolve(this.worker);
    if (this.starting) return this.starting;
    const restart = this.lastStart > 0;
    if (restart && (!this.settings.dataDir || Date.now() - this.lastStart < RESTART_INTERVAL_MS)) {
      return Promise.reject(engineStopped(this.settings.dataDir ? 'starting it again shortly' : 'an in-memory database cannot be started again'));
    }
    this.starting = this.start(restart)
      .catch((error: unknown) => {
        throw restart ? engineStopped('it could not be started again', error) : error;
      })
      .finally(() => {
        this.starting = null;
        this.lastStart = Date.now();
      });
    return this.starting;
  }

  private async start(restart: boolean): Promise<Worker> {
    const worker = startWorker('pglite-worker', this.settings);
    await new Promise<void>((resolve, reject) => {
      const failed = (error: unknown) => reject(error instanceof Error ? error : engineStopped(`exited with code ${String(error)}`));
      worker.once('error', failed);
      worker.once('exit', failed);
      worker.once('message', (message: WorkerMessage) => {
        worker.off('error', failed);
        worker.off('exit', failed);
        if (message.kind === 'ready') resolve();
        else reject(new Error(`the embedded database answered ${message.kind} before it was ready`));
      });
    });
    worker.on('message', (message: WorkerMessage) => this.received(message));
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const id of [...this.pending.keys()]) this.settle(id, (pending) => pending.reject(engineStopped(reason)));
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`its thread exited with code ${code}`));
    this.worker = worker;
    if (restart) {
      for (const [channel, callbacks] of this.listeners) {
        await this.send(worker, { kind: 'listen', channel });
        for (const callback of callbacks) callback('');
      }
    }
    worker.unref();
    return worker;
  }

  private received(message: WorkerMessage): void {
    switch (message.kind) {
      case 'answer':
        return this.settle(message.id, (pending) => pending.resolve(message.value));
      case 'rows':
        return this.settle(message.id, (pending) => pending.resolve(JSON.parse(message.json)));
      case 'failure':
        return this.settle(message.id, (pending) => pending.reject(Object.assign(new Error(message.error.message), message.error.fields)));
      case 'notify':
        for (const callback of this.listeners.get(message.channel) ?? []) callback(message.payload);
        return;
      case 'ready':
        return;
    }
  }
}
