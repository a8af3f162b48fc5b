import { StringDecoder } from 'node:string_decoder';
import type { SqlClient, SqlQueryable } from '../sql/client';
import { ThreadSlices } from '../thread-slices';

/**
 * Stored bytes (after compression) of an event's data above which a PostgreSQL server's reads
 * leave it out of the row and read it apart, in pieces. pg decodes a row's UTF-8 and parses its
 * JSON as one task when the row's last byte arrives: for a 1.3 MB item, 8-20 ms while every other
 * request waits, once per reader (the live projections, a table's build, the checkpoint signer).
 * PGlite parses rows in its worker thread, so its reads keep the data in the row.
 */
const APART_ABOVE_BYTES = 65_536;
/** Bytes of the data's JSON text per piece: each row of the pieces' read is parsed on its own, as it arrives. */
const PIECE_BYTES = 65_536;

/** The select list's data columns for events `e` (data, data_apart) on `engine`. */
export function dataColumns(engine: SqlClient['engine']): string {
  if (engine === 'pglite') return 'e.data, false as data_apart';
  const apart = `pg_column_size(e.data) > ${APART_ABOVE_BYTES}`;
  return `case when ${apart} then null else e.data end as data, ${apart} as data_apart`;
}

/** A row read with dataColumns. */
export interface RowWithDataApart {
  readonly position: string;
  data: unknown;
  readonly data_apart?: boolean;
}

/** Fills in the data of the rows read without it (dataColumns), from their JSON texts read in pieces by one statement. */
export async function withDataApart<Row extends RowWithDataApart>(sql: SqlQueryable, rows: Row[]): Promise<Row[]> {
  const apart = rows.filter((row) => row.data_apart);
  if (apart.length === 0) return rows;
  const slices = new ThreadSlices();
  const texts = await jsonTextsInPieces(
    sql,
    apart.map((row) => row.position),
    slices,
  );
  for (const row of apart) {
    const text = texts.get(row.position);
    if (text === undefined) throw new Error(`the event at position ${row.position} is gone`);
    row.data = JSON.parse(text);
    // A page of many large events (a table's build) is tens of milliseconds of parsing.
    await slices.next();
  }
  return rows;
}

/**
 * The events' data as JSON texts by position, read as pieces of their UTF-8 bytes (a byte offset
 * costs nothing to find, a character offset a scan from the start) and decoded piece by piece
 * with the thread given back between pieces.
 */
async function jsonTextsInPieces(sql: SqlQueryable, positions: readonly string[], slices: ThreadSlices): Promise<Map<string, string>> {
  // Materialized: each JSON text is written once, not once per piece.
  const pieces = await sql.query<{ position: string; piece: Buffer }>(
    `with event as materialized (select position, convert_to(data::text, 'UTF8') as bytes from es_events where position = any($1::bigint[]))
     select event.position::text as position, substring(event.bytes from n * $2 + 1 for $2) as piece
     from event, generate_series(0, (octet_length(event.bytes) - 1) / $2) as n
     order by event.position, n`,
    [positions, PIECE_BYTES],
    { prepare: true },
  );
  const texts = new Map<string, string>();
  let decoder = new StringDecoder('utf8');
  for (const [index, { position, piece }] of pieces.entries()) {
    texts.set(position, (texts.get(position) ?? '') + decoder.write(piece));
    if (pieces[index + 1]?.position !== position) {
      texts.set(position, texts.get(position)! + decoder.end());
      decoder = new StringDecoder('utf8');
    }
    await slices.next();
  }
  return texts;
}
