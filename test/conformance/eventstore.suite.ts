import { randomUUID } from 'node:crypto';
import {
  START,
  WrongExpectedRevisionError,
  comparePositions,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  LOG_PAGE_BYTES,
  type ReadAllOptions,
  type RecordedEvent,
  type Subscription,
} from '../../infra/eventstore/port';
import { eventHash } from '../../infra/eventstore/chain';
import { incompressibleData } from '../support/incompressible';

/**
 * One suite for every EventStore adapter. Tests share one store (and, for a server, possibly
 * other writers), so each test works on its own random stream names and only asserts about them.
 * A store may show a committed event to global reads a little later than to stream reads
 * (PostgreSQL waits for older transactions), so global reads are awaited with `eventually`.
 */
export function describeEventStoreConformance(
  label: string,
  open: () => Promise<{ store: EventStore; close: () => Promise<void> }>,
  /** `appendManyAtomic`: a failed appendMany writes none of its requests (else the ones before the failure). */
  { appendManyAtomic }: { readonly appendManyAtomic: boolean } = { appendManyAtomic: true },
): void {
  describe(`EventStore conformance: ${label}`, () => {
    let store: EventStore;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ store, close } = await open());
    });

    afterAll(async () => {
      await close();
    });

    describe('append and readStream', () => {
      it('appends to a new stream and reads it forwards and backwards', async () => {
        const stream = streamName('order');
        // Twelve events, so that revision 10 would sort before 2 if anything compared them as text.
        const types = Array.from({ length: 12 }, (_, i) => `E${i}`);
        const result = await store.append(stream, types.map((type) => event(type)), 'no_stream');

        const forwards = await store.readStream(stream);
        expect(forwards.map((e) => e.type)).toEqual(types);
        expect(revisions(forwards)).toEqual(types.map((_, i) => i));
        expect(forwards.every((e) => e.stream === stream)).toBe(true);
        expect(result).toEqual({ revision: 11, position: forwards[11]!.position });
        expectStrictlyIncreasing(forwards.map((e) => e.position));

        expect(revisions(await store.readStream(stream, { direction: 'backwards' }))).toEqual(types.map((_, i) => 11 - i));
        expect(revisions(await store.readStream(stream, { direction: 'backwards', fromRevision: 10, maxCount: 3 }))).toEqual([10, 9, 8]);
        expect(revisions(await store.readStream(stream, { fromRevision: 9, maxCount: 2 }))).toEqual([9, 10]);
        expect(revisions(await store.readStream(stream, { maxCount: 1 }))).toEqual([0]);
        expect(await store.readStream(stream, { fromRevision: 12 })).toEqual([]);
      });

      it('keeps the data of a large event exactly in every read: over 64 KB stored, which a server reads apart in pieces', async () => {
        const stream = streamName('large');
        const data = incompressibleData();
        const before = await store.headPosition();
        await store.append(stream, [event('Small'), { type: 'Large', data, metadata: event('x').metadata }, event('Small')], 'no_stream');
        const [, large] = await store.readStream(stream);
        expect(large!.data).toEqual(data);
        expect((await store.readStream(stream, { direction: 'backwards', fromRevision: 1, maxCount: 1 }))[0]!.data).toEqual(data);
        expect((await store.readStreams([stream])).get(stream)![1]!.data).toEqual(data);
        expect((await store.readStreamTail(stream, 2)).events[0]!.data).toEqual(data);
        const read = (options: ReadAllOptions) => eventually(async () => (await store.readAll({ after: before, ...options })).find((recorded) => recorded.stream === stream && recorded.type === 'Large')?.data);
        expect(await read({})).toEqual(data);
        expect(await read({ maxBytes: LOG_PAGE_BYTES })).toEqual(data);
      });

      it('keeps ids, data and metadata exactly and generates UUIDs for missing ids', async () => {
        const stream = streamName('roundtrip');
        const full: EventMetadata = {
          workspaceId: 'ws-1',
          actor: 'key-42',
          clientInfo: 'cli/1.2.3',
          correlationId: randomUUID(),
          causationId: randomUUID(),
          timestamp: '2024-05-06T07:08:09.123Z',
        };
        const minimal: EventMetadata = { workspaceId: null, actor: 'system', correlationId: randomUUID(), timestamp: '2024-05-06T07:08:10.000Z' };
        const data = { title: 'Grüße ✓', count: 3, ratio: 0.5, flags: [true, false], nested: { empty: null, list: [{ a: 1 }] } };
        const givenId = randomUUID();

        await store.append(
          stream,
          [
            { id: givenId, type: 'Full', data, metadata: full },
            { type: 'Minimal', data: { n: 1 }, metadata: minimal },
            { type: 'Minimal', data: { n: 2 }, metadata: minimal },
          ],
          'no_stream',
        );

        const [first, second, third] = await store.readStream(stream);
        expect(first!.id).toBe(givenId);
        expect(first!.data).toStrictEqual(data);
        expect(first!.metadata).toStrictEqual(full);
        expect(second!.metadata).toStrictEqual(minimal);
        expect(second!.id).toMatch(UUID);
        expect(third!.id).toMatch(UUID);
        expect(second!.id).not.toBe(third!.id);
      });

      it('checks the expected revision and writes nothing when the check fails', async () => {
        const stream = streamName('concurrency');
        const missing = streamName('missing');

        expect(await store.append(stream, [event('E0')], 'no_stream')).toMatchObject({ revision: 0 });
        await expectWrongRevision(store.append(stream, [event('X')], 'no_stream'), stream, 'no_stream', 0);
        expect(await store.append(stream, [event('E1'), event('E2')], 0)).toMatchObject({ revision: 2 });
        await expectWrongRevision(store.append(stream, [event('X')], 0), stream, 0, 2);
        await expectWrongRevision(store.append(stream, [event('X')], 7), stream, 7, 2);
        expect(await store.append(stream, [event('E3')], 'stream_exists')).toMatchObject({ revision: 3 });
        expect(await store.append(stream, [event('E4')], 'any')).toMatchObject({ revision: 4 });

        await expectWrongRevision(store.append(missing, [event('X')], 'stream_exists'), missing, 'stream_exists', 'no_stream');
        await expectWrongRevision(store.append(missing, [event('X')], 0), missing, 0, 'no_stream');
        expect(await store.readStream(missing)).toEqual([]);

        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);
        const fresh = streamName('any');
        expect(await store.append(fresh, [event('F0')], 'any')).toMatchObject({ revision: 0 });
      });

      it('answers an empty append with the current revision after checking the expectation', async () => {
        const stream = streamName('empty');
        expect(await store.append(stream, [], 'no_stream')).toEqual({ revision: -1, position: START });
        expect(await store.append(stream, [], 'any')).toEqual({ revision: -1, position: START });
        await expectWrongRevision(store.append(stream, [], 'stream_exists'), stream, 'stream_exists', 'no_stream');
        expect(await store.readStream(stream)).toEqual([]);

        const written = await store.append(stream, [event('A'), event('B')], 'no_stream');
        expect(await store.append(stream, [], 1)).toEqual(written);
        expect(await store.append(stream, [], 'stream_exists')).toEqual(written);
        await expectWrongRevision(store.append(stream, [], 0), stream, 0, 1);
        await expectWrongRevision(store.append(stream, [], 'no_stream'), stream, 'no_stream', 1);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('lets exactly one of two concurrent appends with the same expectation succeed', async () => {
        const stream = streamName('race');
        const created = await Promise.allSettled([
          store.append(stream, [event('FromA')], 'no_stream'),
          store.append(stream, [event('FromB')], 'no_stream'),
        ]);
        expectOneWinner(created);

        const continued = await Promise.allSettled([
          store.append(stream, [event('NextA'), event('NextA')], 0),
          store.append(stream, [event('NextB')], 0),
        ]);
        expectOneWinner(continued);

        const written = await store.readStream(stream);
        expect(revisions(written)).toEqual(written.length === 3 ? [0, 1, 2] : [0, 1]);
      });

      it('judges each of many concurrent appends to different streams on its own expectation', async () => {
        const existing = await Promise.all(Array.from({ length: 10 }, async () => {
          const stream = streamName('judged');
          await store.append(stream, [event('E0'), event('E1')], 'no_stream');
          return stream;
        }));
        const fresh = Array.from({ length: 10 }, () => streamName('judged-new'));
        type Case = { stream: string; expected: ExpectedRevision; succeeds: boolean; actual: number | 'no_stream' };
        const onExisting: Omit<Case, 'stream'>[] = [
          { expected: 1, succeeds: true, actual: 1 },
          { expected: 0, succeeds: false, actual: 1 },
          { expected: 'no_stream', succeeds: false, actual: 1 },
          { expected: 'stream_exists', succeeds: true, actual: 1 },
          { expected: 'any', succeeds: true, actual: 1 },
        ];
        const onFresh: Omit<Case, 'stream'>[] = [
          { expected: 'no_stream', succeeds: true, actual: 'no_stream' },
          { expected: 'any', succeeds: true, actual: 'no_stream' },
          { expected: 'stream_exists', succeeds: false, actual: 'no_stream' },
          { expected: 0, succeeds: false, actual: 'no_stream' },
        ];
        const cases: Case[] = [
          ...existing.map((stream, index) => ({ stream, ...onExisting[index % onExisting.length]! })),
          ...fresh.map((stream, index) => ({ stream, ...onFresh[index % onFresh.length]! })),
        ];

        const results = await Promise.allSettled(cases.map((one) => store.append(one.stream, [event('Judged'), event('Judged')], one.expected)));

        for (const [index, one] of cases.entries()) {
          const result = results[index]!;
          const written = await store.readStream(one.stream);
          const before = one.actual === 'no_stream' ? 0 : one.actual + 1;
          if (one.succeeds) {
            expect(result).toMatchObject({ status: 'fulfilled', value: { revision: before + 1 } });
            expect(written.map((e) => e.type)).toEqual([...Array(before).fill(expect.any(String)), 'Judged', 'Judged']);
          } else {
            expect(result.status).toBe('rejected');
            expect((result as PromiseRejectedResult).reason).toMatchObject(new WrongExpectedRevisionError(one.stream, one.expected, one.actual));
            expect(written).toHaveLength(before);
          }
        }
      });

      it('reads a missing stream as empty', async () => {
        const stream = streamName('nothing');
        expect(await store.readStream(stream)).toEqual([]);
        expect(await store.readStream(stream, { direction: 'backwards' })).toEqual([]);
        expect(await store.readStreamHeaders(stream)).toEqual([]);
      });

      it('reads many streams at once: each whole and in order as readStream answers it, a missing one as empty', async () => {
        const [first, second, missing] = [streamName('many'), streamName('many'), streamName('many')];
        await store.append(first, Array.from({ length: 11 }, (_, i) => event(`A${i}`)), 'no_stream');
        await store.append(second, [event('B0')], 'no_stream');
        await store.append(first, [event('A11')], 10);

        const read = await store.readStreams([second, missing, first]);
        expect([...read.keys()].sort()).toEqual([first, second, missing].sort());
        expect(read.get(first)).toEqual(await store.readStream(first));
        expect(revisions(read.get(first)!)).toEqual(Array.from({ length: 12 }, (_, i) => i));
        expect(read.get(second)).toEqual(await store.readStream(second));
        expect(read.get(missing)).toEqual([]);
        expect((await store.readStreams([])).size).toBe(0);
      });

      it('answers many streams\' last revisions at once, -1 for a stream that does not exist', async () => {
        const long = streamName('revisions-long');
        const short = streamName('revisions-short');
        const missing = streamName('revisions-missing');
        await store.append(long, Array.from({ length: 7 }, (_, i) => event(`L${i}`)), 'no_stream');
        await store.append(short, [event('S0')], 'no_stream');
        const revisions = await store.streamRevisions([short, missing, long]);
        expect(Object.fromEntries(revisions)).toEqual({ [long]: 6, [short]: 0, [missing]: -1 });
        expect((await store.streamRevisions([])).size).toBe(0);
      });

      it('reads a stream\'s headers: every event in order as readStream answers it, without data', async () => {
        const stream = streamName('headers');
        const types = Array.from({ length: 12 }, (_, i) => `E${i}`);
        await store.append(stream, types.map((type) => event(type, { data: { big: 'x'.repeat(1000), type } })), 'no_stream');
        const headers = await store.readStreamHeaders(stream);
        expect(headers).toEqual((await store.readStream(stream)).map(({ id, stream, revision, position, type, metadata }) => ({ id, stream, revision, position, type, metadata })));
        expect(revisions(headers)).toEqual(types.map((_, i) => i));
        expect(headers.some((header) => 'data' in header || 'hash' in header)).toBe(false);
      });

      it('reads a stream\'s tail whole and the outlines of the events before it, as readStream answers them', async () => {
        const stream = streamName('tail');
        const types = Array.from({ length: 12 }, (_, i) => `E${i}`);
        await store.append(stream, types.map((type) => event(type, { data: { big: 'x'.repeat(1000), type } })), 'no_stream');
        const whole = await store.readStream(stream);
        const outlineOf = ({ stream, revision, type }: RecordedEvent) => ({ stream, revision, type });

        const tail = await store.readStreamTail(stream, 5);
        expect(tail.events).toEqual(whole.slice(7));
        expect(tail.earlier).toEqual(whole.slice(0, 7).map(outlineOf));

        for (const maxCount of [12, 13]) expect(await store.readStreamTail(stream, maxCount)).toEqual({ events: whole, earlier: [] });
        expect(await store.readStreamTail(stream, 11)).toEqual({ events: whole.slice(1), earlier: [outlineOf(whole[0]!)] });
        expect(await store.readStreamTail(streamName('tail-missing'), 5)).toEqual({ events: [], earlier: [] });
      });
    });

    describe('appendMany', () => {
      it('appends to many streams in one call, in the order given, each on its own expectation', async () => {
        const existing = streamName('many-existing');
        const kept = streamName('many-kept');
        await store.append(existing, [event('Old0'), event('Old1')], 'no_stream');
        await store.append(kept, [event('Kept0')], 'no_stream');
        const from = await store.headPosition();
        const fresh = streamName('many-fresh');
        const anyStream = streamName('many-any');
        const id = randomUUID();

        const results = await store.appendMany([
          { stream: fresh, events: [event('F0', { id }), event('F1')], expectedRevision: 'no_stream' },
          { stream: existing, events: [event('E2')], expectedRevision: 1 },
          { stream: kept, events: [event('K1'), event('K2')], expectedRevision: 'stream_exists' },
          { stream: anyStream, events: [event('A0')], expectedRevision: 'any' },
        ]);

        expect(results.map((result) => result.revision)).toEqual([1, 2, 2, 0]);
        const logged = await eventually(async () => {
          const page = (await store.readAll({ after: from, maxCount: 500 })).filter((e) => [fresh, existing, kept, anyStream].includes(e.stream));
          return page.length === 6 ? page : undefined;
        });
        expect(logged.map((e) => `${e.type}@${e.revision}`)).toEqual(['F0@0', 'F1@1', 'E2@2', 'K1@1', 'K2@2', 'A0@0']);
        expectStrictlyIncreasing(logged.map((e) => e.position));
        expect(results.map((result) => result.position)).toEqual([logged[1]!.position, logged[2]!.position, logged[4]!.position, logged[5]!.position]);
        expect(logged[0]!.id).toBe(id);
        expect(logged[0]!.data).toEqual({ type: 'F0' });
        expect(logged.slice(1).every((e) => UUID.test(e.id))).toBe(true);
        expect((await store.readStream(existing)).map((e) => e.type)).toEqual(['Old0', 'Old1', 'E2']);
        expect(await store.appendMany([])).toEqual([]);
      });

      it(`throws for the first failed expectation and writes ${appendManyAtomic ? 'none of the requests' : 'only the requests before it'}`, async () => {
        const before = streamName('many-before');
        const taken = streamName('many-taken');
        const after = streamName('many-after');
        await store.append(taken, [event('T0')], 'no_stream');

        const failing = store.appendMany([
          { stream: before, events: [event('B0')], expectedRevision: 'no_stream' },
          { stream: taken, events: [event('X')], expectedRevision: 'no_stream' },
          { stream: after, events: [event('A0')], expectedRevision: 'no_stream' },
        ]);

        await expectWrongRevision(failing, taken, 'no_stream', 0);
        expect((await store.readStream(before)).map((e) => e.type)).toEqual(appendManyAtomic ? [] : ['B0']);
        expect((await store.readStream(taken)).map((e) => e.type)).toEqual(['T0']);
        expect(await store.readStream(after)).toEqual([]);
      });

      it('refuses a stream named twice or a request without events, writing nothing', async () => {
        const first = streamName('many-twice');
        const second = streamName('many-empty');
        await expect(
          store.appendMany([
            { stream: first, events: [event('A')], expectedRevision: 'no_stream' },
            { stream: first, events: [event('B')], expectedRevision: 0 },
          ]),
        ).rejects.toThrow(/appears twice/);
        await expect(
          store.appendMany([
            { stream: first, events: [event('A')], expectedRevision: 'no_stream' },
            { stream: second, events: [], expectedRevision: 'any' },
          ]),
        ).rejects.toThrow(/has no events/);
        expect(await store.readStream(first)).toEqual([]);
        expect(await store.readStream(second)).toEqual([]);
      });
    });

    describe('readAll and headPosition', () => {
      it('reads from the start of the log in strictly increasing positions', async () => {
        await store.append(streamName('log'), [event('A'), event('B')], 'no_stream');
        const first = await eventually(async () => {
          const page = await store.readAll({ maxCount: 2 });
          return page.length === 2 ? page : undefined;
        });
        expect(comparePositions(first[0]!.position, START)).toBe(1);
        expectStrictlyIncreasing(first.map((e) => e.position));
        expect(await store.readAll({ after: START, maxCount: 2 })).toEqual(first);
        expect((await store.readAll({ after: first[0]!.position, maxCount: 1 }))[0]).toEqual(first[1]);
      });

      it('pages from a position, exclusive, covering every event exactly once in order', async () => {
        const from = await store.headPosition();
        const prefix = streamName('paging');
        const appended: string[] = [];
        for (let i = 0; i < 7; i++) {
          const events = Array.from({ length: (i % 3) + 1 }, () => event('Paged', { id: randomUUID() }));
          await store.append(`${prefix}-${i % 2}`, events, 'any');
          appended.push(...events.map((e) => e.id!));
        }

        const all = await eventually(async () => {
          const read = await store.readAll({ after: from });
          return read.filter((e) => e.stream.startsWith(prefix)).length === appended.length ? read : undefined;
        });
        const paged: RecordedEvent[] = [];
        for (let page = await store.readAll({ after: from, maxCount: 2 }); page.length > 0; ) {
          expect(page.length).toBeLessThanOrEqual(2);
          paged.push(...page);
          page = await store.readAll({ after: page[page.length - 1]!.position, maxCount: 2 });
        }

        const mine = (events: RecordedEvent[]) => events.filter((e) => e.stream.startsWith(prefix)).map((e) => e.id);
        expect(mine(all)).toEqual(appended);
        expect(mine(paged)).toEqual(appended);
        expectStrictlyIncreasing(paged.map((e) => e.position));
        expect(paged.every((e) => comparePositions(e.position, from) > 0)).toBe(true);
        expect(await store.readAll({ after: all[all.length - 1]!.position, maxCount: 0 })).toEqual([]);

        const byId = new Map(all.map((e) => [e.id, e]));
        for (const stream of [`${prefix}-0`, `${prefix}-1`]) {
          for (const recorded of await store.readStream(stream)) expect(byId.get(recorded.id)).toEqual(recorded);
        }
      });

      it('keeps a page within maxBytes, at least one event, even of repetitive text that compresses well; paging on covers every event once', async () => {
        const from = await store.headPosition();
        const prefix = streamName('bytes');
        const maxBytes = 250_000;
        const appended: string[] = [];
        for (let i = 0; i < 5; i++) {
          const big = event('Large', { id: randomUUID(), data: { text: i % 2 === 0 ? 'x'.repeat(120_000) : 'ab'.repeat(60_000) } });
          await store.append(`${prefix}-${i}`, [big], 'no_stream');
          appended.push(big.id!);
        }
        await eventually(async () => ((await store.readAll({ after: from })).filter((e) => e.stream.startsWith(prefix)).length === appended.length) || undefined);
        const bytes = (e: RecordedEvent) => Buffer.byteLength(JSON.stringify(e.data)) + Buffer.byteLength(JSON.stringify(e.metadata));
        const paged: RecordedEvent[] = [];
        let mostOfMine = 0;
        for (let page = await store.readAll({ after: from, maxCount: 100, maxBytes }); page.length > 0; ) {
          expect(page.slice(0, -1).reduce((sum, e) => sum + bytes(e), 0)).toBeLessThan(maxBytes);
          mostOfMine = Math.max(mostOfMine, page.filter((e) => e.stream.startsWith(prefix)).length);
          paged.push(...page);
          page = await store.readAll({ after: page[page.length - 1]!.position, maxCount: 100, maxBytes });
        }
        expect(paged.filter((e) => e.stream.startsWith(prefix)).map((e) => e.id)).toEqual(appended);
        // Each of these is over 100,000 bytes: no page held more than three of them.
        expect(mostOfMine).toBeLessThanOrEqual(3);
        expect(await store.readAll({ after: from, maxCount: 100, maxBytes: 1 })).toHaveLength(1);
      });

      it('counts the events readAll would return after a position, at most as many as asked', async () => {
        const from = await store.headPosition();
        const stream = streamName('counted');
        const { position } = await store.append(stream, [event('A'), event('B'), event('C')], 'no_stream');
        await eventually(async () => (await store.countAfter(from, 1000)) >= 3 || undefined);
        expect(await store.countAfter(from, 2)).toBe(2);
        const mine = await store.readAll({ after: from, maxCount: 1000 });
        expect(await store.countAfter(from, 1000)).toBe(mine.length);
        expect(mine.filter((e) => e.stream === stream)).toHaveLength(3);
        expect(await store.countAfter(from, 0)).toBe(0);
        const after = await store.readAll({ after: position, maxCount: 1000 });
        expect(await store.countAfter(position, 1000)).toBe(after.length);
      });

      it('reports the position of the last event readAll returns as the head', async () => {
        const { position } = await store.append(streamName('head'), [event('A'), event('B')], 'no_stream');
        await eventually(async () => comparePositions(await store.headPosition(), position) >= 0 || undefined);
        const head = await store.headPosition();
        const tail = await store.readAll({ after: position });
        expect(head).toEqual(tail.length > 0 ? tail[tail.length - 1]!.position : position);
        expect(await store.readAll({ after: head })).toEqual([]);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up on history, reports it, then delivers live events', async () => {
        const from = await store.headPosition();
        const stream = streamName('catchup');
        const history = await store.append(stream, [event('H0'), event('H1'), event('H2')], 'no_stream');
        const probe = subscribe(store, from, stream);

        const caughtUp = await eventually(async () => probe.caughtUp.find((c) => comparePositions(c.position, history.position) >= 0));
        expect(caughtUp.delivered).toBe(3);

        await store.append(stream, [event('L3')], 2);
        await store.append(stream, [event('L4')], 3);
        await eventually(async () => probe.mine.length === 5 || undefined);
        // Caught up is reported again once the live events are delivered.
        await eventually(async () => probe.caughtUp.find((c) => c.delivered === 5));
        await probe.subscription.stop();

        expect(probe.mine.map((e) => e.type)).toEqual(['H0', 'H1', 'H2', 'L3', 'L4']);
        expectStrictlyIncreasing(probe.all.map((e) => e.position));
        await expect(probe.subscription.done).resolves.toBeUndefined();
      });

      it("delivers nothing more until the subscriber's answer to caught up settles, then what arrived meanwhile", async () => {
        const from = await store.headPosition();
        const stream = streamName('held');
        await store.append(stream, [event('B0')], 'no_stream');
        const delivered: string[] = [];
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let reports = 0;
        const subscription = store.subscribeToAll({
          after: from,
          onEvent: async (e) => void (e.stream === stream && delivered.push(e.type)),
          onCaughtUp: () => (++reports === 1 ? held : undefined),
        });
        await eventually(async () => (reports === 1 ? true : undefined));
        await store.append(stream, [event('B1')], 0);
        await store.append(stream, [event('B2')], 1);
        await delay(600);
        expect(delivered).toEqual(['B0']);
        release();
        await eventually(async () => (delivered.length === 3 ? true : undefined));
        await subscription.stop();
        expect(delivered).toEqual(['B0', 'B1', 'B2']);
      });

      it('starts strictly after the given position', async () => {
        const stream = streamName('after');
        await store.append(stream, [event('E0')], 'no_stream');
        const { position } = await store.append(stream, [event('E1')], 0);
        await store.append(stream, [event('E2')], 1);
        const probe = subscribe(store, position, stream);

        await eventually(async () => probe.mine.length >= 1 || undefined);
        await store.append(stream, [event('E3')], 2);
        await eventually(async () => probe.mine.length >= 2 || undefined);
        await probe.subscription.stop();

        expect(probe.mine.map((e) => e.type)).toEqual(['E2', 'E3']);
        expect(probe.all.every((e) => comparePositions(e.position, position) > 0)).toBe(true);
      });

      it('stops after the event in hand has been handled and delivers nothing more', async () => {
        const from = await store.headPosition();
        const stream = streamName('stop');
        let entered = false;
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const handled: string[] = [];
        const subscription = store.subscribeToAll({
          after: from,
          onEvent: async (e) => {
            if (e.stream !== stream) return;
            entered = true;
            await gate;
            handled.push(e.type);
          },
        });
        await store.append(stream, [event('First')], 'no_stream');
        await eventually(async () => entered || undefined);

        let stopped = false;
        const stopping = subscription.stop().then(() => (stopped = true));
        await delay(100);
        expect(stopped).toBe(false);
        release();
        await stopping;
        expect(handled).toEqual(['First']);

        await store.append(stream, [event('Second')], 0);
        await delay(600);
        expect(handled).toEqual(['First']);
        await expect(subscription.done).resolves.toBeUndefined();
      });

      it('ends and rejects done when the handler throws', async () => {
        const from = await store.headPosition();
        const stream = streamName('failing');
        const failure = new Error('projection failed');
        const calls: string[] = [];
        const subscription = store.subscribeToAll({
          after: from,
          onEvent: async (e) => {
            if (e.stream !== stream) return;
            calls.push(e.type);
            throw failure;
          },
        });
        await store.append(stream, [event('Boom'), event('Never')], 'no_stream');

        await expect(subscription.done).rejects.toBe(failure);
        await store.append(stream, [event('Later')], 1);
        await delay(300);
        expect(calls).toEqual(['Boom']);
        await expect(subscription.stop()).resolves.toBeUndefined();
      });

      it('never calls the handler again before the previous call has finished', async () => {
        const from = await store.headPosition();
        const prefix = streamName('backpressure');
        await store.append(`${prefix}-history`, [event('H'), event('H'), event('H')], 'no_stream');
        const probe = subscribe(store, from, prefix, () => delay(5));

        await Promise.all(Array.from({ length: 10 }, (_, i) => store.append(`${prefix}-${i}`, [event('Live')], 'no_stream')));
        await eventually(async () => probe.mine.length === 13 || undefined);
        await probe.subscription.stop();

        expect(probe.maxInFlight()).toBe(1);
        expectStrictlyIncreasing(probe.all.map((e) => e.position));
      });

      it('delivers every event of many concurrent writers exactly once, in the order of readAll', async () => {
        const from = await store.headPosition();
        const prefix = streamName('writers');
        const probe = subscribe(store, from, prefix, () => new Promise((resolve) => setImmediate(resolve)));

        const appended: string[] = [];
        const writer = async (w: number) => {
          let own: number | 'no_stream' = 'no_stream';
          for (let i = 0; i < 25; i++) {
            const events = Array.from({ length: ((w + i) % 3) + 1 }, () => event('Written', { id: randomUUID() }));
            if (i % 3 === 2) {
              await store.append(`${prefix}-shared-${(w + i) % 3}`, events, 'any');
            } else {
              own = (await store.append(`${prefix}-own-${w}`, events, own)).revision;
            }
            appended.push(...events.map((e) => e.id!));
          }
        };
        await Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)));

        await eventually(async () => probe.mine.length >= appended.length || undefined, 20_000);
        await probe.subscription.stop();

        const delivered = probe.mine.map((e) => e.id);
        expect(delivered).toHaveLength(appended.length);
        expect(new Set(delivered)).toEqual(new Set(appended));
        expect(probe.maxInFlight()).toBe(1);
        expectStrictlyIncreasing(probe.all.map((e) => e.position));

        const logged: string[] = [];
        for (let page = await store.readAll({ after: from, maxCount: 500 }); page.length > 0; ) {
          logged.push(...page.filter((e) => e.stream.startsWith(prefix)).map((e) => e.id));
          page = await store.readAll({ after: page[page.length - 1]!.position, maxCount: 500 });
        }
        expect(delivered).toEqual(logged);
      });
    });

    describe('hash chain', () => {
      it('gives every appended event the hash of its content on the hash of the event before it', async () => {
        const stream = streamName('chain');
        const upper = randomUUID().toUpperCase();
        await store.append(stream, [event('First', { id: upper, data: { b: 1, a: [1.5, 'Grüße', { z: null, y: true }] } }), event('Second')], 'no_stream');
        await store.append(stream, [event('Third')], 'any');
        await store.append(stream, [event('Fourth'), event('Fifth')], 'stream_exists');
        await store.append(stream, [event('Sixth')], 4);

        const written = await store.readStream(stream);
        expect(written).toHaveLength(6);
        expectChained(written);
        const [head] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
        expect(head!.hash).toBe(written[5]!.hash);
      });

      it('links each stream of many concurrent appends to its own chain', async () => {
        const streams = Array.from({ length: 20 }, () => streamName('chains'));
        await Promise.all(streams.map((stream) => store.append(stream, [event('Created'), event('Named')], 'no_stream')));
        await Promise.all(streams.map((stream, index) => store.append(stream, [event('Changed', { data: { index } })], index % 2 === 0 ? 1 : 'any')));
        for (const stream of streams) {
          const written = await store.readStream(stream);
          expect(written).toHaveLength(3);
          expectChained(written);
        }
      });

      it('answers a chain that no longer verifies when an event is changed', async () => {
        const stream = streamName('changed');
        await store.append(stream, [event('Priced', { data: { price: 10 } }), event('Priced', { data: { price: 12 } })], 'no_stream');
        const [first, second] = await store.readStream(stream);
        expect(eventHash(first!, 0, null).toString('hex')).toBe(first!.hash);
        const edited = { ...second!, data: { price: 1 } };
        expect(eventHash(edited, 1, Buffer.from(first!.hash!, 'hex')).toString('hex')).not.toBe(second!.hash);
      });
    });
  });
}

/** Each event's hash is its content's, linked onto the stored hash of the event before it. */
function expectChained(events: RecordedEvent[]): void {
  let previous: Buffer | null = null;
  for (const recorded of events) {
    expect(recorded.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(recorded.hash).toBe(eventHash(recorded, recorded.revision, previous).toString('hex'));
    previous = Buffer.from(recorded.hash!, 'hex');
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function streamName(kind: string): string {
  return `conformance-${kind}-${randomUUID()}`;
}

function event(type: string, extra: Partial<NewEvent> = {}): NewEvent {
  return {
    type,
    data: { type },
    metadata: { workspaceId: 'ws-conformance', actor: 'test', correlationId: randomUUID(), timestamp: new Date().toISOString() },
    ...extra,
  };
}

function revisions(events: readonly { readonly revision: number }[]): number[] {
  return events.map((e) => e.revision);
}

function expectStrictlyIncreasing(positions: Position[]): void {
  for (let i = 1; i < positions.length; i++) expect(comparePositions(positions[i - 1]!, positions[i]!)).toBe(-1);
}

async function expectWrongRevision(
  append: Promise<unknown>,
  stream: string,
  expected: WrongExpectedRevisionError['expected'],
  actual: WrongExpectedRevisionError['actual'],
): Promise<void> {
  const error: unknown = await append.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect(error).toMatchObject({ stream, expected, actual });
}

function expectOneWinner(results: PromiseSettledResult<unknown>[]): void {
  const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  expect(rejected).toHaveLength(1);
  expect(rejected[0]!.reason).toBeInstanceOf(WrongExpectedRevisionError);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns something other than undefined. */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await delay(20);
  }
}

/** Subscribes and records what arrives; `mine` holds the events of streams starting with `prefix`. */
function subscribe(store: EventStore, after: Position, prefix: string, work: () => Promise<void> = async () => undefined) {
  const all: RecordedEvent[] = [];
  const mine: RecordedEvent[] = [];
  const caughtUp: { position: Position; delivered: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const subscription: Subscription = store.subscribeToAll({
    after,
    onEvent: async (e) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      all.push(e);
      if (e.stream.startsWith(prefix)) mine.push(e);
      await work();
      inFlight--;
    },
    onCaughtUp: (position) => void caughtUp.push({ position, delivered: mine.length }),
  });
  return { subscription, all, mine, caughtUp, maxInFlight: () => maxInFlight };
}
