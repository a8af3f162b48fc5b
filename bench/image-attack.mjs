// Image renditions under attack: the built service's CPU and memory, and the latency of another
// workspace's GET (a cached rendition of its own), while (1) the recorded attack (a 10000×10000
// single-colour PNG asked for as an 8000-pixel AVIF at quality 100) and (2) a flood of 40
// distinct 2000-pixel AVIF renditions of it run. Each phase is watched for at most `seconds`;
// what the attacker has not heard by then counts as unanswered. Embedded store, file blobs.
// Usage: npm run build && node bench/image-attack.mjs [seconds=60] [recorded|flood|both]
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { ADMIN_TOKEN, startService } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 60);
const phases = process.argv[3] ?? 'both';
const FLOOD = 40;

/** CPU seconds (all threads), resident and peak resident memory of a process, from /proc (Linux). */
async function usage(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const megabytes = (name) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)[1]) / 1024);
  return { cpu: (Number(fields[11]) + Number(fields[12])) / 100, rss: megabytes('VmRSS'), peak: megabytes('VmHWM') };
}

async function main() {
  const service = await startService();
  try {
    const send = async (method, path, { key, bearer, body } = {}) => {
      const headers = { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) };
      return (await fetch(`${service.url}${path}`, { method, headers, body: body && JSON.stringify(body) })).json();
    };
    const upload = async (key, bytes, originalFileName) =>
      (await send('POST', '/assets/uploadAsset', { key, body: { assetId: randomUUID(), fileUploadId: randomUUID(), originalFileName, chunkIndex: 0, chunkSize: bytes.length, totalChunkCount: 1, chunkByteOffset: 0, totalFileSize: bytes.length, stream: bytes.toString('base64') } })).id;

    const hostilePng = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png({ compressionLevel: 9 }).toBuffer();
    const hostile = await upload(service.writeKey, hostilePng, 'hostile.png');
    const workspace = await send('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Bystander' } });
    const issue = async (policies) => (await send('POST', `/admin/workspaces/${workspace.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { name: policies[0], policies } })).key;
    const [bystanderRead, bystanderWrite] = [await issue(['ReadAccess']), await issue(['WriteAccess'])];
    const photo = await upload(bystanderWrite, await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 120, b: 200 } } }).jpeg().toBuffer(), 'photo.jpg');
    const probeUrl = `${service.url}/images/${photo}?width=120`;
    await fetch(probeUrl, { headers: { 'x-api-key': bystanderRead } });

    /** Sequential GETs of the bystander for `ms`: latency percentiles and statuses. */
    const probe = async (ms) => {
      const durations = [];
      const statuses = {};
      const end = Date.now() + ms;
      while (Date.now() < end) {
        const sentAt = performance.now();
        const status = await fetch(probeUrl, { headers: { 'x-api-key': bystanderRead }, signal: AbortSignal.timeout(Math.max(1, end - Date.now() + 100)) }).then((answer) => answer.status, () => 'unanswered');
        durations.push(performance.now() - sentAt);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
      durations.sort((a, b) => a - b);
      const at = (fraction) => durations[Math.min(durations.length - 1, Math.ceil(durations.length * fraction) - 1)].toFixed(0);
      return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${durations.at(-1).toFixed(0)} ms over ${durations.length} GETs ${JSON.stringify(statuses)}`;
    };
    const phase = async (name, paths) => {
      const before = await usage(service.pid);
      const answers = paths.map((path) =>
        fetch(`${service.url}${path}`, { headers: { 'x-api-key': service.readKey }, signal: AbortSignal.timeout(seconds * 1000) }).then((answer) => String(answer.status), () => 'unanswered'),
      );
      const bystander = await probe(seconds * 1000);
      const after = await usage(service.pid);
      const counts = {};
      for (const status of await Promise.all(answers)) counts[status] = (counts[status] ?? 0) + 1;
      console.log(`| ${name} | ${JSON.stringify(counts)} | ${(after.cpu - before.cpu).toFixed(1)} | ${before.rss} → peak ${after.peak} | ${bystander} |`);
    };

    console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0].model.trim()} · node ${process.version} · ${seconds} s per phase\n`);
    console.log(`bystander idle: ${await probe(3000)}\n`);
    console.log('| phase | attacker answers | service CPU s (bystander GETs included) | RSS MB | bystander GET |\n|---|---|---|---|---|');
    if (phases !== 'flood') await phase('recorded attack: width=8000&format=avif&quality=100', [`/images/${hostile}?width=8000&format=avif&quality=100`]);
    if (phases !== 'recorded') await phase(`flood: ${FLOOD} distinct width≈2000 AVIF q100`, Array.from({ length: FLOOD }, (_, index) => `/images/${hostile}?width=${2000 - index}&format=avif&quality=100`));
  } finally {
    await service.close();
  }
}

await main();
