// `npm ci` / `npm install` run `prepare`: build dist/ (tsc, then the CLI bundle).
//
// Why not always: `npx listing-sync` in this folder finds the bin in the project's own package.json,
// and npm then "installs" the project into its npx cache as a link, which runs `prepare` again. The
// link points back here, at the dist/ that `npm ci` built, so rebuilding only cost the first
// `npx listing-sync` call about 20 s. A build is still made when dist/ has no CLI yet.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const linkedByNpx = process.env.npm_command === 'exec';
const built = existsSync(new URL('../dist/cli/listing-sync.cjs', import.meta.url));
if (linkedByNpx && built) process.exit(0);
const npm = process.env.npm_execpath;
const result = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(result.status ?? 1);
