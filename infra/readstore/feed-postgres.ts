import type { SqlClient } from '../sql/client';
import { decodeMove, encodeMove, type ReadModelFeed, type ReadModelMove } from '../../projections/read-model-moves';

const CHANNEL = 'cms_read_models';

/**
 * Moves of the live read models as NOTIFY on one channel: sent after the write commits, so a
 * listener that reads what a move names finds it. A lost LISTEN connection reports a missed move
 * (null) once it is back, since notifications sent meanwhile are gone.
 */
export class PostgresReadModelFeed implements ReadModelFeed {
  constructor(private readonly sql: SqlClient) {}

  async publish(move: ReadModelMove): Promise<void> {
    await this.sql.query('select pg_notify($1, $2)', [CHANNEL, encodeMove(move)], { prepare: true });
  }

  follow(onMove: (move: ReadModelMove | null) => void): Promise<() => Promise<void>> {
    return this.sql.listen(CHANNEL, (payload) => onMove(payload === '' ? null : decodeMove(payload)));
  }

  async close(): Promise<void> {}
}
