import type { ChildProcess } from 'node:child_process';
import { startChildProcess } from '../sql/worker-script';
import { errorOfReply, RENDER_PROCESS_READY, type RenderJob, type RenderReply } from './render-messages';
import { type PixelRenderer, RenderTimeoutError } from './renderer';

/**
 * Runs renderPixels in child processes, one render per process at a time, and kills the process
 * of a render that passes the timeout, which frees its CPU and memory at once. A worker thread
 * would not do: Worker.terminate() waits until the native call it is in returns, and librsvg
 * rasterises an SVG in one call that libvips's own timeout never interrupts. A process that
 * answered is kept for the next render, so there are never more than renders ran at once
 * (RenderQueue bounds those). The timeout bounds the render, not the start of a new process
 * (node and sharp loading, a second or more on a loaded machine), which has a bound of its own.
 */
/** How long a new render process may take to load its code. */
const PROCESS_START_TIMEOUT_MS = 30_000;

export class RenderProcesses {
  private readonly idle: ChildProcess[] = [];
  private readonly busy = new Set<ChildProcess>();
  private closed = false;

  constructor(private readonly timeoutMs: number) {}

  readonly render: PixelRenderer = async (input, format, request) => {
    const child = this.idle.pop() ?? (await this.start());
    this.busy.add(child);
    return new Promise<Buffer>((resolve, reject) => {
      const finish = (keep: boolean) => {
        clearTimeout(timer);
        child.off('message', answered).off('exit', stopped).off('error', stopped);
        this.busy.delete(child);
        if (keep && !this.closed) this.idle.push(child);
        else child.kill('SIGKILL');
      };
      const answered = (reply: RenderReply) => {
        finish(true);
        if ('output' in reply) resolve(Buffer.from(reply.output.buffer, reply.output.byteOffset, reply.output.byteLength));
        else reject(errorOfReply(reply.error));
      };
      const stopped = (cause: unknown) => {
        finish(false);
        reject(new Error(`the render process stopped before it answered (${cause instanceof Error ? cause.message : `exit ${String(cause)}`})`));
      };
      const timer = setTimeout(() => {
        finish(false);
        reject(new RenderTimeoutError(this.timeoutMs));
      }, this.timeoutMs);
      child.on('message', answered).once('exit', stopped).once('error', stopped);
      child.send({ input, format, request } satisfies RenderJob);
    });
  };

  /** A new render process, once it says it is ready. */
  private start(): Promise<ChildProcess> {
    const child = startChildProcess('render-child', __dirname);
    this.busy.add(child);
    return new Promise<ChildProcess>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        child.off('message', ready).off('exit', stopped).off('error', stopped);
        this.busy.delete(child);
      };
      const ready = (message: unknown) => {
        if (message !== RENDER_PROCESS_READY) return;
        settle();
        if (!this.closed) return resolve(child);
        child.kill('SIGKILL');
        reject(new Error('the renderer was closed'));
      };
      const stopped = (cause: unknown) => {
        settle();
        child.kill('SIGKILL');
        reject(new Error(`the render process stopped while it started (${cause instanceof Error ? cause.message : `exit ${String(cause)}`})`));
      };
      const timer = setTimeout(() => stopped(new Error(`not ready within ${PROCESS_START_TIMEOUT_MS} ms`)), PROCESS_START_TIMEOUT_MS);
      child.on('message', ready).once('exit', stopped).once('error', stopped);
    });
  }

  /** The render processes alive now, idle or rendering. */
  pids(): number[] {
    return [...this.idle, ...this.busy].map((child) => child.pid!);
  }

  close(): void {
    this.closed = true;
    for (const child of [...this.idle, ...this.busy]) child.kill('SIGKILL');
    this.idle.length = 0;
  }
}
