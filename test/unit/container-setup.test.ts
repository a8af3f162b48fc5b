import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/build';

const run = promisify(execFile);

/** No Docker engine runs where the tests run: these check what can be checked without one. */
describe('Dockerfile, docker-compose.yml and npm run test:servers', () => {
  it('pins every image to a version and keeps the working copy out of the service container', async () => {
    const compose = await readFile(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    const images = [...compose.matchAll(/^\s+image:\s*(\S+)/gm)].map((match) => match[1]!);
    expect(images).toEqual(expect.arrayContaining([expect.stringMatching(/^eventstore\//), expect.stringMatching(/^mongo:/), expect.stringMatching(/^minio\//), expect.stringMatching(/^postgres:/)]));
    for (const image of images.filter((name) => !name.startsWith('headless-cms:'))) expect(image).toMatch(/:[^:]*\d[^:]*$/);
    expect(compose).not.toMatch(/:latest\b/);
    expect(compose).not.toMatch(/["\s[]\.:\/app/);
    expect(compose).toMatch(/^\s+build: \.$/m);

    const dockerfile = await readFile(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    for (const [, image] of dockerfile.matchAll(/^FROM (\S+)/gm)) expect(image).toMatch(/^node:\d+\.\d+\.\d+-/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/health\/ready/m);
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
  });

  it('npm run test:servers collects the EventStoreDB, MongoDB and S3 suites, the quoted URLs reaching jest', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'test:servers', '--', '--listTests'], { cwd: REPO_ROOT });
    expect(stdout).not.toMatch(/NOT RUN: (EventStoreDB|MongoDB)/);
    const suites = stdout.split('\n').filter((line) => line.endsWith('.test.ts')).map((line) => line.slice(line.lastIndexOf('/') + 1)).sort();
    expect(suites).toEqual(['blobstore.s3.test.ts', 'datakeys.mongodb.test.ts', 'eventstore.eventstoredb.test.ts', 'itemkeys.mongodb.test.ts', 'lease.mongodb.test.ts', 'readstore.mongodb.test.ts', 'readstore.secondaries.mongodb.test.ts']);
  }, 60_000);
});
