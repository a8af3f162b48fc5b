import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { positionToString } from '../../infra/eventstore/port';
test('debug', async () => {
  const sql = await PgliteSqlClient.open();
  const store = await PostgresEventStore.create(sql);
  const orig = store.readAll.bind(store);
  const log: string[] = [];
  store.readAll = async (o) => { const r = await orig(o); log.push(`after ${o?.after && positionToString(o.after)} -> ${r.length} first ${r[0] && positionToString(r[0].position)}`); return r; };
  const md = { workspaceId: null, actor: 'a', correlationId: 'c', timestamp: 't' };
  const got: string[] = [];
  const sub = store.subscribeToAll({ onEvent: async (e) => { got.push(positionToString(e.position)); await new Promise((r) => setImmediate(r)); } });
  await Promise.all(Array.from({ length: 20 }, async (_, w) => {
    for (let i = 0; i < 25; i++) { await store.append(`s-${w % 3}`, [{ type: 'x', data: {}, metadata: md, id: randomUUID() }], 'any'); }
  }));
  await new Promise((r) => setTimeout(r, 2000));
  console.log(log.join('\n'));
  console.log(got.slice(0, 30).join(' '));
  await sub.stop(); await sql.close();
}, 60000);
