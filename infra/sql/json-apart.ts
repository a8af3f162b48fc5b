import { StringDecoder } from 'node:string_decoder';
import { ThreadSlices } from '../thread-slices';
import type { SqlClient, SqlQueryable } from './client';

/**
 * Stored bytes (after compression) of a JSON value above which a PostgreSQL server's reads leave
 * it out of the row and read it apart, in pieces. pg decodes a row's UTF-8 and parses its JSON as
 * one task when the row's last byte arrives: for a 1.3 MB item, 8-20 ms while every other request
 * waits, once per reader (the live projections, a table's build, the checkpoint signer, a page of
 * items). PGlite parses rows in its worker thread, so its reads keep the value in the row.
 */
const APART_ABOVE_BYTES = 65_536;
/** Bytes of a value's JSON text per piece: each row of the pieces' read is parsed on its own, as it arrives. */
const PIECE_BYTES = 65_536;

/** Where a read's rows and their JSON values are: `es_events e` and `e.data`, say. */
export interface ValuesSource {
  /** The FROM clause. */
  readonly from: string;
  /** The JSON (jsonb) column. */
  readonly value: string;
  /** The key that names a row, as text. */
  readonly key: string;
  /** The condition that picks the rows whose keys are $1, a text array. */
  readonly keyed: string;
}

/** The select list's columns `name` (the JSON `value`, or null when it is read apart) and `${name}_apart` on `engine`. */
export function apartColumns(engine: SqlClient['engine'], value: string, name: string): string {
  if (engine === 'pglite') return `${value} as ${name}, false as ${name}_apart`;
  const apart = `pg_column_size(${value}) > ${APART_ABOVE_BYTES}`;
  return `case when ${apart} then null else ${value} end as ${name}, ${apart} as ${name}_apart`;
}

/**
 * Fills in the values of the rows read without them (apartColumns), from their JSON texts read
 * in pieces by one statement. A row whose value is gone meanwhile (a document deleted between
 * the two statements) is left out when `gone` says so; otherwise it is an error.
 */
export async function withValuesApart<Row extends object>(
  sql: SqlQueryable,
  rows: Row[],
  read: { readonly source: ValuesSource; readonly name: string; readonly keyOf: (row: Row) => string; readonly gone: 'fail' | 'leave out' },
): Promise<Row[]> {
  const field = (row: Row) => row as Record<string, unknown>;
  const apart = rows.filter((row) => field(row)[`${read.name}_apart`] === true);
  if (apart.length === 0) return rows;
  const slices = new ThreadSlices();
  const texts = await jsonTextsInPieces(sql, read.source, apart.map(read.keyOf), slices);
  const left: Row[] = [];
  for (const row of apart) {
    const text = texts.get(read.keyOf(row));
    if (text === undefined) {
      if (read.gone === 'fail') throw new Error(`the row ${read.keyOf(row)} of ${read.source.from} is gone`);
      left.push(row);
      continue;
    }
    field(row)[read.name] = JSON.parse(text);
    // A page of many large values (a table's build) is tens of milliseconds of parsing.
    await slices.next();
  }
  return left.length === 0 ? rows : rows.filter((row) => !left.includes(row));
}

/**
 * The values' JSON texts by key, read as pieces of their UTF-8 bytes (a byte offset costs
 * nothing to find, a character offset a scan from the start) and decoded piece by piece with the
 * thread given back between pieces.
 */
async function jsonTextsInPieces(sql: SqlQueryable, source: ValuesSource, keys: readonly string[], slices: ThreadSlices): Promise<Map<string, string>> {
  // Materialized: each JSON text is written once, not once per piece.
  const pieces = await sql.query<{ key: string; piece: Buffer }>(
    `with value as materialized (select ${source.key} as key, convert_to(${source.value}::text, 'UTF8') as bytes from ${source.from} where ${source.keyed})
     select value.key, substring(value.bytes from n * $2 + 1 for $2) as piece
     from value, generate_series(0, (octet_length(value.bytes) - 1) / $2) as n
     order by value.key, n`,
    [keys, PIECE_BYTES],
    { prepare: true },
  );
  const texts = new Map<string, string>();
  let decoder = new StringDecoder('utf8');
  for (const [index, { key, piece }] of pieces.entries()) {
    texts.set(key, (texts.get(key) ?? '') + decoder.write(piece));
    if (pieces[index + 1]?.key !== key) {
      texts.set(key, texts.get(key)! + decoder.end());
      decoder = new StringDecoder('utf8');
    }
    await slices.next();
  }
  return texts;
}
