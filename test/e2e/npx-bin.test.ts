/**
 * `npx listing-sync` in the repository, right after the build: it runs the built CLI at once,
 * offline and with an empty npm cache, and does not build the project again (it once rebuilt it
 * into npm's npx cache, ~40 s on the first call: scripts/prepare.mjs).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

it('npx --no-install listing-sync --version works from the repo root, offline, without rebuilding', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'ls-npx-cache-'));
  const bundle = join(root, 'dist/cli/bundle.cjs');
  const builtAt = statSync(bundle).mtimeMs;
  try {
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile(
        'npx',
        ['--no-install', '--offline', 'listing-sync', '--version'],
        {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', HOME: cache, npm_config_cache: cache, npm_config_update_notifier: 'false' },
          timeout: 120_000,
        },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out })),
      ),
    );
    expect(stdout.trim()).toBe(version);
    expect(statSync(bundle).mtimeMs, 'dist/cli/bundle.cjs was rebuilt').toBe(builtAt);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}, 150_000);
