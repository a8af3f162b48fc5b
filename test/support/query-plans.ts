import { PostgresReadStore } from '../../infra/readstore/postgres';
import type { FindQuery } from '../../infra/readstore/query';
import type { SqlClient } from '../../infra/sql/client';

/** A client that writes down every statement it runs, with its parameters. */
export function recordingSql(client: SqlClient, statements: { sql: string; params: unknown[] }[]): SqlClient {
  return {
    engine: client.engine,
    query: (sql, params = []) => {
      statements.push({ sql, params });
      return client.query(sql, params);
    },
    read: (sql, params = []) => {
      statements.push({ sql, params });
      return client.read(sql, params);
    },
    transaction: (work) => client.transaction(work),
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    close: () => client.close(),
  };
}

/** The plan PostgreSQL makes for the page `find` reads (the statement the read store compiles for `query`), as EXPLAIN prints it. */
export async function pagePlan(client: SqlClient, collection: string, query: FindQuery): Promise<string> {
  const statements: { sql: string; params: unknown[] }[] = [];
  const store = await PostgresReadStore.open(recordingSql(client, statements));
  await store.find(collection, query);
  const page = statements.find((statement) => statement.sql.includes('json_agg'));
  if (!page) throw new Error('find ran no page statement');
  return (await client.query<Record<string, string>>(`explain ${page.sql}`, page.params)).map((row) => Object.values(row).join('')).join('\n');
}
