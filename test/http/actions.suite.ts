import { TOKENS } from '../../src/container';
import { actionExecutionAggregate } from '../../commands/aggregates';
import { ACTION_EXECUTIONS, type ActionExecutionDocument, actionExecutionId } from '../../projections/read-models/action-executions';
import { client } from '../support/http';
import { startHttpReceiver, type ReceivedRequest, type Receiver } from '../support/receivers';
import { type Engine, movableClock, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

const PUBLIC_BASE_URL = 'https://cms.example.test';
const SEVEN_DAYS_MS = 7 * 86_400_000;

export function describeActions(engine: Engine): void {
  describe(`content actions (${engine})`, () => {
    const clock = movableClock();
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    let receiver: Receiver;
    let itemId: string;

    const action = (id: string, definition: Record<string, unknown>) => ({ id, name: id, url: `${receiver.url}/${id}`, headers: { 'X-Action-Token': 'token-1' }, ...definition });
    const actionsOf = () => [
      action('sync-id', { payloadMode: 'IdOnly' }),
      action('sync-none', { payloadMode: 'None' }),
      action('cb-none', { payloadMode: 'None', useCallback: true }),
      action('cb-id', { payloadMode: 'IdOnly', useCallback: true }),
      action('cb-full', { payloadMode: 'FullEntity', useCallback: true }),
      action('cb-custom', {
        payloadMode: 'CustomTemplate',
        useCallback: true,
        method: 'PUT',
        customTemplate: { document: '{{id}}', notify: '{{callbackUrl}}', label: 'Title: {{fields.title}}', rank: '{{fields.rank}}', where: { workspace: '{{workspaceId}}' } },
      }),
      action('preview', { payloadMode: 'None', navigateUrl: 'https://site.example.test/{{contentType}}/{{id}}?title={{fields.title}}' }),
    ];
    const articleType = () => ({
      name: 'Article',
      key: 'Article',
      fields: [{ key: 'title', type: 'Text', required: true }, { key: 'rank', type: 'Number' }],
      actions: actionsOf(),
    });

    const freshItem = async (title = 'Another') => (await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title } } })).body.id as string;
    const path = (actionId: string, verb: string, id = itemId) => `/actions/Article/${id}/${actionId}/${verb}`;
    const execute = (actionId: string, id = itemId) => api('GET', path(actionId, 'execute', id), read);
    const status = (actionId: string, id = itemId) => api('GET', path(actionId, 'status', id), read);
    /** The callback the external service makes, to this test's service whatever PUBLIC_BASE_URL says. */
    const callBack = (callbackUrl: string, body: unknown) => api('POST', new URL(callbackUrl).pathname, { body });
    const requestsTo = (actionId: string) => receiver.requests.filter((request) => request.path.startsWith(`/${actionId}`));
    const lastRequestTo = async (actionId: string): Promise<ReceivedRequest> => eventually(() => requestsTo(actionId).at(-1));

    beforeAll(async () => {
      receiver = await startHttpReceiver();
      service = await startTestService(engine, { ALLOW_PRIVATE_TARGETS: 'true', PUBLIC_BASE_URL }, clock);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      expect((await api('PUT', '/content-types', { ...write, body: articleType() })).status).toBe(200);
      const draft = await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'Hello & welcome', rank: 7 } } });
      expect(draft.status).toBe(200);
      itemId = draft.body.id;
    });

    afterAll(async () => {
      await service?.close();
      await receiver?.close();
    });

    beforeEach(() => {
      receiver.fallback = 200;
      receiver.replyBody = '';
    });

    describe('synchronous mode (UseCallback disabled)', () => {
      it('calls the service with the payload of its mode and answers its result at once, without a record', async () => {
        receiver.replyBody = '{"translated":true}';
        const answer = await execute('sync-id');
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ success: true, statusCode: 200, result: '{"translated":true}', error: null, durationMs: expect.any(Number) });
        const request = await lastRequestTo('sync-id');
        expect(request.method).toBe('POST');
        expect(request.headers['x-action-token']).toBe('token-1');
        expect(JSON.parse(request.body)).toEqual({ id: itemId, contentType: 'Article', workspaceId: service.workspaceId });
        expect((await status('sync-id')).status).toBe(404);
      });

      it('answers a failing service as an unsuccessful outcome with its status and message', async () => {
        receiver.respondWith(500);
        receiver.replyBody = 'quota exceeded';
        const answer = await execute('sync-none');
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ success: false, statusCode: 500, result: null, error: "the action's service answered 500: quota exceeded" });
        const request = await lastRequestTo('sync-none');
        expect(request).toMatchObject({ method: 'GET', path: '/sync-none', body: '' });
      });
    });

    describe('callback mode: payload modes', () => {
      const startedCallback = async (actionId: string) => {
        const answer = await execute(actionId);
        expect(answer.status).toBe(200);
        expect(answer.body.callbackUrl).toBe(`${PUBLIC_BASE_URL}/actions/callback/${service.workspaceId}/${answer.body.operationId}`);
        return { ...(answer.body as { operationId: string; callbackUrl: string }), request: await lastRequestTo(actionId) };
      };

      it('None: a GET with callbackUrl as a query parameter', async () => {
        const { callbackUrl, request } = await startedCallback('cb-none');
        expect(request.method).toBe('GET');
        expect(new URL(request.path, receiver.url).searchParams.get('callbackUrl')).toBe(callbackUrl);
        expect(request.body).toBe('');
      });

      it('IdOnly: callbackUrl in the body next to id, contentType and workspaceId', async () => {
        const { callbackUrl, request } = await startedCallback('cb-id');
        expect(request.method).toBe('POST');
        expect(request.headers['content-type']).toBe('application/json');
        expect(JSON.parse(request.body)).toEqual({ id: itemId, contentType: 'Article', workspaceId: service.workspaceId, callbackUrl });
      });

      it('FullEntity: callbackUrl in the body next to id and the fields', async () => {
        const { callbackUrl, request } = await startedCallback('cb-full');
        expect(JSON.parse(request.body)).toEqual({
          id: itemId,
          contentType: 'Article',
          workspaceId: service.workspaceId,
          fields: { title: 'Hello & welcome', rank: 7 },
          translations: {},
          callbackUrl,
        });
      });

      it('CustomTemplate: the template rendered, with {{callbackUrl}} among its variables', async () => {
        const { callbackUrl, request } = await startedCallback('cb-custom');
        expect(request.method).toBe('PUT');
        expect(JSON.parse(request.body)).toEqual({ document: itemId, notify: callbackUrl, label: 'Title: Hello & welcome', rank: 7, where: { workspace: service.workspaceId } });
      });
    });

    describe('callback mode: the state table', () => {
      it('Running, 409 while running, progress, Succeeded with result, 409 after completion, then a new run that Fails', async () => {
        const id = await freshItem();
        const first = await execute('cb-id', id);
        expect(first.status).toBe(200);
        const running = await status('cb-id', id);
        expect(running.status).toBe(200);
        expect(running.body).toEqual({ operationId: first.body.operationId, status: 0, result: null, progress: null, message: null, error: null, updatedAt: expect.any(String) });

        expect((await execute('cb-id', id)).status).toBe(409);

        const progressed = await callBack(first.body.callbackUrl, { success: true, progress: 40, message: 'half way', result: 'not yet' });
        expect(progressed.status).toBe(200);
        expect(progressed.body).toMatchObject({ status: 0, progress: 40, message: 'half way', result: null });
        expect((await status('cb-id', id)).body).toMatchObject({ status: 0, progress: 40, message: 'half way' });

        const done = await callBack(first.body.callbackUrl, { success: true, result: 'translated into 3 languages' });
        expect(done.status).toBe(200);
        expect((await status('cb-id', id)).body).toMatchObject({ status: 1, result: 'translated into 3 languages', error: null, progress: 40, message: 'half way' });

        expect((await callBack(first.body.callbackUrl, { success: true, progress: 50 })).status).toBe(409);
        expect((await callBack(first.body.callbackUrl, { success: false, error: 'late' })).status).toBe(409);

        const second = await execute('cb-id', id);
        expect(second.status).toBe(200);
        expect(second.body.operationId).not.toBe(first.body.operationId);
        expect((await callBack(first.body.callbackUrl, { success: true })).status).toBe(404);
        await callBack(second.body.callbackUrl, { success: false, error: 'target language unsupported', progress: 100 });
        expect((await status('cb-id', id)).body).toMatchObject({ operationId: second.body.operationId, status: -1, error: 'target language unsupported', result: null, progress: 100 });
      });

      it('a service that does not take the call (no 2xx) ends the record Failed with the reason, and the action can run again', async () => {
        const id = await freshItem();
        receiver.respondWith(503);
        const refused = await execute('cb-full', id);
        expect(refused.status).toBe(502);
        expect(refused.body).toMatchObject({ status: 502, operationId: expect.any(String), statusCode: 503 });
        expect((await status('cb-full', id)).body).toMatchObject({ operationId: refused.body.operationId, status: -1, error: "the action's service answered 503" });
        expect((await execute('cb-full', id)).status).toBe(200);
      });

      it('an execution interrupted before its call was answered ends Failed at the next execute once the call is long overdue; one whose call was taken keeps waiting for its callbacks', async () => {
        const id = await freshItem('Interrupted');
        const stream = `action-${service.workspaceId}-${id}-cb-id`;
        const { commands } = service.service.container.resolve(TOKENS.http).actions;
        // What a process that stopped between recording the execution and the call's answer leaves: the record, Running.
        const target = { workspaceId: service.workspaceId, contentType: 'Article', contentId: id, actionId: 'cb-id' };
        const interrupted = await commands.start(target, 10_000, { workspaceId: service.workspaceId, actor: 'test' });
        expect((await status('cb-id', id)).body).toMatchObject({ operationId: interrupted, status: 0 });

        // The call's 10 s and a minute's grace for instances' clocks.
        clock.advance(10_000 + 59_000);
        expect((await execute('cb-id', id)).status).toBe(409);
        clock.advance(1_000);
        const again = await execute('cb-id', id);
        expect(again.status).toBe(200);
        expect((await status('cb-id', id)).body).toMatchObject({ operationId: again.body.operationId, status: 0 });
        const events = await service.service.container.resolve(TOKENS.eventStore).readStream(stream);
        expect(events.map((event) => [event.type, (event.data as { operationId: string }).operationId])).toEqual([
          ['ActionStarted', interrupted],
          ['ActionCompleted', interrupted],
          ['ActionStarted', again.body.operationId],
          ['ActionCallAccepted', again.body.operationId],
        ]);
        expect(events[1]!.data).toMatchObject({ status: 'Failed', error: expect.stringMatching(/interrupted before the action's service answered/) });
        expect((await callBack(`${PUBLIC_BASE_URL}/actions/callback/${service.workspaceId}/${interrupted}`, { success: true })).status).toBe(404);

        // Its service took this call: however long the job takes, the record waits for its callbacks.
        clock.advance(3_600_000);
        expect((await execute('cb-id', id)).status).toBe(409);
        expect((await callBack(again.body.callbackUrl, { success: true, result: 'late but done' })).status).toBe(200);
        expect((await status('cb-id', id)).body).toMatchObject({ operationId: again.body.operationId, status: 1, result: 'late but done' });
      });

      it('after a restart, executions interrupted before their call was answered end Failed by themselves once overdue; records from before call deadlines are left alone', async () => {
        const interruptedItem = await freshItem('Interrupted, restarted');
        const olderItem = await freshItem('Recorded by an earlier version');
        const context = { workspaceId: service.workspaceId, actor: 'test' };
        const target = (contentId: string) => ({ workspaceId: service.workspaceId, contentType: 'Article', contentId, actionId: 'cb-id' });
        const { commands } = service.service.container.resolve(TOKENS.http).actions;
        const interrupted = await commands.start(target(interruptedItem), 10_000, context);
        // An earlier version's record: its ActionStarted has no call deadline, its document neither field.
        const older = '0b9e0a52-0000-4000-8000-0000000000aa';
        const stream = `action-${service.workspaceId}-${olderItem}-cb-id`;
        await service.service.container
          .resolve(TOKENS.commandRunner)
          .run(actionExecutionAggregate, stream, { type: 'StartAction', data: { ...target(olderItem), operationId: older, at: clock.now().toISOString() } }, context);
        const readStore = service.service.container.resolve(TOKENS.readStore);
        const olderRecord = await readStore.get<ActionExecutionDocument>(ACTION_EXECUTIONS, actionExecutionId(service.workspaceId, olderItem, 'cb-id'));
        const { callDeadline: _deadline, callAccepted: _accepted, ...earlierShape } = olderRecord!;
        await readStore.apply([{ kind: 'upsert', collection: ACTION_EXECUTIONS, document: earlierShape }]);

        clock.advance(10_000 + 60_000);
        service = await service.restart(); // the sweep runs at start, then every minute
        api = client(service.url);
        await eventually(async () => (await status('cb-id', interruptedItem)).body.status === -1);
        expect((await status('cb-id', interruptedItem)).body).toMatchObject({ operationId: interrupted, status: -1, error: expect.stringMatching(/interrupted/) });
        expect((await execute('cb-id', interruptedItem)).status).toBe(200);

        expect((await status('cb-id', olderItem)).body).toMatchObject({ operationId: older, status: 0 });
        expect((await execute('cb-id', olderItem)).status).toBe(409);
        const events = await service.service.container.resolve(TOKENS.eventStore).readStream(stream);
        expect(events.map((event) => event.type)).toEqual(['ActionStarted']);
      });

      it('an unreachable service ends the record Failed naming the cause', async () => {
        await api('PUT', '/content-types', { ...write, body: { ...articleType(), actions: [...actionsOf(), { id: 'dead', url: 'http://127.0.0.1:9/nowhere', useCallback: true }] } });
        const refused = await execute('dead');
        expect(refused.status).toBe(502);
        expect(refused.body.statusCode).toBe(0);
        expect((await status('dead')).body.error).toMatch(/could not be reached/);
        await api('PUT', '/content-types', { ...write, body: articleType() });
      });

      it('one Running execution per item and action, whatever the number of parallel executes', async () => {
        const id = await freshItem('Parallel');
        const before = requestsTo('cb-id').length;
        const answers = await Promise.all(Array.from({ length: 12 }, () => execute('cb-id', id)));
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(11).fill(409)]);
        expect(requestsTo('cb-id').length - before).toBe(1);
      });

      it('answers 404 for an unknown content type, action or item, and for status without a record', async () => {
        expect((await api('GET', `/actions/Nope/${itemId}/cb-id/execute`, read)).status).toBe(404);
        expect((await execute('no-such-action')).status).toBe(404);
        expect((await execute('cb-id', '0b9e0a52-0000-4000-8000-000000000000')).status).toBe(404);
        expect((await status('cb-none')).status).toBe(200);
        expect((await status('preview')).status).toBe(404);
        expect((await execute('cb-id', 'not-a-guid')).status).toBe(400);
      });

      it('callbacks: 404 for an unknown operation or another workspace, 400 for a bad body, no credential needed', async () => {
        const id = await freshItem();
        const started = await execute('cb-custom', id);
        const { pathname } = new URL(started.body.callbackUrl);
        expect((await api('POST', `/actions/callback/${service.workspaceId}/0b9e0a52-0000-4000-8000-000000000000`, { body: { success: true } })).status).toBe(404);
        expect((await api('POST', pathname.replace(service.workspaceId, 'other-workspace'), { body: { success: true } })).status).toBe(404);
        const badProgress = await api('POST', pathname, { body: { success: true, progress: 150 } });
        expect(badProgress.status).toBe(400);
        expect(badProgress.body.errors[0].field).toBe('progress');
        expect((await api('POST', pathname, { body: { progress: 10 } })).body.errors[0].field).toBe('success');
        expect((await api('POST', pathname, { rawBody: '{not json' })).status).toBe(400);
        expect((await status('cb-custom', id)).body).toMatchObject({ status: 0, progress: null });
      });

      it('records end after 7 days: status and callbacks 404, the action runs again, the read model drops them, the events stay', async () => {
        const id = await freshItem('Old');
        const old = await execute('cb-id', id);
        const statusOf = () => status('cb-id', id);
        expect((await statusOf()).status).toBe(200);

        clock.advance(SEVEN_DAYS_MS);
        expect((await statusOf()).status).toBe(404);
        expect((await callBack(old.body.callbackUrl, { success: true })).status).toBe(404);

        service = await service.restart(); // the retention cleanup also runs at start
        api = client(service.url);
        const readStore = service.service.container.resolve(TOKENS.readStore);
        const recordId = actionExecutionId(service.workspaceId, id, 'cb-id');
        await eventually(async () => (await readStore.get(ACTION_EXECUTIONS, recordId)) === null);
        const events = await service.service.container.resolve(TOKENS.eventStore).readStream(`action-${service.workspaceId}-${id}-cb-id`);
        expect(events.map((event) => event.type)).toEqual(['ActionStarted', 'ActionCallAccepted']);

        const again = await execute('cb-id', id);
        expect(again.status).toBe(200);
        expect((await statusOf()).body).toMatchObject({ operationId: again.body.operationId, status: 0 });
      });
    });

    describe('action headers', () => {
      it('are sealed before they enter the log, shown hidden, kept when a client PUTs back what it read, and sent in clear', async () => {
        const events = await service.service.container.resolve(TOKENS.eventStore).readStream(`contenttype-${service.workspaceId}-Article`);
        expect(events.length).toBeGreaterThan(0);
        expect(JSON.stringify(events.map((event) => event.data))).not.toContain('token-1');

        const read = await api('GET', '/content-types', { key: service.readKey });
        const article = read.body.find((type: { key: string }) => type.key === 'Article');
        expect(article.actions[0].headers).toEqual({ 'X-Action-Token': '(hidden)' });
        expect(article).not.toHaveProperty('sealedActionHeaders');

        const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...roundTrip } = article;
        expect((await api('PUT', '/content-types', { ...write, body: roundTrip })).status).toBe(200);
        await execute('sync-id');
        expect((await lastRequestTo('sync-id')).headers['x-action-token']).toBe('token-1');
      });

      it('refuses a hidden value for a header that has no stored value, naming it', async () => {
        const body = { ...articleType(), actions: [action('fresh', { headers: { 'X-New': '(hidden)' } })] };
        const answer = await api('PUT', '/content-types', { ...write, body });
        expect(answer.status).toBe(400);
        expect(answer.body.errors[0].field).toBe('actions.0.headers.X-New');
      });
    });

    describe('navigate and access', () => {
      it('renders navigateUrl for the item, values URL-encoded; 404 for an action without one', async () => {
        const answer = await api('GET', path('preview', 'navigate'), read);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ url: `https://site.example.test/Article/${itemId}?title=Hello%20%26%20welcome` });
        expect((await api('GET', path('cb-id', 'navigate'), read)).status).toBe(404);
      });

      it('needs a read key; a write-only key gets 403', async () => {
        expect((await api('GET', path('sync-id', 'execute'))).status).toBe(401);
        expect((await api('GET', path('cb-id', 'status'), write)).status).toBe(403);
        expect((await api('GET', path('preview', 'navigate'), { bearer: service.readKey })).status).toBe(200);
      });

      it('refuses an action template with a placeholder it cannot fill, naming it', async () => {
        const bad = { ...articleType(), actions: [action('x', { payloadMode: 'CustomTemplate', customTemplate: { a: ['{{secret}}'] } })] };
        const answer = await api('PUT', '/content-types', { ...write, body: bad });
        expect(answer.status).toBe(400);
        expect(answer.body.errors[0].field).toBe('actions.0.customTemplate.a.0');
        const badLink = { ...articleType(), actions: [action('y', { navigateUrl: 'https://x.test/{{callbackUrl}}' })] };
        expect((await api('PUT', '/content-types', { ...write, body: badLink })).body.errors[0].field).toBe('actions.0.navigateUrl');
      });
    });
  });
}
