import { runCli } from '../../src/cli/operator';
import { captureCliOutput } from '../support/cli-output';
import { client } from '../support/http';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

/** The rows of the read-model table: after its header, up to the blank line before the typed content tables. */
const readModelRows = (lines: readonly string[]) => {
  const end = lines.indexOf('', 4);
  return lines.slice(4, end === -1 ? undefined : end);
};

describe('operator CLI', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('pglite');
    await client(service.url)('PUT', '/content-types', { key: service.writeKey, body: { name: 'Article', key: 'Article', fields: [] } });
  });
  afterAll(() => service.close());

  const against = (url: string) => ['--url', url, '--token', ADMIN_TOKEN];

  const run = async (argv: string[], url = service.url) => {
    const output = captureCliOutput();
    await runCli([...argv, ...against(url)], service.environment, output.output);
    return output;
  };

  it('reports projection status as a table (position, lag, state) and as JSON with --json', async () => {
    const { lines } = await run(['projections', 'status']);
    expect(lines[0]).toBe('read from the running service');
    expect(lines[1]).toMatch(/^head of the log \(its last event\): position \d+\/\d+$/);
    const head = lines[1]!.split(' ').at(-1)!;
    expect(lines[2]).toMatch(/^positions are written A\/B: the transaction id and the sequence number/);
    expect(lines[3]).toMatch(/^READ MODEL +POSITION +LAG +STATE$/);
    const rows = readModelRows(lines);
    expect(rows.map((row) => row.split(/ +/)[0])).toEqual(expect.arrayContaining(['content_types', 'api_keys', 'api_key_list', 'content_tables']));
    for (const row of rows) expect(row).toMatch(new RegExp(`^\\w+ +${head} +0 events +at head$`));
    // Then each content type's typed table.
    const tables = lines.slice(rows.length + 5);
    expect(tables[0]).toMatch(/^CONTENT TYPE +WORKSPACE +TYPED TABLE +STATE +QUERY INDEXES$/);
    expect(tables[1]).toMatch(new RegExp(`^Article +${service.workspaceId} +(ct_\\w+ +serving|- +building) +(none|building)$`));

    const json = await run(['projections', 'status', '--json']);
    const report = JSON.parse(json.lines.join('\n'));
    expect(report.head).toBe(head);
    expect(report.projections).toContainEqual(expect.objectContaining({ name: 'content_types', checkpoint: head, atHead: true, lagEvents: 0, lagSeconds: 0 }));
  });

  it('manages workspaces and keys through the running service', async () => {

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

    const live = JSON.parse((await run(['keys', 'issue', workspace.id, 'ReadAccess', 'WriteAccess'])).lines.join('\n'));
    const listed = await run(['keys', 'list', workspace.id]);
    expect(listed.lines).toEqual([
      expect.stringMatching(/^ID +NAME +POLICIES +CREATED +REVOKED$/),
      expect.stringMatching(new RegExp(`^${key.id} +cli +ReadAccess +\\S+Z +\\S+Z$`)),
      expect.stringMatching(new RegExp(`^${live.id} +cli +ReadAccess,WriteAccess +\\S+Z$`)),
    ]);
    const json = JSON.parse((await run(['keys', 'list', workspace.id, '--json'])).lines.join('\n'));
    expect(json).toEqual([
      { id: key.id, name: 'cli', policies: ['ReadAccess'], createdAt: expect.any(String), revokedAt: expect.any(String) },
      { id: live.id, name: 'cli', policies: ['ReadAccess', 'WriteAccess'], createdAt: expect.any(String), revokedAt: null },
    ]);
    // A key is cms_<id>_<secret>, and the base64url secret may itself hold underscores.
    for (const secret of [key.key, live.key].map((text: string) => text.split('_').slice(2).join('_'))) {
      expect(secret.length).toBeGreaterThanOrEqual(40);
      expect(listed.lines.join('\n')).not.toContain(secret);
      expect(JSON.stringify(json)).not.toContain(secret);
    }
    await expect(run(['keys', 'list', '0b9e0a52-0000-4000-8000-000000000000'])).rejects.toThrow('404');
  });

  it('declares, lists and clears a content type query indexes through the running service', async () => {
    const fields = [
      { key: 'color', type: 'Text' },
      { key: 'price', type: 'Number' },
    ];
    expect((await client(service.url)('PUT', '/content-types', { key: service.writeKey, body: { name: 'Product', key: 'Product', fields } })).status).toBe(200);
    const declared = await run(['query-indexes', 'set', service.workspaceId, 'Product', 'color,price:desc', 'price']);
    // The builder's pass may come between the declaration and its answer.
    expect(declared.lines).toEqual(['color,price:desc', 'price', expect.stringMatching(/^state: (waiting \(|building \(|built$)/)]);
    const adminPath = `/admin/workspaces/${service.workspaceId}/content-types/Product/query-indexes`;
    const indexes = [
      { fields: [{ key: 'color', direction: 'asc' }, { key: 'price', direction: 'desc' }], origin: 'declared' },
      { fields: [{ key: 'price', direction: 'asc' }], origin: 'declared' },
    ];
    // Null until a typed table serves, then its primary key, its two own and the two declared.
    const listed = (await client(service.url)('GET', adminPath, { bearer: ADMIN_TOKEN })).body;
    expect(listed).toEqual({ indexes, forbidden: [], state: expect.any(String), indexesPerWrite: listed.state === 'waiting' ? null : 5 });
    // The builder's passes (every second) build the table, then the indexes.
    await eventually(async () => (await run(['query-indexes', 'list', service.workspaceId, 'Product'])).lines.includes('state: built'));
    expect((await run(['query-indexes', 'list', service.workspaceId, 'Product'])).lines).toEqual(['color,price:desc', 'price', 'state: built']);
    // The build pass that switched the table in may still be finishing: `serving (switching, 100%)`.
    expect((await run(['projections', 'status'])).lines).toContainEqual(expect.stringMatching(new RegExp(`^Product +${service.workspaceId} +ct_\\w+ +serving( \\(.*\\))? +built$`)));
    expect(JSON.parse((await run(['query-indexes', 'list', service.workspaceId, 'Product', '--json'])).lines.join('\n'))).toEqual({ indexes, forbidden: [], state: 'built', indexesPerWrite: 5, shapes: [] });

    // The shapes this instance served, with their cost and what serves them.
    const search = (body: unknown) => client(service.url)('POST', '/v2/contents/Product', { key: service.readKey, body });
    for (const color of ['red', 'blue']) expect((await search({ filter: { type: 'condition', fieldKey: 'color', operator: 'e', value: color }, order: { fieldKey: 'price', sortDir: 'Desc' } })).status).toBe(200);
    expect((await search({ filter: { type: 'condition', fieldKey: 'color', operator: 'start', value: 'r' } })).status).toBe(200);
    const shapes = (await run(['query-indexes', 'shapes', service.workspaceId, 'Product'])).lines;
    expect(shapes).toEqual([
      expect.stringMatching(/^query shapes served by this instance, most recent first \(advisor on: 100 queries at 10 ms on average, 6 indexes per type\):$/),
      expect.stringMatching(/^ {2}2 recent \(2 in all\), [\d.]+ ms mean: list where color e order price desc -> color,price:desc \[indexed: declared\]$/),
      expect.stringMatching(/^ {2}1 recent \(1 in all\), [\d.]+ ms mean: list where color start -> color@prefix \[below-threshold\]$/),
    ]);

    // Forbid, pin and allow again; set keeps what is pinned.
    expect((await run(['query-indexes', 'forbid', service.workspaceId, 'Product', 'color@prefix'])).lines).toEqual(['color,price:desc', 'price', 'forbidden: color@prefix', expect.stringMatching(/^state: /)]);
    expect((await run(['query-indexes', 'pin', service.workspaceId, 'Product', 'price'])).lines).toEqual(['color,price:desc', 'price (pinned)', 'forbidden: color@prefix', expect.stringMatching(/^state: /)]);
    expect((await run(['query-indexes', 'set', service.workspaceId, 'Product', 'color'])).lines).toEqual(['color', 'price (pinned)', 'forbidden: color@prefix', expect.stringMatching(/^state: /)]);
    expect((await run(['query-indexes', 'allow', service.workspaceId, 'Product', 'color@prefix'])).lines).toEqual(['color', 'price (pinned)', expect.stringMatching(/^state: /)]);

    await expect(run(['query-indexes', 'set', service.workspaceId, 'Product', 'color:down'])).rejects.toThrow('cannot read the index color:down');
    await expect(run(['query-indexes', 'set', service.workspaceId, 'Product', 'color@fuzzy'])).rejects.toThrow('cannot read the index color@fuzzy');
    await expect(run(['query-indexes', 'set', service.workspaceId, 'Product', 'weight'])).rejects.toThrow(/400.*names no field of this content type: weight/);
    await expect(run(['query-indexes', 'set', service.workspaceId, 'Product', 'price@prefix'])).rejects.toThrow(/400.*a text index takes a Text or RichText field/);
    await expect(run(['query-indexes', 'set', service.workspaceId, 'Product'])).rejects.toThrow('needs at least one index');
    // A covering b-tree is written with @covering, and listed so.
    expect((await run(['query-indexes', 'set', service.workspaceId, 'Product', 'color', 'price,color@covering'])).lines).toEqual(['color', 'price,color@covering', 'price (pinned)', expect.stringMatching(/^state: /)]);
    await expect(run(['query-indexes', 'set', service.workspaceId, 'Product', 'color@covering@prefix'])).rejects.toThrow('cannot read the index color@covering@prefix');
    await expect(run(['query-indexes', 'list', service.workspaceId, 'Nope'])).rejects.toThrow('404');

    expect((await run(['query-indexes', 'clear', service.workspaceId, 'Product'])).lines[0]).toBe('Product has no query indexes');
    await eventually(async () => (await client(service.url)('GET', adminPath, { bearer: ADMIN_TOKEN })).body.state === 'none');
    expect((await client(service.url)('GET', adminPath, { bearer: ADMIN_TOKEN })).body).toEqual({ indexes: [], forbidden: [], state: 'none', indexesPerWrite: 3 });
  });

  it('rebuilds through the running service with a progress bar', async () => {
    const run = captureCliOutput();
    await runCli(['projections', 'rebuild', 'content_types', ...against(service.url)], service.environment, run.output);
    expect(run.lines.join('\n')).toMatch(/^rebuilt content_types from [\d,]+ events in \d+\.\d s \([\d,]+ events\/s\)$/);
    expect(run.drawn()).toMatch(/rebuild \[.*\] \d+% \| [\d,]+ events \| [\d,]+ events\/s \| \S+ \| ETA/);
    expect((await client(service.url)('GET', '/content-types/Article', { key: service.readKey })).status).toBe(200);
  });

  it('rebuilds offline when no service answers, and the service then serves the rebuilt models', async () => {
    await service.service.close();
    const run = captureCliOutput();
    await runCli(['projections', 'rebuild', ...against('http://127.0.0.1:9')], service.environment, run.output);
    expect(run.lines.join('\n')).toMatch(/^rebuilt .*content_types.* from [\d,]+ events in \d+\.\d s \([\d,]+ events\/s\) \(offline; each event's chain hash checked\)$/);

    // With the service stopped, status reads the stores directly.
    const status = captureCliOutput();
    await runCli(['projections', 'status', ...against('http://127.0.0.1:9')], service.environment, status.output);
    expect(status.lines[0]).toBe('no service answers: read from the stores directly');
    expect(readModelRows(status.lines).map((row) => row.split(/ +/)[0])).toContain('content_types');
    expect(readModelRows(status.lines).every((row) => row.endsWith(' at head'))).toBe(true);
    // The offline rebuild rebuilt the registry of typed tables: the service builds Article's table again once it runs.
    expect(status.lines).toContainEqual(expect.stringMatching(/^Article +\S+ +- +building +-$/));
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
