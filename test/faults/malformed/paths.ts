import type { SeededRandom } from '../../support/seeded-random';

/** Path segments that are not an id of anything: malformed, oversize, encoded oddly. */
export function badSegment(random: SeededRandom): string {
  return random.pick([
    'not-a-guid',
    '123',
    '-1',
    '0',
    '00000000-0000-0000-0000-00000000000g',
    '{00000000-0000-0000-0000-000000000000}',
    '00000000000000000000000000000000',
    'x'.repeat(2 + random.int(8000)),
    '%00',
    '%ff%fe',
    '%E2%98%83',
    '%',
    '%zz',
    '%2F',
    '%5C',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    '%20',
    '%0d%0aSet-Cookie:%20x=1',
    "'%20or%201=1--",
    '%3Cscript%3E',
  ]);
}

/** Attempts to leave a folder or a workspace: plain, encoded, double-encoded, overlong UTF-8, backslashes. */
export function traversal(random: SeededRandom): string {
  return random.pick([
    '..',
    '../../../../etc/passwd',
    '..%2f..%2f..%2fetc%2fpasswd',
    '%2e%2e',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '%252e%252e%252f%252e%252e%252fetc%252fpasswd',
    '..%252f..%252fetc%252fpasswd',
    '%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
    '..\\..\\..\\windows\\win.ini',
    '..%5c..%5cwindows%5cwin.ini',
    '....//....//etc/passwd',
    '/etc/passwd',
    '//etc/passwd',
    'blobs/../../pglite',
    '.%2e/.%2e/data',
    '..%00/etc/passwd',
    '%2e%2e%5c%2e%2e%5c',
    './././',
  ]);
}
