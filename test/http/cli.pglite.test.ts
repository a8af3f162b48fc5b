import { runCli } from '../../src/cli/operator';
import { captureCliOutput } from '../support/cli-output';
import { client } from '../support/http';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';

describe('operator CLI', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('pglite');
    await client(service.url)('PUT', '/content-types', { key: service.writeKey, body: { name: 'Article', key: 'Article', fields: [] } });
  });
  afterAll(() => service.close());

  const against = (url: string) => ['--url', url, '--token', ADMIN_TOKEN];

  it('reports projection status and manages workspaces and keys through the running service', async () => {
    const status = captureCliOutput();
    await runCli(['projections', 'status', ...against(service.url)], service.environment, status.output);
    const report = JSON.parse(status.lines.join('\n'));
    expect(report.projections.map((projection: { name: string }) => projection.name)).toContain('content_types');

    const created = captureCliOutput();
    await runCli(['workspaces', 'create', 'Docs', 'site', ...against(service.url)], service.environment, created.output);
    const workspace = JSON.parse(created.lines.join('\n'));
    expect(workspace.name).toBe('Docs site');

    const issued = captureCliOutput();
    await runCli(['keys', 'issue', workspace.id, 'ReadAccess', ...against(service.url)], service.environment, issued.output);
    const key = JSON.parse(issued.lines.join('\n'));
    expect((await client(service.url)('GET', '/content-types', { key: key.key })).status).toBe(200);
    await runCli(['keys', 'revoke', workspace.id, key.id, ...against(service.url)], service.environment, captureCliOutput().output);
    expect((await client(service.url)('GET', '/content-types', { key: key.key })).status).toBe(401);
  });

  it('rebuilds through the running service with a progress bar', async () => {
    const run = captureCliOutput();
    await runCli(['projections', 'rebuild', 'content_types', ...against(service.url)], service.environment, run.output);
    expect(run.lines.join('\n')).toMatch(/^rebuilt from \d+ events$/);
    expect(run.drawn()).toContain('rebuild [');
    expect((await client(service.url)('GET', '/content-types/Article', { key: service.readKey })).status).toBe(200);
  });

  it('rebuilds offline when no service answers, and the service then serves the rebuilt models', async () => {
    await service.service.close();
    const run = captureCliOutput();
    await runCli(['projections', 'rebuild', ...against('http://127.0.0.1:9')], service.environment, run.output);
    expect(run.lines.join('\n')).toMatch(/^rebuilt .*content_types.* from \d+ events \(offline\)$/);
    service = await service.restart();
    expect((await client(service.url)('GET', '/content-types/Article', { key: service.readKey })).status).toBe(200);
  });

  it('refuses unknown commands and unknown projections with a clear message', async () => {
    await expect(runCli(['projections', 'explode', ...against(service.url)], service.environment, captureCliOutput().output)).rejects.toThrow('unknown command');
    await expect(runCli(['projections', 'rebuild', 'nope', ...against('http://127.0.0.1:9')], service.environment, captureCliOutput().output)).rejects.toThrow(
      'unknown projection: nope',
    );
  });
});
