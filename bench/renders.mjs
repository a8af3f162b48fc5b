// Rendition throughput: four clients ask one first render after another (a new width each) for
// 5 s, within the render queue's limits (no 503), against a 1920x1080 JPEG. Embedded store.
// Usage: npm run build && node bench/renders.mjs
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { startService } from './lib.mjs';
const service = await startService({});
try {
  const photo = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 90, g: 140, b: 200 } } }).jpeg({ quality: 85 }).toBuffer();
  const answer = await fetch(`${service.url}/assets/uploadAsset`, { method: 'POST', headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
    body: JSON.stringify({ assetId: randomUUID(), fileUploadId: randomUUID(), originalFileName: 'photo.jpg', chunkIndex: 0, chunkSize: photo.length, totalChunkCount: 1, chunkByteOffset: 0, totalFileSize: photo.length, stream: photo.toString('base64') }) });
  const { id } = await answer.json();
  const started = performance.now();
  let ok = 0; let other = 0; let width = 100;
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (performance.now() - started < 5000) {
      const r = await fetch(`${service.url}/images/${id}?width=${width++}`, { headers: { 'x-api-key': service.readKey } });
      await r.arrayBuffer();
      if (r.status === 200) ok++; else other++;
    }
  }));
  console.log(`4 clients, 5 s: ${ok} first renders (${(ok / ((performance.now() - started) / 1000)).toFixed(1)}/s), ${other} other answers`);
} finally { await service.close(); }
