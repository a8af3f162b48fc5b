import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Run from the TypeScript sources (the tests, under ts-jest), a worker has no compiled file
 * to load: this loader compiles each `.ts` module as the worker requires it, with the
 * `typescript` package the tests already use, keeping the output in the system's temporary
 * directory keyed by the source's hash so that only the first worker pays for compiling.
 */
const TYPESCRIPT_HOOK = `
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const cache = join(tmpdir(), 'cms-worker-ts-cache');
mkdirSync(cache, { recursive: true });
let typescript;
require.extensions['.ts'] = (module, filename) => {
  const source = readFileSync(filename, 'utf8');
  const compiledFile = join(cache, createHash('sha256').update(filename).update(source).digest('hex') + '.js');
  let compiled;
  try {
    compiled = readFileSync(compiledFile, 'utf8');
  } catch {
    typescript ??= require(require.resolve('typescript', { paths: [filename] }));
    const options = { module: typescript.ModuleKind.CommonJS, target: typescript.ScriptTarget.ES2022, esModuleInterop: true };
    compiled = typescript.transpileModule(source, { compilerOptions: options, fileName: filename }).outputText;
    const partial = compiledFile + '.' + process.pid + '.' + Math.random().toString(36).slice(2);
    writeFileSync(partial, compiled);
    renameSync(partial, compiledFile);
  }
  module._compile(compiled, filename);
};
`;
const TYPESCRIPT_LOADER = `${TYPESCRIPT_HOOK}require(require('node:worker_threads').workerData.entry);`;
/** For a child process, whose entry is its first argument. */
const TYPESCRIPT_PROCESS_LOADER = `${TYPESCRIPT_HOOK}require(process.argv[1]);`;

/**
 * Starts the worker thread whose entry is the module `name` in `directory` (beside this file
 * unless given): its compiled `.js` in the built service, its `.ts` source (compiled on load)
 * when run from sources. The entry reads its own data from `workerData.data`.
 */
export function startWorker(name: string, data: unknown, options: Omit<WorkerOptions, 'workerData' | 'eval'> = {}, directory = __dirname): Worker {
  const built = join(directory, `${name}.js`);
  if (existsSync(built)) return new Worker(built, { ...options, workerData: { data } });
  return new Worker(TYPESCRIPT_LOADER, { ...options, eval: true, workerData: { entry: join(directory, `${name}.ts`), data } });
}

/**
 * Starts a child process whose entry is the module `name` in `directory`, as startWorker finds
 * it, with an IPC channel that carries Buffers ('advanced' serialization) and an empty
 * environment: the child sees none of the service's secrets.
 */
export function startChildProcess(name: string, directory: string): ChildProcess {
  const built = join(directory, `${name}.js`);
  const args = existsSync(built) ? [built] : ['-e', TYPESCRIPT_PROCESS_LOADER, join(directory, `${name}.ts`)];
  return spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced', env: {} });
}
