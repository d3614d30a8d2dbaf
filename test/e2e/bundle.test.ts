/**
 * The shipped CLI (package.json's bin): a launcher that runs the CLI's bundle in dist/cli from the
 * V8 code cache the build made, and one bundle per worker thread (scripts/build-bundle.ts,
 * src/cli/bundle-loader.ts). Every other e2e test runs the CLI through this bin; these check the
 * bundle itself: the cache fits this Node and this bundle, the bundle needs nothing from dist/src,
 * and a cache that does not fit costs time only, never a failure or a line on stderr.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, CODE_CACHE_FILE, MANIFEST_FILE, type BundleManifest } from '../../src/cli/bundle-loader.js';
import { CLI_ENTRY, runCli } from './run-cli.js';

const DIST_CLI = dirname(CLI_ENTRY);
const copies: string[] = [];

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** dist/cli copied where neither dist/src nor node_modules are reachable. */
function copyOfDistCli(): string {
  const dir = mkdtempSync(join(tmpdir(), 'listing-sync-bundle-'));
  copies.push(dir);
  cpSync(DIST_CLI, dir, { recursive: true });
  return dir;
}

function manifestIn(dir: string): BundleManifest {
  return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as BundleManifest;
}

describe('the shipped CLI bundle', () => {
  it('is the bin, with a code cache made for this Node and this bundle, which V8 accepts', () => {
    expect(CLI_ENTRY).toMatch(/dist\/cli\/listing-sync\.cjs$/);
    const manifest = manifestIn(DIST_CLI);
    expect(manifest).toMatchObject({ node: process.version, bundleBytes: statSync(join(DIST_CLI, BUNDLE_FILE)).size });
    const source = readFileSync(join(DIST_CLI, BUNDLE_FILE), 'latin1');
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: 'bundle-check.cjs',
      cachedData: readFileSync(join(DIST_CLI, CODE_CACHE_FILE)),
    });
    expect(script.cachedDataRejected).toBe(false);
  });

  it('runs from a copy of dist/cli alone: nothing of dist/src or of the build is needed', async () => {
    const reference = await runCli(['sync', '--help'], {});
    const copy = await runCli(['sync', '--help'], {}, 20_000, join(copyOfDistCli(), 'listing-sync.cjs'));
    expect(copy).toEqual({ code: 0, stdout: reference.stdout, stderr: '' });
    expect(copy.stdout).toContain('--feed');
  });

  it('starts without the cache when it does not fit: another bundle, or bytes V8 refuses; no line on stderr', async () => {
    const reference = await runCli(['--help'], {});
    const stale = copyOfDistCli();
    writeFileSync(join(stale, MANIFEST_FILE), JSON.stringify({ ...manifestIn(stale), bundleBytes: 1 }));
    const garbage = copyOfDistCli();
    writeFileSync(join(garbage, CODE_CACHE_FILE), Buffer.alloc(4096, 7));
    const missing = copyOfDistCli();
    rmSync(join(missing, CODE_CACHE_FILE));
    for (const dir of [stale, garbage, missing]) {
      expect(await runCli(['--help'], {}, 20_000, join(dir, 'listing-sync.cjs'))).toEqual({
        code: 0,
        stdout: reference.stdout,
        stderr: '',
      });
    }
  });
});
