/**
 * The shipped CLI (package.json's bin): a launcher that runs the CLI's bundle in dist/cli from the
 * V8 code cache the build made, and one bundle per worker thread (scripts/build-bundle.ts,
 * src/cli/bundle-loader.ts). Every other e2e test runs the CLI through this bin; these check the
 * bundle itself: the cache fits this Node and this bundle, the bundle needs nothing from dist/src,
 * and a cache that does not fit costs time only, never a failure or a line on stderr. A worker
 * thread's launcher writes its bundle's cache as the thread ends, when none fitted.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, CODE_CACHE_FILE, MANIFEST_FILE, threadBundle, type BundleManifest } from '../../src/cli/bundle-loader.js';
import { CLI_ENTRY, runCli } from '../helpers/run-cli.js';
import { codeCacheAccepted } from '../helpers/code-cache.js';

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
    expect(codeCacheAccepted(join(DIST_CLI, BUNDLE_FILE), join(DIST_CLI, CODE_CACHE_FILE))).toBe(true);
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

  it('has a launcher and a bundle per worker thread', () => {
    for (const name of ['enqueue-worker', 'feed-worker']) {
      expect(readFileSync(join(DIST_CLI, `${name}.cjs`), 'utf8')).toContain(`runThreadBundle(__dirname, "${name}")`);
      expect(existsSync(join(DIST_CLI, threadBundle(name).bundle))).toBe(true);
    }
  });

  describe("a worker thread's code cache", () => {
    /** A folder with the built loader and a thread `t` that answers 42 and ends when told. */
    function threadFolder(): string {
      const dir = mkdtempSync(join(tmpdir(), 'listing-sync-thread-'));
      copies.push(dir);
      cpSync(join(DIST_CLI, 'bundle-loader.cjs'), join(dir, 'bundle-loader.cjs'));
      writeFileSync(
        join(dir, threadBundle('t').bundle),
        "const { parentPort } = require('node:worker_threads');\nparentPort.postMessage(42);\nparentPort.once('message', () => parentPort.close());\n",
      );
      writeFileSync(join(dir, 't.cjs'), "require('./bundle-loader.cjs').runThreadBundle(__dirname, 't');\n");
      return dir;
    }

    /** Runs thread `t` of `dir` to its end; resolves with what it posted and its exit code. */
    async function runThread(dir: string): Promise<{ posted: unknown; code: number; stderr: string }> {
      const worker = new Worker(join(dir, 't.cjs'), { stderr: true });
      let stderr = '';
      worker.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      let posted: unknown;
      worker.once('message', (message: unknown) => {
        posted = message;
        worker.postMessage('end');
      });
      const code = await new Promise<number>((resolve) => worker.once('exit', resolve));
      return { posted, code, stderr };
    }

    function acceptedIn(dir: string): boolean {
      const files = threadBundle('t');
      return codeCacheAccepted(join(dir, files.bundle), join(dir, files.cache));
    }

    it('is written as the thread ends, for this Node and this bundle, and V8 accepts it', async () => {
      const dir = threadFolder();
      expect(await runThread(dir)).toEqual({ posted: 42, code: 0, stderr: '' });
      const files = threadBundle('t');
      expect(JSON.parse(readFileSync(join(dir, files.manifest), 'utf8'))).toEqual({
        node: process.version,
        bundleBytes: statSync(join(dir, files.bundle)).size,
      });
      expect(acceptedIn(dir)).toBe(true);
      // Nothing staged is left beside it.
      expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
    });

    it('that does not fit costs time only: the thread runs as usual and writes one that fits', async () => {
      const dir = threadFolder();
      const files = threadBundle('t');
      writeFileSync(
        join(dir, files.manifest),
        JSON.stringify({ node: process.version, bundleBytes: statSync(join(dir, files.bundle)).size }),
      );
      writeFileSync(join(dir, files.cache), Buffer.alloc(4096, 7));
      expect(await runThread(dir)).toEqual({ posted: 42, code: 0, stderr: '' });
      expect(acceptedIn(dir)).toBe(true);
    });

    it('is left unwritten, silently, where the folder cannot be written', async () => {
      const dir = threadFolder();
      const files = threadBundle('t');
      // A folder in place of the cache file: the rename into place fails.
      cpSync(join(dir, 'bundle-loader.cjs'), join(dir, files.cache, 'in-the-way'));
      expect(await runThread(dir)).toEqual({ posted: 42, code: 0, stderr: '' });
      expect(existsSync(join(dir, files.manifest))).toBe(false);
      expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
    });
  });
});
