import { join } from 'node:path';
import type { SqlClient } from '../../infra/sql/client';
import type { Engine } from './service';

/** A SQL connection to a test service's store; on PGlite only while that service is closed (one process per data directory). */
export async function openStoreSql(engine: Engine, environment: Record<string, string>): Promise<SqlClient> {
  if (engine === 'postgres') return (await import('../../infra/sql/pg-client')).PgSqlClient.open(environment.DATABASE_URL!);
  return (await import('../../infra/sql/pglite-client')).PgliteSqlClient.open(join(environment.DATA_DIR!, 'pglite'));
}
