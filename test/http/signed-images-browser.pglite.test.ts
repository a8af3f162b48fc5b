import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { startReportingPage, type ReportingPage } from '../support/browser';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const SIGNED_ROUTE = '/images/signed/:workspaceId/:assetId/:version';

/**
 * A page showing the image with a plain `<img src>` (no key, no CORS), then a second page of the
 * same site showing it again: it reports the natural width the browser decoded each time.
 */
const showTwice = (src: string) => `
  const show = () => new Promise((resolve) => {
    const img = document.createElement('img');
    img.onload = () => resolve(img.naturalWidth);
    img.onerror = () => resolve('not shown');
    img.src = ${JSON.stringify(src)};
    // The script runs in the head, before there is a body.
    document.documentElement.append(img);
  });
  show().then((width) => {
    if (location.search === '') location.href = '/?second=' + width;
    else tell({ first: Number(new URLSearchParams(location.search).get('second')), second: width });
  });`;

/** Answers of the signed-image route by status, from the service's own request metrics. */
async function signedAnswers(service: TestService): Promise<Record<string, number>> {
  const metrics = (await call(service.url, 'GET', '/metrics')).body as string;
  const counts: Record<string, number> = {};
  for (const [, labels, count] of metrics.matchAll(/^http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm)) {
    const status = /status="(\d+)"/.exec(labels!)?.[1];
    if (labels!.includes(`route="${SIGNED_ROUTE}"`) && status) counts[status] = Number(count);
  }
  return counts;
}

describe('signed image URLs in a real browser (headless Chromium)', () => {
  let page: ReportingPage;
  let service: TestService;

  beforeAll(async () => {
    [page, service] = await Promise.all([startReportingPage(), startTestService('pglite')]);
  });

  afterAll(async () => {
    await Promise.all([page?.close(), service?.close()]);
  });

  it('shows a 320-wide WebP rendition on a page of another origin with a plain <img src>, and the second page takes it from the cache', async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();
    const chunk = { assetId: randomUUID(), fileUploadId: randomUUID(), originalFileName: 'photo.png', chunkIndex: 0, chunkSize: photo.length, totalChunkCount: 1, chunkByteOffset: 0, totalFileSize: photo.length, stream: photo.toString('base64') };
    expect((await call(service.url, 'POST', '/assets/uploadAsset', { key: service.writeKey, body: chunk })).status).toBe(202);
    const signed = await call(service.url, 'POST', `/images/${chunk.assetId}/signed-urls`, { key: service.readKey, body: { width: 320, format: 'webp' } });
    // The service's PUBLIC_BASE_URL names port 0 in tests: the page is given the same path on the port it listens on.
    const address = new URL(signed.body.url as string);
    const src = `${service.url}${address.pathname}${address.search}`;
    expect(new URL(src).origin).not.toBe(page.origin);

    expect(await page.visit(showTwice(src))).toEqual({ first: 320, second: 320 });
    // One answer with the image; the second page's load sent nothing, or at most a revalidation answered 304.
    const answers = await signedAnswers(service);
    expect(answers['200']).toBe(1);
    expect(Object.keys(answers).filter((status) => status !== '200' && status !== '304')).toEqual([]);
    expect(answers['304'] ?? 0).toBeLessThanOrEqual(1);

    const image = await fetch(src);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(320);
  });
});
