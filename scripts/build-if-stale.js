'use strict';
// Compiles the service (`tsc -b tsconfig.build.json`: incremental, emit only) when a source file,
// a source folder or a tsconfig changed since the last build, so that `npm start` and
// `npm run cms` start at once when nothing changed. Run directly, it only builds.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
/** What tsconfig.build.json compiles, and the files that decide how. */
const SOURCE_FOLDERS = ['src', 'commands', 'queries', 'projections', 'infra'];
const BUILD_CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];
/** Written by tsc on every build and touched here after one, so its time is the time of the last build. */
const BUILD_INFO = join(ROOT, 'dist', '.tsbuildinfo');

function lastSourceChange() {
  let newest = Math.max(...BUILD_CONFIGS.map((file) => statSync(join(ROOT, file)).mtimeMs));
  for (const folder of SOURCE_FOLDERS) {
    newest = Math.max(newest, statSync(join(ROOT, folder)).mtimeMs);
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })) {
      // A folder's time moves when a file in it is added, renamed or removed.
      if (entry.isDirectory() || entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

function buildIfStale() {
  // A copy without sources (the container image) runs the build it ships.
  if (!existsSync(join(ROOT, 'src'))) return;
  if (existsSync(BUILD_INFO) && statSync(BUILD_INFO).mtimeMs > lastSourceChange()) return;
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const build = spawnSync(process.execPath, [tsc, '-b', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}

module.exports = { buildIfStale };

if (require.main === module) buildIfStale();
