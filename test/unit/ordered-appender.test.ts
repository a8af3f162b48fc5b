import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { RecordedEvent } from '../../infra/eventstore/port';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import type { ExportedEvent } from '../../src/cli/export-format';
import { OrderedAppender } from '../../src/cli/ordered-appender';
import { countingCalls } from '../support/counting';
import { openMemoryPglite } from '../support/pglite-template';

const metadata = { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: new Date(0).toISOString() };

/** `count` events over `streams` streams, interleaved the way a busy log is: runs of 1-3 events, streams coming back. */
function interleavedLog(count: number, streams: number): ExportedEvent[] {
  const revisions = new Map<string, number>();
  const log: ExportedEvent[] = [];
  for (let index = 0; log.length < count; index++) {
    const stream = `item-${(index * 7) % streams}`;
    for (let run = 0; run < (index % 3) + 1 && log.length < count; run++) {
      const revision = revisions.get(stream) ?? 0;
      revisions.set(stream, revision + 1);
      log.push({ kind: 'event', stream, revision, id: randomUUID(), type: `Step${revision}`, data: { index: log.length }, metadata: { ...metadata, correlationId: `c${log.length}` } });
    }
  }
  return log;
}

async function readWholeLog(store: PostgresEventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (let page = await store.readAll({ maxCount: 1000 }); page.length > 0; page = await store.readAll({ after: page.at(-1)!.position, maxCount: 1000 })) {
    all.push(...page);
  }
  return all;
}

describe('OrderedAppender (import)', () => {
  let sql: PgliteSqlClient;

  beforeAll(async () => {
    sql = await openMemoryPglite();
  });

  afterAll(async () => {
    await sql.close();
  });

  it('writes an interleaved log in a few multi-stream appends, keeping its order, ids, revisions and metadata', async () => {
    await sql.query('drop table if exists es_events, es_streams');
    const { proxy, calls } = countingCalls(await PostgresEventStore.create(sql), ['append', 'appendMany']);
    const log = interleavedLog(5000, 300);
    const appender = new OrderedAppender(proxy);
    for (const [index, event] of log.entries()) await appender.add(event, index + 2);
    await appender.flush();

    expect(appender.appended).toBe(log.length);
    expect(calls.append).toBe(0);
    // Runs are 2 events long on average, so appending run by run would take about 2,500 calls.
    expect(calls.appendMany).toBeLessThan(100);
    const written = await readWholeLog(proxy);
    expect(written.map(({ id, stream, revision, type, data, metadata }) => ({ kind: 'event', id, stream, revision, type, data, metadata }))).toEqual(log);
  });

  it('names the line of the run whose revision the store refuses, and writes nothing of its batch', async () => {
    await sql.query('drop table if exists es_events, es_streams');
    const store = await PostgresEventStore.create(sql);
    await store.append('item-5', [{ type: 'Already', data: {}, metadata }], 'no_stream');
    const log = interleavedLog(40, 10);
    const appender = new OrderedAppender(store);
    const importing = async () => {
      for (const [index, event] of log.entries()) await appender.add(event, index + 2);
      await appender.flush();
    };

    const firstOfItem5 = log.findIndex((event) => event.stream === 'item-5') + 2;
    await expect(importing()).rejects.toThrow(`line ${firstOfItem5}: stream item-5: expected revision no_stream, actual 0`);
    expect(await readWholeLog(store)).toHaveLength(1);
  });
});
