import type { SqlClient, SqlQueryable } from '../sql/client';
import {
  type ChainAudit,
  type Checkpoint,
  type CheckpointBody,
  checkpointDigest,
  CheckpointRefused,
  checkpointSignatureValid,
  type EventTableGuards,
  HeadsDigest,
  MAX_LISTED_REFUSALS,
  signCheckpoint,
  type StreamHead,
} from './chain-audit';
import type { EventMacCheck } from './event-mac-check';
import { type Additions, readAdditions } from './postgres-chain-extension';
import { checkpointIdsIssued, inspectGuards } from './postgres-chain-guards';

const PAGE = 5000;
const CHECKPOINT_PAGE = 1000;

export const CHECKPOINTS_TABLE = `create table if not exists es_checkpoints (
  id bigserial primary key,
  body jsonb not null,
  signature text
)`;

/** A head as a page carries it: name, revision (as text: a bigint), hash (hex). */
type HeadEntry = [stream: string, revision: string, hash: string];

interface CheckpointRow {
  id: string;
  body: CheckpointBody;
  signature: string | null;
}

// The output name `id` is text: ORDER BY must name the column (es_checkpoints.id), or ids sort as text (1, 10, 11, ..., 2).
const CHECKPOINT_COLUMNS = 'es_checkpoints.id::text as id, body, signature';

export class PostgresChainAudit implements ChainAudit {
  /** The MAC check of the events each checkpoint adds; none until the store's key and marker are known. */
  private macs: EventMacCheck | null = null;

  constructor(private readonly sql: SqlClient) {}

  /** From now on a checkpoint is refused while an event it would add carries no MAC that verifies (where one is required). */
  checkMacsWith(macs: EventMacCheck): void {
    this.macs = macs;
  }

  async checkpoints(): Promise<Checkpoint[]> {
    const all: Checkpoint[] = [];
    for await (const page of this.checkpointPages()) all.push(...page);
    return all;
  }

  async *checkpointPages(): AsyncGenerator<Checkpoint[]> {
    // A log written before the chain has no checkpoint table until it is chained (verify opens it as it is).
    const [table] = await this.sql.query<{ found: boolean }>(`select to_regclass('es_checkpoints') is not null as found`);
    if (!table?.found) return;
    let after = 0;
    for (;;) {
      const rows = await this.sql.query<CheckpointRow>(
        `select ${CHECKPOINT_COLUMNS} from es_checkpoints where es_checkpoints.id > $1 order by es_checkpoints.id limit ${CHECKPOINT_PAGE}`,
        [after],
      );
      if (rows.length === 0) return;
      yield rows.map(toCheckpoint);
      if (rows.length < CHECKPOINT_PAGE) return;
      after = Number(rows[rows.length - 1]!.id);
    }
  }

  /**
   * Reads every head in one snapshot (repeatable read), so the checkpoint names exactly the
   * events that snapshot saw, and signs them only once the log is seen to extend the latest
   * checkpoint (checkExtension). The id is the latest's plus one, so ids have no gaps; the id
   * sequence is then set to it, which lets verify tell a newest checkpoint deleted afterwards.
   */
  async writeCheckpoint(kind: CheckpointBody['kind'], key: Buffer | null): Promise<Checkpoint> {
    return this.sql.transaction(async (tx) => {
      await tx.query('set transaction isolation level repeatable read');
      const [{ snapshot }] = (await tx.query<{ snapshot: string }>('select pg_current_snapshot()::text as snapshot')) as [{ snapshot: string }];
      const [latestRow] = await tx.query<CheckpointRow>(`select ${CHECKPOINT_COLUMNS} from es_checkpoints order by es_checkpoints.id desc limit 1`);
      const latest = latestRow ? toCheckpoint(latestRow) : null;
      const problems = latestProblems(latest, key, await checkpointIdsIssued(tx));
      const additions = await readAdditions(tx, this.sql.engine, latest, this.macs);
      const heads = await digestHeads(tx, additions);
      if (latest) problems.push(...extensionProblems(latest, heads.before));
      problems.push(...heads.problems, ...additions.problems);
      if (problems.length > 0) throw new CheckpointRefused(latest?.id ?? null, problems.slice(0, MAX_LISTED_REFUSALS));
      const id = (latest?.id ?? 0) + 1;
      const body: CheckpointBody = {
        kind,
        at: new Date().toISOString(),
        snapshot,
        streams: heads.now.streams,
        events: heads.now.events,
        digest: heads.now.digest(),
        id,
        previous: latest ? checkpointDigest(latest.body) : null,
        order: { added: additions.order.added, digest: additions.order.digest(), last: additions.last },
      };
      const signature = key ? signCheckpoint(body, key) : null;
      await tx.query('insert into es_checkpoints (id, body, signature) values ($1, $2::text::jsonb, $3)', [id, JSON.stringify(body), signature]);
      const [sequence] = await tx.query<{ settable: boolean }>(
        `select has_sequence_privilege(pg_get_serial_sequence('es_checkpoints', 'id'), 'UPDATE') as settable`,
      );
      // A role granted only USAGE keeps checkpoints signed; verify then cannot tell a deleted newest one (docs/production.md).
      if (sequence?.settable) await tx.query(`select setval(pg_get_serial_sequence('es_checkpoints', 'id'), $1)`, [id]);
      return { id, body, signature };
    });
  }

  streamHeads(): AsyncGenerator<StreamHead[]> {
    return headPages(this.sql);
  }

  guards(): Promise<EventTableGuards> {
    return inspectGuards(this.sql);
  }
}

function toCheckpoint(row: CheckpointRow): Checkpoint {
  return { id: Number(row.id), body: row.body, signature: row.signature };
}

/**
 * What is wrong with the latest checkpoint itself: its signature, its id, and newer ones the id
 * sequence handed out. Only a signer of this version sets the sequence to the id it wrote (a
 * crash could leave it ahead before), so the sequence counts once the latest is of this version,
 * or when none is left at all.
 */
function latestProblems(latest: Checkpoint | null, key: Buffer | null, issued: number | null): string[] {
  if (!latest) return issued === null ? [] : [`${issued === 1 ? 'checkpoint #1 was' : `checkpoints #1 to #${issued} were`} signed and none is left: deleted`];
  const problems: string[] = [];
  if (key && !checkpointSignatureValid(latest, key)) problems.push(`checkpoint #${latest.id}: its signature does not match (it was altered or forged)`);
  if (latest.body.id !== undefined && latest.body.id !== latest.id) problems.push(`checkpoint #${latest.id} is stored under another id than the #${latest.body.id} it signed`);
  if (latest.body.id !== undefined && issued !== null && issued > latest.id) {
    problems.push(`${issued > latest.id + 1 ? `checkpoints #${latest.id + 1} to #${issued} were` : `checkpoint #${issued} was`} signed after #${latest.id} and ${issued > latest.id + 1 ? 'are' : 'is'} gone: deleted`);
  }
  return problems;
}

/** The heads `latest` saw, rebuilt from today's log, against the ones it signed. */
function extensionProblems(latest: Checkpoint, before: HeadsDigest): string[] {
  const signed = latest.body;
  const rebuilt = { streams: before.streams, events: before.events, digest: before.digest() };
  if (rebuilt.streams === signed.streams && rebuilt.events === signed.events && rebuilt.digest === signed.digest) return [];
  const what =
    rebuilt.events < signed.events || rebuilt.streams < signed.streams
      ? 'events or whole streams it covered were removed'
      : rebuilt.events > signed.events
        ? 'events were added into the history it covered'
        : 'events it covered were changed, replaced or re-chained';
  return [
    `the stream heads as of checkpoint #${latest.id}, rebuilt from the log, are not the ones it signed ` +
      `(${rebuilt.streams} streams holding ${rebuilt.events} events; it signed ${signed.streams} holding ${signed.events}): ${what}`,
  ];
}

/**
 * One pass over es_streams: the digest of today's heads, and of the heads as the latest
 * checkpoint saw them (today's, except for the streams that gained events since, whose heads
 * then readAdditions found). Each touched stream's events must end at its recorded head.
 */
async function digestHeads(tx: SqlQueryable, additions: Additions): Promise<{ now: HeadsDigest; before: HeadsDigest; problems: string[] }> {
  const now = new HeadsDigest();
  const before = new HeadsDigest();
  const problems: string[] = [];
  let seen = 0;
  for await (const page of headPages(tx)) {
    for (const head of page) {
      now.add(head);
      const touched = additions.touched.get(head.stream);
      if (!touched) {
        before.add(head);
        continue;
      }
      seen++;
      if (touched.before) before.add(touched.before);
      if (touched.after.revision !== head.revision || touched.after.hash !== head.hash) {
        problems.push(`stream ${head.stream}: its head records revision ${head.revision}, but its events end at revision ${touched.after.revision} with another hash`);
      }
    }
  }
  if (seen < additions.touched.size) {
    for (const stream of additions.touched.keys()) {
      if (problems.length >= MAX_LISTED_REFUSALS) break;
      if (!(await tx.query('select 1 from es_streams where stream = $1', [stream])).length) problems.push(`stream ${stream}: it has events but no recorded head`);
    }
  }
  return { now, before, problems };
}

/**
 * Heads in byte order of their names, a page at a time, each page a range of
 * es_streams_stream_bytes (no sort) sent as one JSON array: a checkpoint reads every head inside
 * one transaction, and on the embedded engine, where a transaction holds the whole engine, rows
 * cost more leaving it than the JSON text does (100,000 heads: 689-1,179 ms as rows, 321-346 ms
 * as pages of JSON; bench/RESULTS.md, 2026-11-30 13:29 UTC). JSON carries each name back exactly.
 */
async function* headPages(sql: SqlQueryable): AsyncGenerator<StreamHead[]> {
  // Every stream name is longer than '', the least name in byte order.
  let after = '';
  for (;;) {
    // As text: parsed once, here (the embedded engine's thread would parse JSON only to send it on).
    const [row] = await sql.query<{ page: string | null }>(
      `select json_agg(json_build_array(stream, revision::text, encode(hash, 'hex')) order by stream collate "C")::text as page
       from (select stream, revision, hash from es_streams
             where stream collate "C" > $1::text collate "C" order by stream collate "C" limit ${PAGE}) as heads`,
      [after],
    );
    const page = row?.page ? (JSON.parse(row.page) as HeadEntry[]) : [];
    if (page.length === 0) return;
    yield page.map(([stream, revision, hash]) => ({ stream, revision: Number(revision), hash }));
    if (page.length < PAGE) return;
    after = page[page.length - 1]![0];
  }
}
