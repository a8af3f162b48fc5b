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

/** Fills in the data of the rows read without it (dataColumns), each from its JSON text read in pieces. */
export async function withDataApart<Row extends RowWithDataApart>(sql: SqlQueryable, rows: Row[]): Promise<Row[]> {
  for (const row of rows) if (row.data_apart) row.data = JSON.parse(await jsonTextInPieces(sql, row.position));
  return rows;
}

/**
 * The event's data as JSON text, read as pieces of its UTF-8 bytes (a byte offset costs nothing
 * to find, a character offset a scan from the start) and decoded piece by piece with the thread
 * given back between pieces.
 */
async function jsonTextInPieces(sql: SqlQueryable, position: string): Promise<string> {
  // Materialized: the JSON text is written once, not once per piece.
  const pieces = await sql.query<{ piece: Buffer }>(
    `with event as materialized (select convert_to(data::text, 'UTF8') as bytes from es_events where position = $1::bigint)
     select substring(event.bytes from n * $2 + 1 for $2) as piece from event, generate_series(0, (octet_length(event.bytes) - 1) / $2) as n
     order by n`,
    [position, PIECE_BYTES],
    { prepare: true },
  );
  if (pieces.length === 0) throw new Error(`the event at position ${position} is gone`);
  const decoder = new StringDecoder('utf8');
  const slices = new ThreadSlices();
  let text = '';
  for (const { piece } of pieces) {
    text += decoder.write(piece);
    await slices.next();
  }
  return text + decoder.end();
}
