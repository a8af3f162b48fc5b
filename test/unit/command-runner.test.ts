import { CommandRunner, ReadModelsBehindError } from '../../commands/aggregate';
import { contentAggregate } from '../../commands/content';
import { systemClock } from '../../infra/clock';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { DomainError } from '../../src/domain/errors';
import { countingCalls } from '../support/counting';
import { openMemoryPglite } from '../support/pglite-template';

const context = { workspaceId: 'ws', actor: 'test' };
const ready = { waitFor: async () => true };
const save = (itemId: string, title: string, create: boolean) => ({
  type: 'SaveDraft' as const,
  workspaceId: 'ws',
  itemId,
  contentType: 'Article',
  fields: { title },
  translations: null,
  create,
  publish: false,
});

describe('command runner', () => {
  let sql: PgliteSqlClient;
  let events: PostgresEventStore;

  beforeAll(async () => {
    sql = await openMemoryPglite();
    events = await PostgresEventStore.create(sql);
  });
  afterAll(() => sql.close());

  it('creates without reading the stream; another process updates with the revision it read', async () => {
    const { proxy: counting, calls } = countingCalls(events, ['readStream', 'readStreamTail']);
    const runner = new CommandRunner(counting, systemClock, ready);
    await runner.create(contentAggregate, 'content-ws-a', save('a', 'first', true), context);
    expect(calls).toEqual({ readStream: 0, readStreamTail: 0 });
    const anotherProcess = new CommandRunner(counting, systemClock, ready);
    const updated = await anotherProcess.run(contentAggregate, 'content-ws-a', save('a', 'second', false), context);
    expect(calls).toEqual({ readStream: 0, readStreamTail: 1 });
    expect(updated.state.draft?.fields).toEqual({ title: 'second' });
    expect((await events.readStream('content-ws-a')).map((event) => event.revision)).toEqual([0, 1]);
  });

  it('gives the events of one command one instant and one correlation id, however the clock moves meanwhile', async () => {
    let tick = Date.parse('2026-01-01T00:00:00.000Z');
    const ticking = { now: () => new Date(tick++) };
    const runner = new CommandRunner(events, ticking, ready);
    await runner.create(contentAggregate, 'content-ws-t', { ...save('t', 'first', true), publish: true }, { workspaceId: 'ws', actor: 'test' });
    const [saved, published] = await events.readStream('content-ws-t');
    expect([saved!.type, published!.type]).toEqual(['ContentDraftSaved', 'ContentPublished']);
    expect(published!.metadata.timestamp).toBe(saved!.metadata.timestamp);
    expect(published!.metadata.correlationId).toBe(saved!.metadata.correlationId);
  });

  it('falls back to deciding on the stored state when the stream to create exists after all', async () => {
    const runner = new CommandRunner(events, systemClock, ready);
    await runner.create(contentAggregate, 'content-ws-b', save('b', 'first', true), context);
    await expect(runner.create(contentAggregate, 'content-ws-b', save('b', 'again', true), context)).rejects.toMatchObject({ kind: 'conflict' } as Partial<DomainError>);
    expect(await events.readStream('content-ws-b')).toHaveLength(1);
  });

  it('decides on the state it decided last without reading, and re-reads when another writer appended since', async () => {
    const { proxy: counting, calls } = countingCalls(events, ['readStreamTail']);
    const runner = new CommandRunner(counting, systemClock, ready);
    await runner.create(contentAggregate, 'content-ws-d', save('d', 'first', true), context);
    await runner.run(contentAggregate, 'content-ws-d', save('d', 'second', false), context);
    expect(calls.readStreamTail).toBe(0);

    const elsewhere = new CommandRunner(events, systemClock, ready);
    await elsewhere.run(contentAggregate, 'content-ws-d', { type: 'Publish', workspaceId: 'ws', itemId: 'd', contentType: 'Article' }, context);
    const after = await runner.run(contentAggregate, 'content-ws-d', save('d', 'third', false), context);
    expect(calls.readStreamTail).toBe(1);
    expect(after.state.everPublished).toBe(true);
    expect((await events.readStream('content-ws-d')).map((event) => event.type)).toEqual(['ContentDraftSaved', 'ContentDraftSaved', 'ContentPublished', 'ContentDraftSaved']);
  });

  it('folds a long stream a page at a time and appends after its last revision', async () => {
    const writer = new CommandRunner(events, systemClock, ready);
    await writer.create(contentAggregate, 'content-ws-long', save('long', 'v0', true), context);
    for (let version = 1; version < 250; version++) await writer.run(contentAggregate, 'content-ws-long', save('long', `v${version}`, false), context);
    const { proxy: counting, calls } = countingCalls(events, ['readStream']);
    const reader = new CommandRunner(counting, systemClock, ready);
    const foldedWhole = { ...contentAggregate, evolvesOnHeaders: false };
    expect((await reader.load(foldedWhole, 'content-ws-long')).draft?.fields).toEqual({ title: 'v249' });
    expect(calls.readStream).toBe(3);
    const next = await reader.run(foldedWhole, 'content-ws-long', save('long', 'v250', false), context);
    expect(next.state.draft?.fields).toEqual({ title: 'v250' });
    expect((await events.readStream('content-ws-long', { direction: 'backwards', maxCount: 1 }))[0]!.revision).toBe(250);
  });

  it('reads of a long item stream its tail with the outlines of the events before it, then only the older events whose values the state keeps', async () => {
    const writer = new CommandRunner(events, systemClock, ready);
    await writer.create(contentAggregate, 'content-ws-hist', { ...save('hist', 'v0', true), publish: true }, context);
    for (let version = 1; version < 300; version++) await writer.run(contentAggregate, 'content-ws-hist', save('hist', `v${version}`, false), context);
    const reads: { whole: number[]; outlines?: number }[] = [];
    const reading = new Proxy(events, {
      get: (inner, property, receiver) => {
        if (property === 'readStream')
          return async (...args: Parameters<PostgresEventStore['readStream']>) => {
            const page = await inner.readStream(...args);
            reads.push({ whole: page.map((event) => event.revision) });
            return page;
          };
        if (property === 'readStreamTail')
          return async (...args: Parameters<PostgresEventStore['readStreamTail']>) => {
            const tail = await inner.readStreamTail(...args);
            reads.push({ whole: tail.events.map((event) => event.revision), outlines: tail.earlier.length });
            return tail;
          };
        return Reflect.get(inner, property, receiver);
      },
    });
    const reader = new CommandRunner(reading, systemClock, ready);
    const next = await reader.run(contentAggregate, 'content-ws-hist', { type: 'Publish', workspaceId: 'ws', itemId: 'hist', contentType: 'Article' }, context);
    // Its newest 16 events whole with the outlines of the 285 before them in one read, then the one older event the state keeps.
    expect(reads).toEqual([{ whole: Array.from({ length: 16 }, (_, index) => 285 + index), outlines: 285 }, { whole: [1] }]);
    expect(next.state).toMatchObject({ version: 302, everPublished: true, draft: { fields: { title: 'v299' } }, published: { fields: { title: 'v299' } } });
    const [published] = await events.readStream('content-ws-hist', { fromRevision: 301 });
    expect(published!.data).toMatchObject({ firstPublish: false, fields: { title: 'v299' } });

    // The tail and the outlines before it are one statement on this engine.
    const { proxy: countingSql, calls } = countingCalls(sql, ['query']);
    const counted = await PostgresEventStore.create(countingSql);
    calls.query = 0;
    const tail = await counted.readStreamTail('content-ws-hist', 16);
    expect(calls.query).toBe(1);
    expect([tail.events.length, tail.earlier.length]).toEqual([16, 286]);
  });

  it('keeps the states it decided last within a byte budget, dropping the least recent', async () => {
    const { proxy: counting, calls } = countingCalls(events, ['readStreamTail']);
    // About 9 KB a state of 4,000 characters: two fit in 20 KB, not three.
    const runner = new CommandRunner(counting, systemClock, ready, 10_000, 20_000);
    for (const item of ['w1', 'w2', 'w3']) await runner.create(contentAggregate, `content-ws-${item}`, save(item, item.repeat(2_000), true), context);
    expect(calls.readStreamTail).toBe(0);
    await runner.run(contentAggregate, 'content-ws-w3', save('w3', 'again', false), context);
    expect(calls.readStreamTail).toBe(0);
    await runner.run(contentAggregate, 'content-ws-w1', save('w1', 'again', false), context);
    expect(calls.readStreamTail).toBe(1);
  });

  it('decides again on the fresh state when another writer appended in between', async () => {
    const runner = new CommandRunner(events, systemClock, ready);
    await runner.create(contentAggregate, 'content-ws-c', save('c', 'first', true), context);
    await Promise.all(['x', 'y', 'z'].map((title) => runner.run(contentAggregate, 'content-ws-c', save('c', title, false), context)));
    expect((await events.readStream('content-ws-c')).map((event) => event.revision)).toEqual([0, 1, 2, 3]);
  });

  it('fails a client\'s command whose read models do not reach it in time, its events appended; a process manager\'s goes on', async () => {
    const timeouts: number[] = [];
    const behind = {
      waitFor: async (_position: unknown, timeoutMs: number) => {
        timeouts.push(timeoutMs);
        return false;
      },
    };
    const runner = new CommandRunner(events, systemClock, behind);
    await expect(runner.create(contentAggregate, 'content-ws-e', save('e', 'first', true), { ...context, readYourWrites: true })).rejects.toBeInstanceOf(ReadModelsBehindError);
    await expect(runner.record('records-ws-e', [{ type: 'Noted', data: {} }], { ...context, readYourWrites: true })).rejects.toBeInstanceOf(ReadModelsBehindError);
    expect((await events.readStream('content-ws-e')).map((event) => event.type)).toEqual(['ContentDraftSaved']);
    expect(await events.readStream('records-ws-e')).toHaveLength(1);

    const processed = await runner.run(contentAggregate, 'content-ws-e', save('e', 'second', false), context);
    expect(processed.state.draft?.fields).toEqual({ title: 'second' });
    expect(timeouts).toEqual([5000, 5000, 5000]);
  });
});
