// Assets: upload throughput of one large file in 8 MB chunks (with the service's peak RSS),
// and resized image requests per second, first renders and cached, next to a bare express
// server in the same run. File system blobs; PostgreSQL when DATABASE_URL is set.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/assets.mjs [megabytes=1024] [seconds=10]
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import sharp from 'sharp';
import { freshDatabase, HEADER, load, row, startCeiling, startService } from './lib.mjs';

const megabytes = Number(process.argv[2] ?? 1024);
const duration = Number(process.argv[3] ?? 10);
const CHUNK = 8 * 1024 * 1024;
const PARALLEL_CHUNKS = 4;

/** Peak resident memory of a process, from /proc (Linux). */
async function peakRssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024);
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux): on a shared machine a steadier figure than MB/s. */
async function cpuSeconds(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function uploadLargeFile(service) {
  const totalFileSize = megabytes * 1024 * 1024;
  const totalChunkCount = Math.ceil(totalFileSize / CHUNK);
  const assetId = randomUUID();
  const fileUploadId = randomUUID();
  // One random 8 MB block, repeated with the chunk index stamped in, so the bench holds little memory.
  const block = randomBytes(CHUNK);
  const md5 = createHash('md5');
  const chunkBytes = (index) => {
    const size = Math.min(CHUNK, totalFileSize - index * CHUNK);
    const bytes = Buffer.from(block.subarray(0, size));
    bytes.writeUInt32BE(index, 0);
    return bytes;
  };
  for (let index = 0; index < totalChunkCount; index++) md5.update(chunkBytes(index));
  // Chunks differ only in their first four bytes, so the base64 of the block is made once and
  // only its first eight characters change: the bench spends its CPU sending, not encoding.
  const encodedBlock = block.toString('base64');
  const send = async (index) => {
    const bytes = chunkBytes(index);
    const stream = bytes.length === CHUNK ? bytes.subarray(0, 6).toString('base64') + encodedBlock.slice(8) : bytes.toString('base64');
    const fields = {
      assetId,
      fileUploadId,
      originalFileName: 'large.bin',
      chunkIndex: index,
      chunkSize: bytes.length,
      totalChunkCount,
      chunkByteOffset: index * CHUNK,
      totalFileSize,
      ...(index === 0 ? { contentMD5: md5.copy().digest('hex'), ignoreCheckDuplicates: true } : {}),
    };
    const answer = await fetch(`${service.url}/assets/uploadAsset`, {
      method: 'POST',
      headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
      body: `${JSON.stringify(fields).slice(0, -1)},"stream":"${stream}"}`,
    });
    if (!answer.ok) throw new Error(`chunk ${index}: ${answer.status} ${await answer.text()}`);
  };
  const started = Date.now();
  const cpuBefore = await cpuSeconds(service.pid);
  await send(0);
  // The rest a few at a time; the last one in assembles the file.
  let next = 1;
  let lastStarted = 0;
  await Promise.all(Array.from({ length: PARALLEL_CHUNKS }, async () => {
    while (next < totalChunkCount) {
      const index = next++;
      if (index === totalChunkCount - 1) lastStarted = Date.now();
      await send(index);
    }
  }));
  const assemblySeconds = (Date.now() - lastStarted) / 1000;
  const seconds = (Date.now() - started) / 1000;
  const serviceCpu = (await cpuSeconds(service.pid)) - cpuBefore;
  const asset = await (await fetch(`${service.url}/assets/${assetId}`, { headers: { 'x-api-key': service.readKey } })).json();
  if (asset.fileInfo?.hash !== md5.digest('hex')) throw new Error('the assembled file does not match');
  return { seconds, assemblySeconds, megabytesPerSecond: Math.round(megabytes / seconds), serviceCpu, peakRss: await peakRssMb(service.pid) };
}

async function main() {
  const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : null;
  const ceilingServer = await startCeiling({ ok: true });
  const service = await startService({ ...(database ? { DATABASE_URL: database.url } : {}), ...(process.env.SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS } : {}) });
  const engine = database ? 'PostgreSQL' : 'embedded';
  const rows = [];
  try {
    const ceiling = await load({ url: ceilingServer.url, duration });
    rows.push(row('ceiling: bare express, fixed body', ceiling, ceiling));

    const upload = await uploadLargeFile(service);

    const photo = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 90, g: 140, b: 200 } } }).jpeg({ quality: 85 }).toBuffer();
    const photoAnswer = await fetch(`${service.url}/assets/uploadAsset`, {
      method: 'POST',
      headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
      body: JSON.stringify({ assetId: randomUUID(), fileUploadId: randomUUID(), originalFileName: 'photo.jpg', chunkIndex: 0, chunkSize: photo.length, totalChunkCount: 1, chunkByteOffset: 0, totalFileSize: photo.length, stream: photo.toString('base64') }),
    });
    const { id } = await photoAnswer.json();
    const read = { 'x-api-key': service.readKey };
    let width = 100;
    const first = await load({ url: service.url, headers: read, duration, requests: [{ setupRequest: (request) => ({ ...request, path: `/images/${id}?width=${width++}` }) }] });
    rows.push(row(`${engine}: GET /images/{id}, first render of each (a new width per request, 1920×1080 JPEG source)`, first, ceiling));
    const cached = await load({ url: `${service.url}/images/${id}?width=400`, headers: read, duration });
    rows.push(row(`${engine}: GET /images/{id}?width=400, cached rendition`, cached, ceiling));
    rows.push(`| ${engine}: upload ${megabytes} MB in 8 MB chunks (${PARALLEL_CHUNKS} at a time), file system | ${upload.megabytesPerSecond} MB/s | | | ${upload.seconds.toFixed(1)} s in all, of which the last chunk with assembly ${upload.assemblySeconds.toFixed(1)} s; service CPU ${upload.serviceCpu.toFixed(1)} s, peak RSS ${upload.peakRss} MB | 0 |`);
  } finally {
    await service.close();
    await ceilingServer.close();
    await database?.drop();
  }
  console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0].model.trim()} · node ${process.version} · ${duration} s per scenario\n`);
  console.log(HEADER);
  for (const line of rows) console.log(line);
}

await main();
