/**
 * How the shipped CLI starts: its launcher (dist/cli/listing-sync.cjs) compiles the CLI's bundle
 * (dist/cli/bundle.cjs: src/cli/main.ts and all it imports, see scripts/build-bundle.ts) with the
 * V8 code cache the build wrote beside it, and runs it.
 *
 * Why: every command, `sync --work` included, starts by loading ~5 MB of JavaScript (BullMQ,
 * ioredis, undici, zod, the tool). Node 20 has no compile cache for modules, so without this the
 * CLI spent ~0.35 s loading ~800 files before its first request; bundled, ~0.2 s; with the code
 * cache, ~0.1 s (BENCHMARKS.md). The worker threads are bundles of their own, loaded as plain
 * CommonJS files: a thread that shared the CLI's bundle held all of it, ~12 MiB more in a
 * migration with both threads, and started no sooner.
 *
 * The cache is an optimisation only. V8 refuses a cache made by another Node or V8 version or
 * under other V8 flags (the script then compiles as usual); the manifest's byte count guards
 * against a cache left beside a rebuilt bundle, which V8 would otherwise accept as long as the
 * length matched. This file is built to CommonJS on its own (not bundled): it must run before the
 * bundle exists in memory.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

export const BUNDLE_FILE = 'bundle.cjs';
export const CODE_CACHE_FILE = 'bundle.code-cache';
export const MANIFEST_FILE = 'bundle.json';

/** What the build recorded about the code cache it wrote. */
export interface BundleManifest {
  /** Bytes of bundle.cjs the cache was made from. */
  bundleBytes: number;
  /** process.version of the Node that made it (V8 refuses the cache under another). */
  node: string;
}

/** The cache for `bundleBytes` of bundle, or undefined when there is none that fits. */
function readCodeCache(dir: string, bundleBytes: number): Buffer | undefined {
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Partial<BundleManifest>;
    if (manifest.bundleBytes !== bundleBytes || manifest.node !== process.version) return undefined;
    return readFileSync(join(dir, CODE_CACHE_FILE));
  } catch {
    // Why silent: an unreadable cache only costs the compile time it would have saved.
    return undefined;
  }
}

/** Compiles the bundle in `dir` (with `cachedData` when given) and runs it: the CLI runs its command. */
function runCompiled(dir: string, cachedData: Buffer | undefined, source: string): Script {
  const file = join(dir, BUNDLE_FILE);
  // The CommonJS wrapper by hand: vm.Script is what accepts a code cache in Node 20.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: pathToFileURL(file).href, cachedData });
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dir);
  return script;
}

/** Why latin1: the build makes the bundle ASCII (build-bundle.ts `asciiBundle`), and one-byte decoding is ~3× faster than UTF-8. */
function readBundle(dir: string): string {
  return readFileSync(join(dir, BUNDLE_FILE), 'latin1');
}

/** Runs the CLI's bundle in `dir`: the launcher's whole job. */
export function runBundle(dir: string): void {
  const source = readBundle(dir);
  runCompiled(dir, readCodeCache(dir, source.length), source);
}

/**
 * Build step: runs `listing-sync --help` from the bundle in `dir` and, as the process exits,
 * writes the code cache of everything compiled by then (the top level of every module the CLI
 * loads, which is most of the start-up) and its manifest.
 */
export function writeCodeCache(dir: string): void {
  const source = readBundle(dir);
  process.argv = [process.execPath, join(dir, 'listing-sync.cjs'), '--help'];
  const script = runCompiled(dir, undefined, source);
  process.once('exit', () => {
    writeFileSync(join(dir, CODE_CACHE_FILE), script.createCachedData());
    const manifest: BundleManifest = { bundleBytes: source.length, node: process.version };
    writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  });
}
