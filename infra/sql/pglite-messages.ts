import type { PGliteOptions } from '@electric-sql/pglite';
import type { MaintenanceSettings } from './pglite-maintenance';

/** What the service asks of the PGlite worker thread (infra/sql/pglite-worker.ts). */
export type WorkerQuestion =
  | { readonly kind: 'query'; readonly sql: string; readonly params: readonly unknown[]; readonly transaction?: number; readonly genericPlan?: boolean }
  | { readonly kind: 'begin' }
  | { readonly kind: 'commit' | 'rollback'; readonly transaction: number }
  | { readonly kind: 'listen' | 'unlisten'; readonly channel: string }
  | { readonly kind: 'close' };

/** A question with the id its answer repeats. */
export type WorkerRequest = WorkerQuestion & { readonly id: number };

/** An error as it crosses the thread boundary: its message and its own fields (SQLSTATE `code`, detail, ...). */
export interface WorkerError {
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

export type WorkerMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'answer'; readonly id: number; readonly value: unknown }
  /** Rows whose every column is a JSON type, sent as JSON text (see the worker). */
  | { readonly kind: 'rows'; readonly id: number; readonly json: string }
  | { readonly kind: 'failure'; readonly id: number; readonly error: WorkerError }
  | { readonly kind: 'notify'; readonly channel: string; readonly payload: string };

/** What the worker is started with. */
export interface WorkerSettings {
  /** Undefined keeps the database in memory. */
  readonly dataDir?: string;
  /** For a database in memory: the data directory image (a dumpDataDir tar) it starts from. */
  readonly image?: Uint8Array;
  /** PostgreSQL settings added to PGlite's own start parameters. */
  readonly settings: Readonly<Record<string, string>>;
  /** When the worker checkpoints (PGlite's PostgreSQL has no checkpointer of its own). */
  readonly maintenance: MaintenanceSettings;
  /** PGlite's WebAssembly, compiled once per process: workers given the same modules share the compiled code. */
  readonly modules: Required<Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule'>>;
}
