import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's Chromium; `.ci/run` installs it when missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A page served on its own loopback origin whose script posts what it saw back to `/report`. */
export interface ReportingPage {
  readonly origin: string;
  /** Serves `script` in a page, opens it in a fresh headless Chromium and answers its report. */
  visit(script: string, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

export async function startReportingPage(): Promise<ReportingPage> {
  let script = '';
  let report: ((outcome: unknown) => void) | null = null;
  const server: Server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/report') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString())).on('end', () => {
        response.end();
        report?.(JSON.parse(body));
      });
      return;
    }
    response.setHeader('content-type', 'text/html');
    response.end(`<!doctype html><script>const tell = (outcome) => fetch('/report', { method: 'POST', body: JSON.stringify(outcome) });\n${script}</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    async visit(pageScript, timeoutMs = 30_000) {
      script = pageScript;
      const reported = new Promise<unknown>((resolve) => (report = resolve));
      const profile = await mkdtemp(join(tmpdir(), 'cms-chromium-'));
      // The flags keep Chromium from calling out to the (closed) network on start.
      const browser = spawn(
        CHROMIUM,
        ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, `${origin}/`],
        { detached: true, stdio: 'ignore' },
      );
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          reported,
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no report from ${origin} within ${timeoutMs} ms`)), timeoutMs))),
          new Promise((_, reject) => browser.once('error', reject)),
        ]);
      } finally {
        clearTimeout(timer);
        if (browser.pid !== undefined) process.kill(-browser.pid, 'SIGKILL');
        await rm(profile, { recursive: true, force: true });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
