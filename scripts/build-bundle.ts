/**
 * `npm run build`'s second step: the shipped CLI in dist/cli, CommonJS bundles of src/ and its
 * dependencies, the CLI's launcher and its V8 code cache (src/cli/bundle-loader.ts says why).
 *
 *   dist/cli/bundle.cjs            src/cli/main.ts and everything it imports
 *   dist/cli/bundle-loader.cjs     compiles the bundle with its code cache and runs it
 *   dist/cli/listing-sync.cjs      the `listing-sync` bin (package.json): the loader, run
 *   dist/cli/bundle.code-cache     written by running `listing-sync --help` from the bundle
 *   dist/cli/bundle.json           which bundle and Node the cache was made for
 *   dist/cli/enqueue-worker.cjs    the enqueue thread's launcher (src/runtime/worker-thread.ts starts it): runs
 *                                  enqueue-worker.bundle.cjs, a bundle of its own, with its code cache (written
 *                                  beside it by the thread's first run, bundle-loader.ts `runThreadBundle`)
 *   dist/cli/feed-worker.cjs       the feed reader's thread, likewise
 *
 * Left outside the bundles and loaded from node_modules at run time: the dashboard's express and
 * bull-board (bull-board serves its UI files from its own package folder). msgpackr's optional
 * native addon is left out and never loaded (the define below).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CLI_BUNDLE, threadBundle } from '../src/cli/bundle-loader.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const OUT = join(ROOT, 'dist/cli');

/** The worker threads, each under the name src/ starts it by (with .cjs: its launcher), and its entry. */
const THREADS: Record<string, string> = {
  'enqueue-worker': 'src/queue/enqueue-worker.ts',
  'feed-worker': 'src/feed/feed-worker.ts',
};

/** The bundles: the CLI's, and one per worker thread. */
const BUNDLES: Record<string, string> = {
  [CLI_BUNDLE.bundle]: 'src/cli/main.ts',
  ...Object.fromEntries(Object.entries(THREADS).map(([name, entry]) => [threadBundle(name).bundle, entry])),
};

async function bundle(file: string, entry: string): Promise<void> {
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile: join(OUT, file),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Why ASCII: the loader reads the bundles as one-byte text, which is faster than UTF-8.
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'warning',
    external: ['express', '@bull-board/*', 'msgpackr-extract'],
    define: {
      // A CommonJS script has no import.meta; src/ uses import.meta.url to find files beside itself.
      'import.meta.url': '__bundleUrl',
      // Why msgpackr's native addon is off: loading it costs each process and thread 13-17 ms at
      // start, and it speeds only msgpackr's unpacking of long strings, which BullMQ's job data
      // (JSON strings in Redis hashes) never goes through.
      'process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED': '"true"',
    },
    banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
}

async function loader(): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'src/cli/bundle-loader.ts')],
    outfile: join(OUT, 'bundle-loader.cjs'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  const launcher =
    "#!/usr/bin/env node\n'use strict';\n// Written by scripts/build-bundle.ts.\nrequire('./bundle-loader.cjs').runBundle(__dirname);\n";
  writeFileSync(join(OUT, 'listing-sync.cjs'), launcher, { mode: 0o755 });
  for (const name of Object.keys(THREADS)) {
    const thread = `'use strict';\n// Written by scripts/build-bundle.ts.\nrequire('./bundle-loader.cjs').runThreadBundle(__dirname, ${JSON.stringify(name)});\n`;
    writeFileSync(join(OUT, `${name}.cjs`), thread);
  }
}

/**
 * Makes a bundle ASCII (the loader decodes it as one-byte text) without changing what it means.
 * With charset 'ascii' esbuild escapes most non-ASCII characters of code, but not all: it keeps
 * them in comments, in tagged templates (the dashboard's `html` pages: "·", "→") and in some
 * regular expressions (the price parser's currency signs). Each is written as its \u escape (two
 * for a character outside the BMP), which means the same character in a string, a template's
 * cooked text and a regular expression, and is harmless in a comment. Why not '?': it turned
 * every "·" of the dashboard into "?" and made the currency signs match "?".
 */
function makeBundleAscii(name: string): void {
  const file = join(OUT, name);
  const text = readFileSync(file, 'utf8');
  // Why no /u flag: it matches UTF-16 code units, so a character outside the BMP becomes its surrogate pair.
  const escaped = text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(file, escaped);
}

function writeCodeCache(): void {
  const loader = join(OUT, 'bundle-loader.cjs');
  const code = `require(${JSON.stringify(loader)}).writeCodeCache(${JSON.stringify(OUT)});`;
  // Why a child: the cache is made by running the CLI, whose help text is not the build's output.
  const child = spawnSync(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (child.status !== 0) throw new Error(`writing the code cache failed (exit ${child.status ?? child.signal})`);
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const [file, entry] of Object.entries(BUNDLES)) await bundle(file, entry);
await loader();
for (const file of Object.keys(BUNDLES)) makeBundleAscii(file);
writeCodeCache();
