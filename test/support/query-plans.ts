import { PostgresReadStore } from '../../infra/readstore/postgres';
import type { ReadStore } from '../../infra/readstore/port';
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
    forReadModels: () => recordingSql(client.forReadModels(), statements),
  };
}

/** The plan PostgreSQL makes for the statement of `run` (on a read store over `client`) that `pick` chooses, as EXPLAIN prints it. */
export async function statementPlan(client: SqlClient, run: (store: ReadStore) => Promise<unknown>, pick: (sql: string) => boolean): Promise<string> {
  const statements: { sql: string; params: unknown[] }[] = [];
  await run(await PostgresReadStore.open(recordingSql(client, statements)));
  const chosen = statements.find((statement) => pick(statement.sql));
  if (!chosen) throw new Error('no statement to explain');
  return (await client.query<Record<string, string>>(`explain ${chosen.sql}`, chosen.params)).map((row) => Object.values(row).join('')).join('\n');
}

/** The plan of the page `find` reads for `query` (the statement the read store compiles for it). */
export const pagePlan = (client: SqlClient, collection: string, query: FindQuery): Promise<string> =>
  statementPlan(client, (store) => store.find(collection, query), (sql) => sql.includes('json_agg'));
