// The layers as lint rules (docs/architecture.md "Layers"): which folders each folder of
// the product may import, which packages only one folder may use, and who may read the process.
//
//   cli → sync → (feed, api, queue, store) → domain
//   fleet (fleet.yaml: parse, validate, diff) is pure like domain and may use only it;
//   feed and api import no other adapter; queue may use store, api (error classification) and
//   the job kinds; jobs/ use api, store and domain; domain imports nothing with I/O.
//   Below them all: net/ (backoff, Retry-After, retrying reads, the abortable sleep: what api and
//   feed both need) and shared/ (errors, error codes and their exit codes, zod-issue text, counts), which
//   import no other folder; runtime/ (the logger, periodic passes, worker threads) for every
//   adapter; config/ (settings resolved from flags, env and file) for the composition root, and for
//   queue the Redis Cluster target it connects to.
//   Inside cli, only its top files and cli/wiring/ import adapter values; commands/, input/ and
//   output/ go through sync/ or cli/wiring/ and import the adapters' types only.

/** Product folders (under src/, plus jobs/ at the top). */
const FOLDERS = [
  'shared',
  'net',
  'runtime',
  'config',
  'domain',
  'fleet',
  'feed',
  'api',
  'store',
  'queue',
  'sync',
  'dashboard',
  'sim',
  'cli',
  'jobs',
];

/** Folder → the folders it may import (itself always). */
const MAY_IMPORT = {
  shared: [],
  net: ['shared'],
  runtime: ['shared'],
  config: ['api', 'shared'],
  domain: ['shared'],
  fleet: ['domain', 'shared'],
  feed: ['domain', 'net', 'runtime', 'shared'],
  api: ['domain', 'net', 'runtime', 'shared'],
  store: ['domain', 'net', 'runtime', 'shared'],
  queue: ['store', 'api', 'domain', 'jobs', 'config', 'net', 'runtime', 'shared'],
  jobs: ['api', 'store', 'domain', 'net', 'runtime', 'shared'],
  sync: ['fleet', 'feed', 'api', 'queue', 'store', 'domain', 'net', 'runtime', 'shared'],
  dashboard: ['sync', 'queue', 'store', 'domain', 'net', 'runtime', 'shared'],
  // Why not api or domain: the simulator plays the service, so it checks requests with its own schemas
  // (src/sim/spec, written from the spec); sharing the client's would let a wrong client schema pass every test.
  sim: ['net', 'shared'],
  cli: FOLDERS,
};

/** Packages only some folders may use. */
const PACKAGE_OWNERS = {
  bullmq: ['queue'],
  // BullMQ's own cron parser: schedules are read the way BullMQ reads them (src/queue/cron.ts).
  'cron-parser': ['queue'],
  ioredis: ['store', 'queue', 'cli'],
  undici: ['api', 'feed'],
  'csv-parse': ['feed'],
  express: ['dashboard'],
  '@bull-board/api': ['dashboard'],
  '@bull-board/express': ['dashboard'],
  'prom-client': ['dashboard'],
  commander: ['cli'],
  yaml: ['fleet'],
  // The S3 media store (src/feed/media/s3-store.ts).
  '@aws-sdk/client-s3': ['feed'],
};

/** Node modules that do I/O: the pure domain may not use them. */
const IO_MODULES = ['fs', 'fs/promises', 'net', 'http', 'https', 'child_process', 'worker_threads', 'os', 'dns', 'timers/promises'];

const filesOf = (folder) => (folder === 'jobs' ? ['jobs/**/*.ts'] : [`src/${folder}/**/*.ts`]);

/** A relative specifier that climbs out and enters `target` (`../queue/x.js`, `../../src/queue/x.js`). */
const intoFolder = (target) => (target === 'jobs' ? `^(\\.\\./)+jobs/` : `^(\\.\\./)+(src/)?${target}/`);

function restrictionsFor(folder) {
  const allowed = new Set([folder, ...MAY_IMPORT[folder]]);
  const patterns = FOLDERS.filter((other) => !allowed.has(other)).map((other) => ({
    regex: intoFolder(other),
    message: `${folder}/ may not import ${other}/ (layers: ${folder} → ${MAY_IMPORT[folder].join(', ') || 'nothing'}; see docs/architecture.md "Layers").`,
  }));
  const paths = Object.entries(PACKAGE_OWNERS)
    .filter(([, owners]) => !owners.includes(folder))
    .map(([name, owners]) => ({ name, message: `only ${owners.join(', ')} may use ${name}.` }));
  if (folder === 'domain' || folder === 'fleet') {
    for (const io of IO_MODULES) paths.push({ name: `node:${io}`, message: `${folder}/ is pure: no I/O.` });
  }
  return { paths, patterns };
}

/**
 * Adapters that cli's commands, input parsing and output formatting reach only through sync/ (the
 * use cases) or cli/wiring/ (what opens and releases them); their types stay importable.
 */
const CLI_ADAPTERS = ['queue', 'store', 'api', 'feed', 'dashboard'];

/**
 * Adapter modules cli's inner folders may import values from, by folder. Why these: each is either a
 * pure rule of its adapter (the request schemas, how a feed source or a budget is written, cron
 * patterns, the dashboard's loopback rule) or a whole operator use case that lives with the queue it works on (failed jobs,
 * schedules); a file in sync/ that only re-exported them would be a second home for the same names.
 */
const CLI_ADAPTER_MODULES = {
  api: ['schemas.js'],
  feed: ['feed-source.js', 'reso-api/budget-spec.js'],
  queue: ['failed-jobs.js', 'schedules.js', 'cron.js'],
  // The loopback rule of the dashboard's Host check, for `dashboard --insecure-local`; it imports nothing.
  dashboard: ['security.js'],
};

/** `intoFolder(adapter)`, except the modules CLI_ADAPTER_MODULES lets cli's inner folders import. */
function intoAdapterExceptAllowed(adapter) {
  const allowed = (CLI_ADAPTER_MODULES[adapter] ?? []).map((file) => file.replace(/[./]/g, (c) => `\\${c}`));
  return allowed.length === 0 ? intoFolder(adapter) : `${intoFolder(adapter)}(?!(${allowed.join('|')})$)`;
}

/** The cli's inner folders: the composition root (its top files and wiring/) is not among them. */
const CLI_INNER = ['src/cli/commands/**/*.ts', 'src/cli/input/**/*.ts', 'src/cli/output/**/*.ts'];

function cliInnerBlock() {
  const patterns = CLI_ADAPTERS.map((adapter) => ({
    regex: intoAdapterExceptAllowed(adapter),
    allowTypeImports: true,
    message:
      `cli/ commands, input and output reach ${adapter}/ through sync/ (a use case) or cli/wiring/ (what opens it); ` +
      '`import type` is fine (see docs/architecture.md "Layers").',
  }));
  // A lazy `import('…')` of an adapter is a value import too (no-restricted-imports does not see it).
  // esquery takes no escaped slash in a regex literal: \x2F stands for "/".
  const lazy = {
    selector: `ImportExpression[source.value=/^(\\.\\.\\x2F)+(src\\x2F)?(${CLI_ADAPTERS.join('|')})\\x2F/]`,
    message: 'cli/ commands, input and output load adapters lazily through cli/wiring/ (see docs/architecture.md "Layers").',
  };
  return {
    files: CLI_INNER,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
      // Listed again with the barrel rule: a later block's options for a rule replace the earlier ones.
      'no-restricted-syntax': ['error', NO_BARRELS, lazy],
    },
  };
}

const NO_BARRELS = { selector: 'ExportAllDeclaration', message: 'No `export *` barrels: import the file that owns the name.' };

/** Reading the process (env, argv) or ending it belongs to the composition root. */
const PROCESS_RULE = [
  'error',
  { object: 'process', property: 'env', message: 'Only src/cli and src/config/ read process.env: take the value as a parameter.' },
  { object: 'process', property: 'argv', message: 'Only src/cli reads process.argv.' },
  { object: 'process', property: 'exit', message: 'Only src/cli ends the process: return an exit code.' },
];

/** Flat-config blocks: one per folder with its import restrictions, the process rule, and no barrels. */
export function layerBlocks() {
  const blocks = FOLDERS.map((folder) => ({
    files: filesOf(folder),
    rules: { 'no-restricted-imports': ['error', restrictionsFor(folder)] },
  }));
  blocks.push({
    files: ['src/**/*.ts', 'jobs/**/*.ts'],
    ignores: ['src/cli/**', 'src/config/**'],
    rules: { 'no-restricted-properties': PROCESS_RULE },
  });
  blocks.push({
    files: ['src/**/*.ts', 'jobs/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', NO_BARRELS],
    },
  });
  // Last: its no-restricted-syntax (barrels and lazy adapter imports) replaces the one above for these files.
  blocks.push(cliInnerBlock());
  return blocks;
}
