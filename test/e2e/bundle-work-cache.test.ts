/**
 * The CLI's code cache after a command that worked: the build's cache holds what `--help`
 * compiles; the first command whose workers complete a job rewrites it, once, from everything it
 * compiled (the per-listing paths too), so later commands start with them compiled
 * (src/cli/bundle-loader.ts). A command that runs no job leaves the build's cache as it is.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { BUNDLE_FILE, CODE_CACHE_FILE, MANIFEST_FILE, type BundleManifest } from '../../src/cli/bundle-loader.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { CLI_ENTRY, runCli } from '../helpers/run-cli.js';
import { codeCacheAccepted } from '../helpers/code-cache.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-cache';
const FEED = join(resolve(import.meta.dirname, '../../fixtures/sync'), 'dry-run.csv');
const PASSING = ['--max-rejected', '20%'];

const copies: string[] = [];
const prefixes: string[] = [];
let sim: RunningSimulator | undefined;

afterEach(async () => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
  await sim?.close();
  sim = undefined;
  for (const prefix of prefixes.splice(0)) await cleanPrefix(redisUrl, prefix);
});

/** A copy of dist/cli whose CLI cache is the build's (`--help`), whatever other tests ran meanwhile. */
function copyWithBuildCache(): string {
  const dir = mkdtempSync(join(tmpdir(), 'listing-sync-work-cache-'));
  copies.push(dir);
  cpSync(dirname(CLI_ENTRY), dir, { recursive: true });
  const code = `require(${JSON.stringify(join(dir, 'bundle-loader.cjs'))}).writeCodeCache(${JSON.stringify(dir)});`;
  const made = spawnSync(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'pipe'] });
  expect(made.status, made.stderr.toString()).toBe(0);
  expect(manifestIn(dir).madeBy).toBe('help');
  return dir;
}

function manifestIn(dir: string): BundleManifest {
  return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as BundleManifest;
}

function cacheIn(dir: string): Buffer {
  return readFileSync(join(dir, CODE_CACHE_FILE));
}

function acceptedIn(dir: string): boolean {
  return codeCacheAccepted(join(dir, BUNDLE_FILE), join(dir, CODE_CACHE_FILE));
}

/** `sync` of the fixture feed into a fresh chatbot from the CLI in `dir`, with `extra` flags. */
async function syncFrom(dir: string, ...extra: string[]): Promise<{ code: number | null; stderr: string }> {
  sim ??= await startTestSim({ chatbots: [BOT] });
  const prefix = uniquePrefix('work-cache');
  prefixes.push(prefix);
  const args = ['sync', '--chatbot', BOT, '--feed', FEED, ...PASSING, ...extra, '--json'];
  const run = await runCli(args, cliEnv(sim, redisUrl, prefix), 60_000, join(dir, 'listing-sync.cjs'));
  return { code: run.code, stderr: run.stderr };
}

describe("the CLI's code cache after a command that worked", () => {
  it('is rewritten by the first sync --work, holds more than the build made, fits this bundle, and V8 accepts it', async () => {
    const dir = copyWithBuildCache();
    const built = cacheIn(dir);
    expect(await syncFrom(dir, '--work')).toEqual({ code: 0, stderr: '' });
    expect(manifestIn(dir)).toEqual({ node: process.version, bundleBytes: statSync(join(dir, BUNDLE_FILE)).size, madeBy: 'work' });
    expect(cacheIn(dir).length).toBeGreaterThan(built.length);
    expect(acceptedIn(dir)).toBe(true);
    // Nothing staged is left beside it.
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('is rewritten once: a later sync --work starts from it and leaves it as it is', async () => {
    const dir = copyWithBuildCache();
    expect(await syncFrom(dir, '--work')).toEqual({ code: 0, stderr: '' });
    const first = cacheIn(dir);
    expect(await syncFrom(dir, '--work')).toEqual({ code: 0, stderr: '' });
    expect(cacheIn(dir).equals(first)).toBe(true);
    expect(manifestIn(dir).madeBy).toBe('work');
  });

  it("stays the build's after commands that run no job: --help, and a sync that only enqueues", async () => {
    const dir = copyWithBuildCache();
    const built = cacheIn(dir);
    expect((await runCli(['--help'], {}, 20_000, join(dir, 'listing-sync.cjs'))).code).toBe(0);
    expect(await syncFrom(dir)).toEqual({ code: 0, stderr: '' });
    expect(manifestIn(dir).madeBy).toBe('help');
    expect(cacheIn(dir).equals(built)).toBe(true);
  });
});
