/**
 * How the shipped CLI starts: its launcher (dist/cli/listing-sync.cjs) compiles the CLI's bundle
 * (dist/cli/bundle.cjs: src/cli/main.ts and all it imports, see scripts/build-bundle.ts) with the
 * V8 code cache the build wrote beside it, and runs it. Each worker thread starts the same way,
 * from a launcher of its own (dist/cli/enqueue-worker.cjs runs enqueue-worker.bundle.cjs).
 *
 * Why: every command, `sync --work` included, starts by loading ~5 MB of JavaScript (BullMQ,
 * ioredis, undici, zod, the tool). Node 20 has no compile cache for modules, so without this the
 * CLI spent ~0.35 s loading ~800 files before its first request; bundled, ~0.2 s; with the code
 * cache, ~0.1 s (BENCHMARKS.md). The worker threads are bundles of their own: a thread that
 * shared the CLI's bundle held all of it, ~12 MiB more in a migration with both threads, and
 * started no sooner. A thread compiled its 2–3 MB bundle afresh in every command (~60 ms of CPU
 * for the top level alone, more for each function on first call), so a thread keeps a code cache
 * too: the thread writes it beside its bundle as it ends, the first time it ran without one that
 * fit, so it holds the functions the thread actually ran. Where dist/cli is read-only, or for a
 * thread that is stopped rather than ending (the feed reader's), there is no cache, as before.
 *
 * The build's cache holds what `--help` compiles: the top level of every module, not the functions
 * a sync calls per listing, which V8 then compiles lazily in each command's first seconds. So the
 * first command whose workers complete a job (`keepThisRunsCodeCache`) rewrites the CLI's cache as
 * it ends, from everything it compiled, once per build: later commands start with the hot paths
 * compiled (BENCHMARKS.md "Cost per listing: changes").
 *
 * The cache is an optimisation only. V8 refuses a cache made by another Node or V8 version or
 * under other V8 flags, or bytes that are no cache (the script then compiles as usual, and a
 * thread writes a new one); the manifest's byte count guards against a cache left beside a
 * rebuilt bundle, which V8 would otherwise accept as long as the length matched. This file is
 * built to CommonJS on its own (not bundled): it must run before the bundle exists in memory.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { threadId } from 'node:worker_threads';

export const BUNDLE_FILE = 'bundle.cjs';
export const CODE_CACHE_FILE = 'bundle.code-cache';
export const MANIFEST_FILE = 'bundle.json';

/** What the build recorded about the code cache it wrote. */
export interface BundleManifest {
  /** Bytes of bundle.cjs the cache was made from. */
  bundleBytes: number;
  /** process.version of the Node that made it (V8 refuses the cache under another). */
  node: string;
  /**
   * The CLI's cache only: what ran when it was made. 'help': the build's `--help`; 'work': a
   * command whose workers completed a job. Absent (a thread's, or an older build's): as 'help'.
   */
  madeBy?: CacheMadeBy;
}

export type CacheMadeBy = 'help' | 'work';

/** Set (in the global symbol registry, shared by the loader and the bundle) by keepThisRunsCodeCache. */
const KEEP_THIS_RUN = Symbol.for('listing-sync.code-cache.keep-this-run');

/**
 * Called by the bundle when this command has compiled the per-listing paths (its workers completed
 * a job): as it ends, the CLI rewrites its code cache from this run unless one made so already fits.
 * A no-op where the CLI was not started by runBundle (tests, `tsx`).
 */
export function keepThisRunsCodeCache(): void {
  (globalThis as Record<symbol, unknown>)[KEEP_THIS_RUN] = true;
}

function thisRunIsKept(): boolean {
  return (globalThis as Record<symbol, unknown>)[KEEP_THIS_RUN] === true;
}

/** The files of one bundle: its code, its code cache and the cache's manifest, all in one folder. */
export interface BundleFiles {
  bundle: string;
  cache: string;
  manifest: string;
}

/** The CLI's bundle. */
export const CLI_BUNDLE: BundleFiles = { bundle: BUNDLE_FILE, cache: CODE_CACHE_FILE, manifest: MANIFEST_FILE };

/** The bundle of the worker thread `name` (e.g. 'enqueue-worker'), started by the launcher `name`.cjs. */
export function threadBundle(name: string): BundleFiles {
  return { bundle: `${name}.bundle.cjs`, cache: `${name}.code-cache`, manifest: `${name}.json` };
}

/** A cache that fits, and what made it. */
interface FittingCache {
  cachedData: Buffer;
  madeBy: CacheMadeBy;
}

/** The cache for `bundleBytes` of bundle, or undefined when there is none that fits. */
function readCodeCache(dir: string, files: BundleFiles, bundleBytes: number): FittingCache | undefined {
  const manifestPath = join(dir, files.manifest);
  if (!existsSync(manifestPath)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Partial<BundleManifest>;
    if (manifest.bundleBytes !== bundleBytes || manifest.node !== process.version) return undefined;
    return { cachedData: readFileSync(join(dir, files.cache)), madeBy: manifest.madeBy ?? 'help' };
  } catch {
    // Why silent: an unreadable cache only costs the compile time it would have saved.
    return undefined;
  }
}

/**
 * The V8 flags every bundle runs under, set before it is compiled (V8 accepts a code cache only
 * under the flags it was made with, so the build's cache is made under them too).
 *
 * Why the WebAssembly tiering budget ×11: undici parses HTTP with llhttp compiled to WebAssembly,
 * which V8 compiles quickly first (Liftoff) and again with TurboFan once a function has run a
 * while. Under V8's default budget a command re-compiled llhttp before its first few requests were
 * done, ~0.11 s of CPU a command; at 20,000,000 a short command never does and a long one still
 * does early in its run, so its thousands of responses are parsed as fast as before
 * (BENCHMARKS.md "Cost per listing: changes").
 */
export function setBundleFlags(): void {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}

const WASM_TIERING_BUDGET = 20_000_000;

/** Compiles the bundle in `dir` (with `cachedData` when given) and runs it: the CLI runs its command, a thread its work. */
function runCompiled(dir: string, files: BundleFiles, cachedData: Buffer | undefined, source: string): Script {
  const file = join(dir, files.bundle);
  // The CommonJS wrapper by hand: vm.Script is what accepts a code cache in Node 20.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: pathToFileURL(file).href, cachedData });
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dir);
  return script;
}

/** Why latin1: the build makes the bundles ASCII (build-bundle.ts `makeBundleAscii`), and one-byte decoding is ~3× faster than UTF-8. */
function readBundle(dir: string, files: BundleFiles): string {
  return readFileSync(join(dir, files.bundle), 'latin1');
}

/** Writes `script`'s code cache and its manifest into `dir`. */
function saveCodeCache(dir: string, files: BundleFiles, script: Script, bundleBytes: number, madeBy?: CacheMadeBy): void {
  writeFileSync(join(dir, files.cache), script.createCachedData());
  const manifest: BundleManifest = { bundleBytes, node: process.version, ...(madeBy === undefined ? {} : { madeBy }) };
  writeFileSync(join(dir, files.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Like saveCodeCache, for a thread that may run in several processes at once: each file is
 * written under a name of its own and renamed into place, so a reader sees a whole file, old or
 * new, never half of one.
 */
function replaceCodeCache(dir: string, files: BundleFiles, script: Script, bundleBytes: number, madeBy?: CacheMadeBy): void {
  const staged: BundleFiles = {
    ...files,
    cache: `.${process.pid}-${threadId}-${files.cache}`,
    manifest: `.${process.pid}-${threadId}-${files.manifest}`,
  };
  try {
    saveCodeCache(dir, staged, script, bundleBytes, madeBy);
    // The cache first: a manifest that fits beside an older cache of the same bundle is still true.
    renameSync(join(dir, staged.cache), join(dir, files.cache));
    renameSync(join(dir, staged.manifest), join(dir, files.manifest));
  } finally {
    // Nothing staged is left behind by a write that failed half-way (a full disk).
    for (const name of [staged.cache, staged.manifest]) rmSync(join(dir, name), { force: true });
  }
}

/** Rewrites the cache as `dir`'s process exits, silently where it cannot (see runThreadBundle). */
function replaceCodeCacheAtExit(dir: string, files: BundleFiles, script: Script, bundleBytes: number, madeBy?: CacheMadeBy): void {
  process.once('exit', () => {
    if (madeBy === 'work' && !thisRunIsKept()) return;
    try {
      replaceCodeCache(dir, files, script, bundleBytes, madeBy);
    } catch {
      // Why silent: a folder the process may not write to (an install owned by root) only costs the compile time.
    }
  });
}

/** Runs the CLI's bundle in `dir`: the launcher's whole job (and, once per build, rewriting its cache: see the top). */
export function runBundle(dir: string): void {
  setBundleFlags();
  const source = readBundle(dir, CLI_BUNDLE);
  const cache = readCodeCache(dir, CLI_BUNDLE, source.length);
  const script = runCompiled(dir, CLI_BUNDLE, cache?.cachedData, source);
  if (cache?.madeBy === 'work' && !script.cachedDataRejected) return;
  replaceCodeCacheAtExit(dir, CLI_BUNDLE, script, source.length, 'work');
}

/**
 * Runs the bundle of the worker thread `name` in `dir`: its launcher's whole job. When no cache
 * fitted, the thread writes one as it ends (see the top of this file).
 */
export function runThreadBundle(dir: string, name: string): void {
  const files = threadBundle(name);
  setBundleFlags();
  const source = readBundle(dir, files);
  const cachedData = readCodeCache(dir, files, source.length)?.cachedData;
  const script = runCompiled(dir, files, cachedData, source);
  if (cachedData !== undefined && !script.cachedDataRejected) return;
  replaceCodeCacheAtExit(dir, files, script, source.length);
}

/**
 * Build step: runs `listing-sync --help` from the bundle in `dir` and, as the process exits,
 * writes the code cache of everything compiled by then (the top level of every module the CLI
 * loads, which is most of the start-up) and its manifest.
 */
export function writeCodeCache(dir: string): void {
  setBundleFlags();
  const source = readBundle(dir, CLI_BUNDLE);
  process.argv = [process.execPath, join(dir, 'listing-sync.cjs'), '--help'];
  const script = runCompiled(dir, CLI_BUNDLE, undefined, source);
  process.once('exit', () => saveCodeCache(dir, CLI_BUNDLE, script, source.length, 'help'));
}
