import type { SqlClient, SqlQueryable } from '../sql/client';

const FENCES = 'read_model_fence';

/** A read-model write of an instance whose lease another instance has taken since. */
export class FencedOut extends Error {
  constructor(readonly held: string | null, readonly current: string | null) {
    super(`read-model write refused: this instance's fence epoch is ${held ?? 'none'}, the read models' is ${current ?? 'none'} (another instance took the projection lease)`);
    this.name = 'FencedOut';
  }
}

/**
 * A fencing token for the read models on PostgreSQL: each new holder of the projection lease
 * bumps the epoch, and each checkpointed write checks, in its own transaction or its own single
 * statement (inStatement), that the epoch is still the one its instance took. An advisory lock is lost the moment its connection ends, which
 * the holder learns only at its next lease check; meanwhile its pool connections still write.
 * FOR SHARE (not FOR KEY SHARE, which an UPDATE of a non-key column does not wait for) makes the
 * new holder's bump wait for a batch in flight, and every later batch of the old holder sees the
 * new epoch and rolls back.
 */
export class PostgresReadModelFence {
  private epoch: string | null = null;
  private readonly refusedListeners: (() => void)[] = [];

  private constructor(
    private readonly sql: SqlClient,
    private readonly name: string,
  ) {}

  static async open(client: SqlClient, name = 'projections'): Promise<PostgresReadModelFence> {
    const sql = client.forReadModels();
    await sql.query(`create table if not exists ${FENCES} (name text primary key, epoch bigint not null)`);
    return new PostgresReadModelFence(sql, name);
  }

  /** Called by a new lease holder before it writes: every write of an earlier holder is refused from here on. */
  async take(): Promise<string> {
    const [row] = await this.sql.query<{ epoch: string }>(
      `insert into ${FENCES} (name, epoch) values ($1, 1) on conflict (name) do update set epoch = ${FENCES}.epoch + 1 returning epoch::text as epoch`,
      [this.name],
    );
    this.epoch = row!.epoch;
    return this.epoch;
  }

  /**
   * Inside a write's transaction: throws FencedOut once a later holder replaced this instance's
   * epoch. A process that never took the fence is not fenced: the offline tools (`cms import`,
   * `cms projections rebuild` with the service stopped) write checkpoints without leading, and an
   * instance that follows never projects.
   */
  async check(tx: SqlQueryable): Promise<void> {
    if (this.epoch === null) return;
    const [row] = await tx.query<{ epoch: string }>(`select epoch::text as epoch from ${FENCES} where name = $1 for share`, [this.name], { prepare: true });
    this.verdict(row?.epoch ?? null);
  }

  /**
   * The check as part of one write statement, for a write that is a single statement (no
   * transaction around it, so no begin, no separate check, no commit): `cte` locks the fence row
   * FOR SHARE as `check` does, every write of the statement runs only `where exists (select 1
   * from <held>)`, and the statement answers the epoch it found, which `verdict` judges. A
   * refused statement has written nothing. Null when this process never took the fence.
   */
  inStatement(param: (value: unknown) => string): { readonly ctes: readonly string[]; readonly held: string; readonly epoch: string } | null {
    if (this.epoch === null) return null;
    return {
      ctes: [
        `fence as (select epoch from ${FENCES} where name = ${param(this.name)} for share)`,
        `fence_held as (select 1 from fence where epoch = ${param(this.epoch)}::bigint)`,
      ],
      held: 'fence_held',
      epoch: '(select epoch::text from fence)',
    };
  }

  /** Throws FencedOut (and tells the listeners) unless `current` is this process's epoch. */
  verdict(current: string | null): void {
    if (this.epoch === null || current === this.epoch) return;
    for (const listener of this.refusedListeners) listener();
    throw new FencedOut(this.epoch, current);
  }

  onRefused(listener: () => void): void {
    this.refusedListeners.push(listener);
  }
}
