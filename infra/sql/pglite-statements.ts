import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
import { Lru } from '../lru';

const { serialize } = protocol;

/** Distinct statements kept prepared; the least recently used is closed past this. */
const PREPARED_CAPACITY = 256;
/** SQLSTATE feature_not_supported, as for "cached plan must not change result type". */
const PLAN_INVALIDATED = '0A000';

interface Prepared {
  readonly name: string;
  readonly parameterTypes: readonly number[];
}

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

/**
 * Runs statements on a PGlite the way a PostgreSQL driver does on a connection: each
 * statement with parameters is parsed once into a named prepared statement, then executed
 * as one bind + execute round trip into PostgreSQL (PGlite's own `query` parses, describes
 * and runs in six). Plans stay custom (plan_cache_mode, set by the worker) as with `pg`'s
 * unnamed statements, so only parsing is saved, never a plan chosen for other values; but a
 * statement asked to run with its generic plan (QueryOptions.prepare 'generic') is bound under
 * force_generic_plan, so it is planned once, and the setting is put back in the same round trip.
 * Statements run one at a time, under PGlite's own query lock.
 */
export class PreparedStatements {
  private readonly prepared: Lru<Prepared>;
  private readonly toClose: string[] = [];
  private counter = 0;

  constructor(private readonly db: PGlite) {
    this.prepared = new Lru(PREPARED_CAPACITY, (statement) => this.toClose.push(statement.name));
  }

  run(sql: string, params: readonly unknown[], genericPlan = false): Promise<Results> {
    return this.db.runExclusive(() => this.runNow(sql, params, genericPlan));
  }

  /** COMMIT, refused when PostgreSQL answers ROLLBACK (a statement of the transaction had failed), as PGlite's own transactions do. */
  commit(): Promise<void> {
    return this.db.runExclusive(async () => {
      const messages = await this.exchange([serialize.parse({ text: 'commit' }), serialize.bind({}), serialize.execute({}), serialize.sync()]);
      const done = messages.find((message) => message.name === 'commandComplete') as { text?: string } | undefined;
      if (done?.text === 'ROLLBACK') throw Object.assign(new Error('the transaction was rolled back: a statement in it had failed'), { code: '40000' });
    });
  }

  private async runNow(sql: string, params: readonly unknown[], genericPlan: boolean): Promise<Results> {
    if (params.length === 0) return this.execute([serialize.parse({ text: sql }), serialize.bind({})]);
    const statement = this.prepared.get(sql)?.value ?? (await this.prepare(sql));
    const values = params.map((value, index) => this.serialized(value, statement.parameterTypes[index]));
    try {
      return await this.execute([serialize.bind({ statement: statement.name, values })], genericPlan);
    } catch (error) {
      if ((error as { code?: unknown }).code === PLAN_INVALIDATED) {
        this.prepared.delete(sql);
        this.toClose.push(statement.name);
      }
      throw error;
    }
  }

  private async prepare(sql: string): Promise<Prepared> {
    const name = `s${++this.counter}`;
    const messages = await this.exchange([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]);
    const description = messages.find((message) => message.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
    const statement = { name, parameterTypes: description?.dataTypeIDs ?? [] };
    this.prepared.set(sql, statement, 1);
    return statement;
  }

  private serialized(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serializer = type === undefined ? undefined : this.db.serializers[type];
    return serializer ? serializer(value) : String(value);
  }

  /**
   * With `genericPlan`, the setting comes first (the plan is chosen at Bind) and is put back after
   * the statement's Sync, which a failed statement skips to, so whatever the statement answered.
   */
  private async execute(bound: Uint8Array[], genericPlan = false): Promise<Results> {
    const statement = [...bound, serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()];
    if (!genericPlan) return parse.parseResults(await this.exchange(statement), this.db.parsers)[0] ?? { rows: [], fields: [] };
    const simple = (text: string) => [serialize.parse({ text }), serialize.bind({}), serialize.execute({})];
    const messages = await this.exchange([...simple('set plan_cache_mode = force_generic_plan'), ...statement, ...simple('reset plan_cache_mode'), serialize.sync()]);
    // The results of the SET, the statement and the RESET, in that order.
    return parse.parseResults(messages, this.db.parsers)[1] ?? { rows: [], fields: [] };
  }

  /** One round trip into PostgreSQL, led by the Close of any statement the cache let go. */
  private async exchange(messages: Uint8Array[]): Promise<BackendMessage[]> {
    const closing = this.toClose.splice(0).map((name) => serialize.close({ type: 'S', name }));
    const buffer = Buffer.concat([...closing, ...messages]);
    return (await this.db.execProtocol(buffer)).messages;
  }
}
