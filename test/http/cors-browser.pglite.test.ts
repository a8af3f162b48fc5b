import { call } from '../support/http';
import { startReportingPage, type ReportingPage } from '../support/browser';
import { startTestService, type TestService } from '../support/service';

/** The script of a front end that lists published articles with a read key (a preflighted POST). */
const listArticles = (api: string, readKey: string) => `
  fetch(${JSON.stringify(`${api}/v2/contents/Article`)}, {
    method: 'POST',
    headers: { 'X-Api-Key': ${JSON.stringify(readKey)}, 'Content-Type': 'application/json' },
    body: JSON.stringify({ page: 1, pageSize: 10 }),
  })
    .then(async (answer) => tell({ status: answer.status, requestId: answer.headers.get('X-Request-Id'), titles: (await answer.json()).items.map((item) => item.fields.title) }))
    .catch((error) => tell({ refused: String(error) }));`;

describe('CORS in a real browser (headless Chromium)', () => {
  let allowedPage: ReportingPage;
  let strangerPage: ReportingPage;
  let service: TestService;

  beforeAll(async () => {
    [allowedPage, strangerPage] = await Promise.all([startReportingPage(), startReportingPage()]);
    service = await startTestService('pglite', { CORS_ORIGINS: allowedPage.origin });
    const write = (method: string, path: string, body?: unknown) => call(service.url, method, path, { key: service.writeKey, body });
    await write('PUT', '/content-types', { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text', required: true }] });
    const draft = await write('PUT', '/v2/preview-contents/Article', { fields: { title: 'Hello from another origin' } });
    expect((await write('PUT', `/v2/preview-contents/Article/${draft.body.id}/publish`)).status).toBe(200);
  });

  afterAll(async () => {
    await Promise.all([allowedPage?.close(), strangerPage?.close(), service?.close()]);
  });

  it('lets a page on an origin named in CORS_ORIGINS list published content with a read key and read its X-Request-Id', async () => {
    const outcome = await allowedPage.visit(listArticles(service.url, service.readKey));
    expect(outcome).toEqual({ status: 200, requestId: expect.any(String), titles: ['Hello from another origin'] });
  });

  it('refuses the same request from a page on an origin CORS_ORIGINS does not name', async () => {
    const outcome = await strangerPage.visit(listArticles(service.url, service.readKey));
    expect(outcome).toEqual({ refused: expect.stringContaining('Failed to fetch') });
  });
});
