import type { SeededRandom } from '../../support/seeded-random';

/**
 * Values that are well-formed JSON but hostile to what they later reach: a header line, a URL
 * parser, the template scanner, a LIKE pattern, an object used as a dictionary. Each must be
 * refused (or bounded) when it is saved or asked for, never crash or stall the service.
 */

/** Header values that `http.request()` refuses: they must be refused when saved instead. */
export const BAD_HEADER_VALUES = ['a\r\nInjected: 1', 'line\nbreak', 'nul\u0000', 'del\u007f', 'wide \u0100 char', 'emoji \u{1F600}', '\r\n\r\nGET / HTTP/1.1'];
/** Header names that are not RFC 9110 tokens. */
export const BAD_HEADER_NAMES = ['Bad Name', 'colon:', 'a\r\nb', '', 'ünïcode', '(paren)', 'x'.repeat(5000)];
/** Ids that are copied into outgoing headers. */
export const BAD_HEADER_IDS = ['a\r\nb', 'a\nb', 'nul\u0000', 'del\u007f', 'wide \u0100'];

/** URLs whose parts make `http.request()` throw, or that smuggle a second request line. */
export const BAD_URLS = [
  'https://%ff@example.com/',
  'https://user:%zz@example.com/',
  'https://%@example.com/',
  'https://exa mple.com/',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'gopher://example.com/',
  'https://',
  'http://[::1',
  `https://example.com/${'a'.repeat(5000)}`,
];

/** Templates that made a backtracking placeholder pattern run in cubic time. */
export function hostileTemplate(random: SeededRandom): string {
  const length = 1000 + random.int(7000);
  return random.pick([
    `{{${' '.repeat(length)}`,
    '{{ '.repeat(Math.floor(length / 3)),
    `{{${' '.repeat(length)}}`,
    `${'{{'.repeat(Math.floor(length / 2))}id`,
    `{{ fields.${'a.'.repeat(Math.floor(length / 2))} }}`,
  ]);
}

/** Long text filter values: a LIKE pattern that long must be refused before it reaches the database. */
export function longFilterValue(random: SeededRandom): string {
  return random.pick(['%', '_', 'a', '\\', 'ab%_']).repeat(2000 + random.int(60_000));
}

/** Keys that are properties of every plain object. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype'];
