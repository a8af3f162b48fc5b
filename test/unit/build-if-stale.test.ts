import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/build';

const run = promisify(execFile);

/** A copy of the repository's build set-up (scripts, tsconfigs, node_modules) around a one-file service. */
async function projectCopy(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cms-build-'));
  await mkdir(join(root, 'scripts'));
  for (const file of ['scripts/build-if-stale.js', 'tsconfig.json', 'tsconfig.build.json']) await copyFile(join(REPO_ROOT, file), join(root, file));
  await symlink(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
  for (const folder of ['src', 'commands', 'queries', 'projections', 'infra']) await mkdir(join(root, folder));
  await writeFile(join(root, 'src', 'main.ts'), 'export const answer: number = 1;\n');
  return root;
}

const buildIfStale = (root: string) => run(process.execPath, [join(root, 'scripts', 'build-if-stale.js')], { cwd: root });
const lastBuild = async (root: string) => (await stat(join(root, 'dist', '.tsbuildinfo'))).mtimeMs;
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('build before npm start and npm run cms (scripts/build-if-stale.js)', () => {
  let root: string;
  beforeEach(async () => {
    root = await projectCopy();
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('builds a fresh copy, then does not build again while nothing changed', async () => {
    await buildIfStale(root);
    expect(await readFile(join(root, 'dist', 'src', 'main.js'), 'utf8')).toContain('exports.answer = 1');
    const builtAt = await lastBuild(root);
    await pause();
    await buildIfStale(root);
    expect(await lastBuild(root)).toBe(builtAt);
  }, 120_000);

  it('builds again when a source file changes or a new one appears', async () => {
    await buildIfStale(root);
    await pause();
    await writeFile(join(root, 'src', 'main.ts'), 'export const answer: number = 2;\n');
    await buildIfStale(root);
    expect(await readFile(join(root, 'dist', 'src', 'main.js'), 'utf8')).toContain('exports.answer = 2');

    await pause();
    await mkdir(join(root, 'infra', 'clock'));
    await writeFile(join(root, 'infra', 'clock', 'now.ts'), 'export const now = (): number => Date.now();\n');
    await buildIfStale(root);
    expect(await readFile(join(root, 'dist', 'infra', 'clock', 'now.js'), 'utf8')).toContain('exports.now');
  }, 120_000);

  it('stops with the compiler\'s message on a syntax error', async () => {
    await writeFile(join(root, 'src', 'main.ts'), 'export const answer = ;\n');
    await expect(buildIfStale(root)).rejects.toMatchObject({ stdout: expect.stringContaining('src/main.ts') });
  }, 120_000);
});
