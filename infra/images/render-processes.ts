import type { ChildProcess } from 'node:child_process';
import { startChildProcess } from '../sql/worker-script';
import { errorOfReply, type RenderJob, type RenderReply } from './render-messages';
import { type PixelRenderer, RenderTimeoutError } from './renderer';

/**
 * Runs renderPixels in child processes, one render per process at a time, and kills the process
 * of a render that passes the timeout, which frees its CPU and memory at once. A worker thread
 * would not do: Worker.terminate() waits until the native call it is in returns, and librsvg
 * rasterises an SVG in one call that libvips's own timeout never interrupts. A process that
 * answered is kept for the next render, so there are never more than renders ran at once
 * (RenderQueue bounds those).
 */
export class RenderProcesses {
  private readonly idle: ChildProcess[] = [];
  private readonly busy = new Set<ChildProcess>();
  private closed = false;

  constructor(private readonly timeoutMs: number) {}

  readonly render: PixelRenderer = (input, format, request) => {
    const child = this.idle.pop() ?? startChildProcess('render-child', __dirname);
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
