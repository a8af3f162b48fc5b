// CORS in a real browser: headless Chromium opens a page on one loopback origin that asks the
// service, on another port, for a published list with a read key (a preflighted POST), and
// reports what it could read, X-Request-Id included (an exposed header). A page on an origin
// that CORS_ORIGINS does not name must be refused. Not part of CI (Chromium is not installed
// there); run it by hand: needs `chromium` (Debian: apt-get install chromium).
// Usage: node scripts/browser-cors-check.mjs   (compiles dist/ first when a source changed)
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPORT_TIMEOUT_MS = 60_000;
const ADMIN_TOKEN = 'browser-check-admin-token-0123456789';
const { buildIfStale } = createRequire(import.meta.url)('./build-if-stale.js');

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function startService(port, corsOrigins, dataDir) {
  const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'dist', 'src', 'main.js')], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'warn', CORS_ORIGINS: corsOrigins },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const keys = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const read = /read key:\s+(\S+)/.exec(output);
      const write = /write key:\s+(\S+)/.exec(output);
      if (read && write) resolve({ readKey: read[1], writeKey: write[1] });
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  return { ...keys, stop: () => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM')) };
}

async function publishArticle(api, writeKey) {
  const send = async (method, path, body) => {
    const answer = await fetch(`${api}${path}`, { method, headers: { 'x-api-key': writeKey, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
    return answer.json();
  };
  await send('PUT', '/content-types', { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text', required: true }] });
  const draft = await send('PUT', '/v2/preview-contents/Article', { fields: { title: 'Hello from another origin' } });
  await send('PUT', `/v2/preview-contents/Article/${draft.id}/publish`);
}

/** A page on http://127.0.0.1:<port> whose script calls the API and posts back what it saw. */
async function servePage(port, api, readKey) {
  let report;
  const reported = new Promise((resolve) => (report = resolve));
  const page = `<!doctype html><script>
    const tell = (outcome) => fetch('/report', { method: 'POST', body: JSON.stringify(outcome) });
    fetch(${JSON.stringify(`${api}/v2/contents/Article`)}, {
      method: 'POST',
      headers: { 'X-Api-Key': ${JSON.stringify(readKey)}, 'Content-Type': 'application/json' },
      body: JSON.stringify({ page: 1, pageSize: 10 }),
    })
      .then(async (answer) => tell({ status: answer.status, requestId: answer.headers.get('X-Request-Id'), titles: (await answer.json()).items.map((item) => item.fields.title) }))
      .catch((error) => tell({ refused: String(error) }));
  </script>`;
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/report') {
      let body = '';
      req.on('data', (chunk) => (body += chunk)).on('end', () => {
        res.end();
        report(JSON.parse(body));
      });
      return;
    }
    res.setHeader('content-type', 'text/html');
    res.end(page);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/`, reported, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Opens `url` in a fresh headless Chromium and waits for the page's report. */
async function visit(page) {
  const profile = await mkdtemp(join(tmpdir(), 'cms-chromium-'));
  const browser = spawn(
    'chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', `--user-data-dir=${profile}`, page.url],
    { detached: true, stdio: 'ignore' },
  );
  try {
    return await Promise.race([
      page.reported,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no report from ${page.url} within ${REPORT_TIMEOUT_MS} ms`)), REPORT_TIMEOUT_MS)),
      new Promise((_, reject) => browser.once('error', reject)),
    ]);
  } finally {
    process.kill(-browser.pid, 'SIGKILL');
    await rm(profile, { recursive: true, force: true });
  }
}

buildIfStale();
const [apiPort, allowedPort, strangerPort] = [await freePort(), await freePort(), await freePort()];
const api = `http://127.0.0.1:${apiPort}`;
const dataDir = await mkdtemp(join(tmpdir(), 'cms-browser-check-'));
const service = await startService(apiPort, `http://127.0.0.1:${allowedPort}`, dataDir);
const pages = [];
try {
  await publishArticle(api, service.writeKey);
  pages.push(await servePage(allowedPort, api, service.readKey), await servePage(strangerPort, api, service.readKey));
  const allowed = await visit(pages[0]);
  const stranger = await visit(pages[1]);
  console.log(`page on the allowed origin ${pages[0].url}: ${JSON.stringify(allowed)}`);
  console.log(`page on another origin     ${pages[1].url}: ${JSON.stringify(stranger)}`);
  const passed = allowed.status === 200 && allowed.titles?.length === 1 && Boolean(allowed.requestId) && Boolean(stranger.refused);
  console.log(passed ? 'PASS: the allowed origin read the list and its X-Request-Id; the other origin was refused' : 'FAIL');
  process.exitCode = passed ? 0 : 1;
} finally {
  for (const page of pages) await page.close();
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
