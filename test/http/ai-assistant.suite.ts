import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { eventually } from '../support/waiting';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';

const articleType = {
  name: 'Article',
  key: 'Article',
  fieldTitleKey: 'headline',
  fields: [
    { key: 'slug', type: 'Text', sortIndex: 0 },
    { key: 'headline', type: 'Text', required: true, sortIndex: 1 },
    { key: 'body', type: 'RichText', translatable: true, sortIndex: 2 },
    { key: 'rating', type: 'Number', sortIndex: 3 },
  ],
};

/** Everyday words the generated items are made of; some of them also occur in the questions. */
const VOCABULARY = (
  'lighthouse harbour boat keeper lamp night sea coast storm island village town valley river bridge road market bakery bread flour ' +
  'water starter oven recipe kitchen garden flower tree forest mountain volcano ash stone rock cave path trail map compass travel ' +
  'ticket train station platform delay schedule office employee staff meeting report budget invoice payment refund parcel delivery ' +
  'courier package order customer support ticket account password login security policy rule guide manual handbook chapter lesson ' +
  'school student teacher library book page story poem song music concert theatre film camera photo picture colour paint canvas ' +
  'museum gallery history century war peace treaty king queen castle tower wall gate door window roof floor stairs basement garage ' +
  'car bicycle bus tram parking street corner square park bench fountain statue monument weather rain snow wind sun cloud summer ' +
  'winter spring autumn morning evening week month year holiday festival market fair game sport football tennis swimming running ' +
  'health doctor nurse hospital medicine vitamin diet fruit apple orange lemon cheese butter milk coffee tea sugar salt pepper soup'
).split(' ');

/** The items the questions are about; each fact is in this item only. */
const FACTS = [
  {
    slug: 'marrow-point',
    headline: 'The keeper of Marrow Point lighthouse',
    body: 'Ada Quill has kept the Marrow Point lighthouse since 1901, trimming its lamp every night before the ferries pass.',
    question: 'Who keeps the lighthouse at Marrow Point?',
  },
  {
    slug: 'sourdough',
    headline: "Grandmother's sourdough starter",
    body: 'Feed the rye sourdough starter twice a day with equal parts flour and water, and bake once it has doubled.',
    question: 'How often should I feed a sourdough starter?',
  },
  {
    slug: 'teshra',
    headline: 'The eruption of Mount Teshra',
    body: 'The volcano Mount Teshra erupted in 1783 and buried the valley town of Ormel under grey ash.',
    question: 'When did the Teshra volcano erupt?',
  },
  {
    slug: 'bicycle-parking',
    headline: 'Bicycle parking for employees',
    body: 'Employees may park bicycles in the basement garage, next to the freight elevator; racks are free of charge.',
    question: 'Where can employees park their bicycles?',
  },
  {
    slug: 'damaged-parcels',
    headline: 'Refunds for damaged parcels',
    body: 'Customers receive a full refund for parcels damaged in transit when they report the damage within 30 days.',
    question: 'Can I get a refund if my parcel arrived damaged?',
  },
  {
    slug: 'vanilla-orchids',
    headline: 'Hand-pollinating vanilla orchids',
    body: 'Vanilla orchids flower for a single morning, so growers pollinate each blossom by hand with a thin bamboo splinter.',
    question: 'How are vanilla orchids pollinated?',
  },
];

/** A recipe that shares "marrow" with the lighthouse fact, so the question needs both words to pick right. */
const DISTRACTOR = { slug: 'bone-marrow', headline: 'Roasted bone marrow', body: 'Roast the marrow bones in a hot oven and serve them with parsley salad.' };

const GENERATED_ITEMS = 1000 - FACTS.length - 1;
const SEED_CONCURRENCY = 8;

/** Deterministic pseudo-random numbers (mulberry32), so every run seeds the same text. */
function randomNumbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generatedItems(count: number): { slug: string; headline: string; body: string; rating: number }[] {
  const random = randomNumbers(42);
  const words = (n: number) => Array.from({ length: n }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(' ');
  return Array.from({ length: count }, (_, index) => ({
    slug: `note-${index}`,
    headline: `Note ${index}: ${words(3)}`,
    body: `${words(20)}. ${words(25)}.`,
    rating: index % 5,
  }));
}

async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The id in the first numbered entry of a builtin answer. */
const firstMatchId = (response: string) => /^1\. .*id `([^`]+)`/m.exec(response)?.[1];

interface ChatRequest {
  readonly path: string;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: { model: string; messages: { role: string; content: string }[] };
}

/** A plain OpenAI-compatible chat server on 127.0.0.1 that records requests and answers as the test says. */
interface ChatServer {
  readonly url: string;
  readonly requests: ChatRequest[];
  /** How the next requests are answered; `hold` keeps them waiting until `release`. */
  mode: 'answer' | 'hold' | 'fail' | 'malformed';
  release(): void;
  close(): Promise<void>;
}

async function startChatServer(): Promise<ChatServer> {
  const held: { res: ServerResponse; index: number }[] = [];
  const answer = (res: ServerResponse, index: number) => {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, message: { role: 'assistant', content: `Model answer ${index}` } }] }));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = chat.requests.length + 1;
      chat.requests.push({ path: req.url ?? '', method: req.method ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      if (chat.mode === 'hold') held.push({ res, index });
      else if (chat.mode === 'fail') res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model overloaded"}}');
      else if (chat.mode === 'malformed') res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[]}');
      else answer(res, index);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const chat: ChatServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: [],
    mode: 'answer',
    release: () => {
      chat.mode = 'answer';
      for (const { res, index } of held.splice(0)) answer(res, index);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return chat;
}

export function describeAiAssistant(engine: Engine): void {
  describe(`AI assistant (${engine})`, () => {
    describe('builtin provider, over 1,000 published items', () => {
      let service: TestService;
      let api: ReturnType<typeof client>;
      let read: { key: string };
      let write: { key: string };
      const ids = new Map<string, string>();

      const publish = async (fields: Record<string, unknown>, translations?: Record<string, unknown>) => {
        const saved = await api('PUT', '/v2/contents/Article', { ...write, body: { fields, ...(translations ? { translations } : {}) } });
        expect(saved.status).toBe(200);
        return saved.body.id as string;
      };
      const ask = async (prompt: string, threadId: string | null = null, key = read) => {
        const answer = await api('POST', '/ai-assistant/thread', { ...key, body: { threadId, prompt } });
        expect(answer.status).toBe(200);
        return answer.body as { threadId: string; runId: string };
      };
      const settled = (threadId: string, runId: string, key = read) =>
        eventually(async () => {
          const status = await api('GET', `/ai-assistant/thread/${threadId}/run/${runId}/status`, key);
          return status.body.status !== 'in_progress' && status.body;
        });
      const answerTo = async (prompt: string, threadId: string | null = null) => {
        const run = await ask(prompt, threadId);
        expect(await settled(run.threadId, run.runId)).toEqual({ status: 'completed' });
        return { ...run, response: (await api('GET', `/ai-assistant/thread/${run.threadId}/response`, read)).body.response as string };
      };

      beforeAll(async () => {
        service = await startTestService(engine);
        api = client(service.url);
        read = { key: service.readKey };
        write = { key: service.writeKey };
        expect((await api('PUT', '/content-types', { ...write, body: articleType })).status).toBe(200);
        const facts = [...FACTS, DISTRACTOR].map(({ slug, headline, body }) => ({ slug, headline, body }));
        await inParallel([...generatedItems(GENERATED_ITEMS), ...facts], SEED_CONCURRENCY, async (fields) => {
          ids.set(fields.slug, await publish(fields));
        });
        // Under load a write can answer before its bounded read-your-writes wait is over: let the search index catch up.
        await eventually(async () => {
          const status = await api('GET', '/admin/projections', { bearer: ADMIN_TOKEN });
          return (status.body.projections as { atHead: boolean }[]).every((projection) => projection.atHead);
        }, 60_000);
      }, 120_000);
      afterAll(() => service?.close());

      it('answers a new thread in the background: the run is in progress, then completed, and the answer names the item', async () => {
        const run = await ask('Who keeps the lighthouse at Marrow Point?');
        expect(run).toEqual({ threadId: expect.stringMatching(/^[0-9a-f-]{36}$/), runId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
        const first = await api('GET', `/ai-assistant/thread/${run.threadId}/run/${run.runId}/status`, read);
        expect(first.status).toBe(200);
        // The builtin provider is quick: the run may already be over when first polled.
        expect(['in_progress', 'completed']).toContain(first.body.status);
        expect(await settled(run.threadId, run.runId)).toEqual({ status: 'completed' });
        const { body } = await api('GET', `/ai-assistant/thread/${run.threadId}/response`, read);
        expect(firstMatchId(body.response)).toBe(ids.get('marrow-point'));
        expect(body.response).toMatch(/^1\. \*\*The keeper of Marrow Point lighthouse\*\* \(Article, id `[^`]+`\)$/m);
        expect(body.response).toMatch(/^ {3}> .*Ada Quill has kept the Marrow Point lighthouse/m);
      });

      it('finds the item holding the fact first, for questions asked in natural language', async () => {
        const answers = await Promise.all(FACTS.map((fact) => answerTo(fact.question)));
        FACTS.forEach((fact, index) => expect([fact.question, firstMatchId(answers[index]!.response)]).toEqual([fact.question, ids.get(fact.slug)]));
      });

      it('continues a thread: the new prompt gets its own run, and the response is the latest answer', async () => {
        const first = await answerTo('When did the Teshra volcano erupt?');
        const second = await answerTo('And how are vanilla orchids pollinated?', first.threadId);
        expect(second.threadId).toBe(first.threadId);
        expect(second.runId).not.toBe(first.runId);
        expect(firstMatchId(second.response)).toBe(ids.get('vanilla-orchids'));
        expect(await settled(first.threadId, first.runId)).toEqual({ status: 'completed' });
      });

      it('searches translations, and only published items', async () => {
        expect((await api('PUT', '/locales', { ...write, body: { code: 'fr' } })).status).toBe(200);
        const id = await publish({ slug: 'fromage', headline: 'Cheese of the month' }, { body: { fr: 'Le Comté affiné pendant dix-huit mois' } });
        expect(firstMatchId((await answerTo('Comté affiné')).response)).toBe(id);

        expect((await api('PUT', `/contents/Article/${id}/unpublish`, write)).status).toBe(200);
        const unpublished = (await answerTo('Comté affiné')).response;
        expect(firstMatchId(unpublished)).toBeUndefined();
        expect(unpublished).toMatch(/^I found nothing in the published content that matches/);

        const draft = await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { headline: 'Secret zeppelin plans' } } });
        expect(draft.status).toBe(200);
        expect(firstMatchId((await answerTo('zeppelin plans')).response)).toBeUndefined();
      });

      it('answers 404 for an unknown thread or run, and for a thread of another workspace', async () => {
        const missing = await api('POST', '/ai-assistant/thread', { ...read, body: { threadId: 'no-such-thread', prompt: 'Hello?' } });
        expect(missing.status).toBe(404);
        expect(missing.headers.get('content-type')).toContain('application/problem+json');
        expect((await api('GET', '/ai-assistant/thread/no-such-thread/run/no-such-run/status', read)).status).toBe(404);
        expect((await api('GET', '/ai-assistant/thread/no-such-thread/response', read)).status).toBe(404);

        const run = await ask('Who keeps the lighthouse at Marrow Point?');
        const unknownRun = await api('GET', `/ai-assistant/thread/${run.threadId}/run/no-such-run/status`, read);
        expect(unknownRun.status).toBe(404);
        expect(unknownRun.body.detail).toContain('run no-such-run');

        const workspace = await api('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Elsewhere' } });
        const otherKey = (await api('POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { policies: ['ReadAccess'] } })).body.key;
        const other = { key: otherKey as string };
        expect((await api('GET', `/ai-assistant/thread/${run.threadId}/run/${run.runId}/status`, other)).status).toBe(404);
        expect((await api('GET', `/ai-assistant/thread/${run.threadId}/response`, other)).status).toBe(404);
        expect((await api('POST', '/ai-assistant/thread', { ...other, body: { threadId: run.threadId, prompt: 'Hello?' } })).status).toBe(404);
        // The other workspace's content is its own: none of the 1,000 items.
        const elsewhere = (await api('POST', '/ai-assistant/thread', { ...other, body: { prompt: 'Who keeps the lighthouse at Marrow Point?' } })).body;
        expect(await settled(elsewhere.threadId, elsewhere.runId, other)).toEqual({ status: 'completed' });
        expect((await api('GET', `/ai-assistant/thread/${elsewhere.threadId}/response`, other)).body.response).toMatch(/^I found nothing/);
      });

      it.each([
        ['no body', undefined, 'body'],
        ['a missing prompt', { threadId: null }, 'prompt'],
        ['an empty prompt', { prompt: '   ' }, 'prompt'],
        ['a prompt over 8,000 characters', { prompt: 'x'.repeat(8001) }, 'prompt'],
        ['a prompt that is not a string', { prompt: 42 }, 'prompt'],
        ['a threadId that is not a string', { threadId: 7, prompt: 'Hello?' }, 'threadId'],
      ])('answers 400 naming the field for %s', async (_case, body, field) => {
        const answer = await api('POST', '/ai-assistant/thread', { ...read, ...(body === undefined ? {} : { body }) });
        expect(answer.status).toBe(400);
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      });

      it('accepts a prompt of exactly 8,000 characters', async () => {
        expect((await api('POST', '/ai-assistant/thread', { ...read, body: { prompt: 'lighthouse '.repeat(800).slice(0, 8000) } })).status).toBe(200);
      });

      it('needs a key holding ReadAccess, sent as X-Api-Key or as a bearer token', async () => {
        expect((await api('POST', '/ai-assistant/thread', { body: { prompt: 'Hello?' } })).status).toBe(401);
        expect((await api('POST', '/ai-assistant/thread', { key: 'cms_not-a-key', body: { prompt: 'Hello?' } })).status).toBe(401);
        expect((await api('GET', '/ai-assistant/thread/x/run/y/status')).status).toBe(401);
        expect((await api('GET', '/ai-assistant/thread/x/response')).status).toBe(401);
        const writeOnly = (await api('POST', `/admin/workspaces/${service.workspaceId}/api-keys`, { bearer: ADMIN_TOKEN, body: { policies: ['WriteAccess'] } })).body.key;
        expect((await api('POST', '/ai-assistant/thread', { key: writeOnly, body: { prompt: 'Hello?' } })).status).toBe(403);
        const viaBearer = await api('POST', '/ai-assistant/thread', { bearer: service.readKey, body: { prompt: 'Where can employees park their bicycles?' } });
        expect(viaBearer.status).toBe(200);
        expect((await api('GET', `/ai-assistant/thread/${viaBearer.body.threadId}/run/${viaBearer.body.runId}/status`, { bearer: service.readKey })).status).toBe(200);
      });
    });

    describe('OpenAI-compatible provider', () => {
      const API_KEY = 'sk-test-secret-0123456789';
      let chat: ChatServer;
      let service: TestService;
      let api: ReturnType<typeof client>;
      let read: { key: string };
      let tideId: string;

      const ask = async (prompt: string, threadId: string | null = null) => {
        const answer = await api('POST', '/ai-assistant/thread', { ...read, body: { threadId, prompt } });
        expect(answer.status).toBe(200);
        return answer.body as { threadId: string; runId: string };
      };
      const status = async (run: { threadId: string; runId: string }) => (await api('GET', `/ai-assistant/thread/${run.threadId}/run/${run.runId}/status`, read)).body;
      const settled = (run: { threadId: string; runId: string }) =>
        eventually(async () => {
          const current = await status(run);
          return current.status !== 'in_progress' && current;
        });
      const response = (threadId: string) => api('GET', `/ai-assistant/thread/${threadId}/response`, read);

      beforeAll(async () => {
        chat = await startChatServer();
        // The base URL is a loopback address: operator configuration may point at a local model server.
        service = await startTestService(engine, { AI_PROVIDER: 'openai', AI_BASE_URL: chat.url, AI_MODEL: 'test-model', AI_API_KEY: API_KEY });
        api = client(service.url);
        read = { key: service.readKey };
        const write = { key: service.writeKey };
        expect((await api('PUT', '/content-types', { ...write, body: articleType })).status).toBe(200);
        for (const fields of [
          { headline: 'Tide tables for Marrow Point', body: 'High tide at Marrow Point comes at 06:12 and 18:40 this week.' },
          { headline: 'Ferry timetable', body: 'The island ferry leaves the harbour every two hours.' },
        ]) {
          const saved = await api('PUT', '/v2/contents/Article', { ...write, body: { fields } });
          expect(saved.status).toBe(200);
          if (fields.headline.startsWith('Tide')) tideId = saved.body.id;
        }
      }, 60_000);
      afterAll(async () => {
        await service?.close();
        await chat?.close();
      });
      beforeEach(() => {
        chat.mode = 'answer';
        chat.requests.length = 0;
      });

      it('sends the model, the key and the retrieved items, and records the answer it returns', async () => {
        chat.mode = 'hold';
        const run = await ask('When is high tide at Marrow Point?');
        expect(await status(run)).toEqual({ status: 'in_progress' });
        const early = await response(run.threadId);
        expect(early.status).toBe(404);
        expect(early.body.detail).toContain('no completed answer yet');

        await eventually(() => chat.requests.length === 1);
        chat.release();
        expect(await settled(run)).toEqual({ status: 'completed' });
        expect((await response(run.threadId)).body).toEqual({ response: 'Model answer 1' });

        const [request] = chat.requests;
        expect(request!.method).toBe('POST');
        expect(request!.path).toBe('/v1/chat/completions');
        expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
        expect(request!.headers['content-type']).toBe('application/json');
        expect(request!.body.model).toBe('test-model');
        const [system, ...rest] = request!.body.messages;
        expect(system!.role).toBe('system');
        expect(system!.content).toContain('Title: Tide tables for Marrow Point');
        expect(system!.content).toContain(`Id: ${tideId}`);
        expect(system!.content).toContain('High tide at Marrow Point comes at 06:12');
        expect(system!.content).not.toContain('Ferry timetable');
        expect(rest).toEqual([{ role: 'user', content: 'When is high tide at Marrow Point?' }]);
      });

      it('sends the earlier turns of the thread as history with a follow-up prompt', async () => {
        const first = await ask('When is high tide at Marrow Point?');
        await settled(first);
        const second = await ask('And the ferry?', first.threadId);
        expect(await settled(second)).toEqual({ status: 'completed' });
        expect(chat.requests).toHaveLength(2);
        expect(chat.requests[1]!.body.messages.slice(1)).toEqual([
          { role: 'user', content: 'When is high tide at Marrow Point?' },
          { role: 'assistant', content: 'Model answer 1' },
          { role: 'user', content: 'And the ferry?' },
        ]);
        expect((await response(first.threadId)).body).toEqual({ response: 'Model answer 2' });
      });

      it('seals an answer drawn from a personal-data item under its key: read and sent as history until the item is erased, then 410 and left out', async () => {
        const write = { key: service.writeKey };
        const guestType = { name: 'Guest', key: 'Guest', personalData: true, fields: [{ key: 'name', type: 'Text' }, { key: 'room', type: 'Text' }] };
        expect((await api('PUT', '/content-types', { ...write, body: guestType })).status).toBe(200);
        const guestId = (await api('PUT', '/v2/contents/Guest', { ...write, body: { fields: { name: 'Odile Varga', room: 'the lighthouse suite' } } })).body.id as string;
        const thread = async (threadId: string) => service.service.container.resolve(TOKENS.eventStore).readStream(`ai-thread-${service.workspaceId}-${threadId}`);
        const stored = async (threadId: string) => (await thread(threadId)).filter((event) => event.type === 'AiRunCompleted').map((event) => event.data);

        const first = await ask('Who stays in the lighthouse suite?');
        expect(await settled(first)).toEqual({ status: 'completed' });
        expect(chat.requests[0]!.body.messages[0]!.content).toContain('Odile Varga');
        expect(await stored(first.threadId)).toEqual([
          expect.objectContaining({ response: '', sealed: { items: [{ itemId: guestId, share: expect.stringMatching(/^v1\./) }], value: expect.stringMatching(/^v1\./) } }),
        ]);
        expect((await response(first.threadId)).body).toEqual({ response: 'Model answer 1' });
        const second = await ask('And the ferry?', first.threadId);
        expect(await settled(second)).toEqual({ status: 'completed' });
        expect(chat.requests[1]!.body.messages.slice(1)).toEqual([
          { role: 'user', content: 'Who stays in the lighthouse suite?' },
          { role: 'assistant', content: 'Model answer 1' },
          { role: 'user', content: 'And the ferry?' },
        ]);
        // The ferry's answer drew on no personal-data item: kept in clear, as answers always were.
        expect((await stored(first.threadId))[1]).toEqual(expect.not.objectContaining({ sealed: expect.anything() }));
        expect((await stored(first.threadId))[1]).toMatchObject({ response: 'Model answer 2' });
        const alone = await ask('Who stays in the lighthouse suite?');
        expect(await settled(alone)).toEqual({ status: 'completed' });

        expect((await api('POST', `/v2/contents/Guest/${guestId}/erase`, { ...write, body: { reason: 'guest asked' } })).status).toBe(200);
        const gone = await response(alone.threadId);
        expect(gone.status).toBe(410);
        expect(gone.body.detail).toContain('erased');
        expect(await status(alone)).toEqual({ status: 'completed' });
        expect((await response(first.threadId)).body).toEqual({ response: 'Model answer 2' });
        // A follow-up is asked without the exchange whose answer can no longer be read.
        const third = await ask('And the tide?', first.threadId);
        expect(await settled(third)).toEqual({ status: 'completed' });
        expect(chat.requests[3]!.body.messages.slice(1)).toEqual([
          { role: 'user', content: 'And the ferry?' },
          { role: 'assistant', content: 'Model answer 2' },
          { role: 'user', content: 'And the tide?' },
        ]);
      });

      it('fails the run with the reason when the provider answers 500, keeping the earlier answer', async () => {
        const first = await ask('When is high tide at Marrow Point?');
        await settled(first);
        chat.mode = 'fail';
        const failing = await ask('And tomorrow?', first.threadId);
        const outcome = await settled(failing);
        expect(outcome).toEqual({ status: 'failed', error: expect.stringContaining('AI provider answered 500') });
        expect(outcome.error).toContain('model overloaded');
        expect(outcome.error).not.toContain(API_KEY);
        expect((await response(first.threadId)).body).toEqual({ response: 'Model answer 1' });

        const fresh = await ask('Is anyone there?');
        expect((await settled(fresh)).status).toBe('failed');
        expect((await response(fresh.threadId)).status).toBe(404);
      });

      it('fails the run when the provider answers with a malformed body', async () => {
        chat.mode = 'malformed';
        const run = await ask('When is high tide at Marrow Point?');
        expect(await settled(run)).toEqual({ status: 'failed', error: expect.stringContaining('malformed') });
      });

      it('runs a prompt that was in progress when the service stopped again after the restart', async () => {
        chat.mode = 'hold';
        const run = await ask('When is high tide at Marrow Point?');
        await eventually(() => chat.requests.length === 1);
        service = await service.restart();
        api = client(service.url);
        expect(await status(run)).toEqual({ status: 'in_progress' });
        await eventually(() => chat.requests.length === 2);
        chat.release();
        expect(await settled(run)).toEqual({ status: 'completed' });
        expect((await response(run.threadId)).body).toEqual({ response: 'Model answer 2' });
      });
    });
  });
}
