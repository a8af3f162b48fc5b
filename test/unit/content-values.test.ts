import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { contentTypeDefinition } from '../../src/domain/content-type/definition';
import { checkContent, missingTargets } from '../../src/domain/content/values';
import { ensureBuilt, REPO_ROOT } from '../support/build';

const run = promisify(execFile);

const type = contentTypeDefinition.parse({
  name: 'Event',
  key: 'Event',
  fields: [
    { key: 'title', type: 'Text', required: true, translatable: true },
    { key: 'startsAt', type: 'DateTime' },
    { key: 'venue', type: 'Relation', relationContentType: 'Venue' },
    { key: 'poster', type: 'Media', translatable: true },
  ],
});
const locales = new Map([['fr', 'fr']]);

describe('content values', () => {
  describe('DateTime', () => {
    const stored = (startsAt: unknown) => checkContent({ fields: { title: 't', startsAt } }, type, locales);

    it('reads a date and time without an offset as UTC, whatever the server time zone, as filters do', async () => {
      // A process of its own: the time zone is read from TZ when the process starts.
      await ensureBuilt();
      const values = JSON.stringify(join(REPO_ROOT, 'dist', 'src', 'domain', 'content', 'values.js'));
      const script = `const { checkContent } = require(${values});
        const type = ${JSON.stringify(type)};
        const read = (startsAt) => checkContent({ fields: { title: 't', startsAt } }, type, new Map()).content.fields.startsAt;
        console.log(JSON.stringify([read('2026-03-01T09:30'), read('2026-03-01T09:30:00+01:00'), read('2026-03-01')]));`;
      const { stdout } = await run(process.execPath, ['-e', script], { env: { ...process.env, TZ: 'America/New_York' } });
      expect(JSON.parse(stdout)).toEqual(['2026-03-01T09:30:00.000Z', '2026-03-01T08:30:00.000Z', '2026-03-01T00:00:00.000Z']);
    }, 240_000);

    it('refuses what is not a date-time, and years a string order cannot hold', () => {
      expect(stored('someday').problems).toEqual([{ field: 'fields.startsAt', message: 'must be an ISO 8601 date-time' }]);
      expect(stored(1767225600000).problems).toEqual([{ field: 'fields.startsAt', message: 'must be an ISO 8601 date-time' }]);
      expect(stored('+010000-01-01T00:00:00Z').problems).toEqual([{ field: 'fields.startsAt', message: 'must be a date-time between the years 0000 and 9999' }]);
    });
  });

  it('collects every problem in input order, without a second one for a required field that was given badly', () => {
    const checked = checkContent({ fields: { title: 7, startsAt: 'x', colour: 'red', venue: 'v' }, translations: { title: { xx: 'y' }, startsAt: { fr: 'z' } } }, type, locales);
    expect(checked.problems.map((problem) => problem.field)).toEqual([
      'fields.title',
      'fields.startsAt',
      'fields.colour',
      'fields.venue',
      'translations.title.xx',
      'translations.startsAt',
    ]);
  });

  it('lists every Relation and Media value as a reference, translations included, and finds the missing targets', () => {
    const [venue, poster, posterFr] = [randomUUID(), randomUUID(), randomUUID()];
    const checked = checkContent({ fields: { title: 't', venue: { id: venue }, poster }, translations: { poster: { FR: posterFr } } }, type, locales);
    expect(checked.problems).toEqual([]);
    expect(checked.content.fields.venue).toBe(venue);
    expect(checked.references).toEqual([
      { field: 'fields.venue', target: 'item', id: venue, contentType: 'Venue' },
      { field: 'fields.poster', target: 'asset', id: poster, contentType: null },
      { field: 'translations.poster.FR', target: 'asset', id: posterFr, contentType: null },
    ]);
    expect(missingTargets(checked.references, new Map([[venue, 'Venue']]), new Set([poster, posterFr]))).toEqual([]);
    expect(missingTargets(checked.references, new Map([[venue, 'Event']]), new Set([poster]))).toEqual([
      { field: 'fields.venue', message: `must name a Venue item; ${venue} is a Event` },
      { field: 'translations.poster.FR', message: `names no asset of this workspace: ${posterFr}` },
    ]);
  });
});
