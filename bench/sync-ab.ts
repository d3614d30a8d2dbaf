/**
 * A/B of one bench:sync round between two builds, for recording what a change costs or saves
 * per listing (BENCHMARKS.md "Cost per listing: changes"). Each round runs, for the build
 * `--before` (another checkout's root, built) and then for this one, bench:sync's own
 * measurement (sync-wire.ts: the bare keep-alive loop, then the built CLI `sync --work`, each as
 * its own process against a fresh simulator), alternating the builds so that both see the same
 * neighbours on a shared machine. Prints one JSON line per measurement and the medians.
 *
 * Best against a Redis of its own (REDIS_URL, e.g. a private `redis-server --port 6392`): the
 * Redis figures come from INFO, server-wide.
 *
 * Usage: node dist/bench/sync-ab.js --before DIR [--creates N] [--rounds N] [--latency MS] [--concurrency N]
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { packageRoot } from './benchmarks-md.js';
import { cleanPrefix } from './sync-redis-stats.js';
import type * as Wire from './sync-wire.js';

type WireModule = typeof Wire;

interface Options {
  before: string;
  creates: number;
  rounds: number;
  latencyMs: number;
  concurrency: number;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { before: '', creates: 6000, rounds: 3, latencyMs: 20, concurrency: 16 };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const value = argv[++i] ?? '';
    if (arg === '--before') options.before = value;
    else if (arg === '--creates') options.creates = Number(value);
    else if (arg === '--rounds') options.rounds = Number(value);
    else if (arg === '--latency') options.latencyMs = Number(value);
    else if (arg === '--concurrency') options.concurrency = Number(value);
    else throw new Error(`unknown option ${arg}`);
  }
  if (options.before === '') throw new Error('--before DIR (the root of a built checkout) is needed');
  return options;
}

interface Figures {
  build: string;
  cpuMsPerListing: number;
  bareCpuMsPerRequest: number;
  cpuRatio: number;
  redisCommandsPerListing: number;
  redisCpuMsPerListing: number;
  writesRatio: number;
  wholeSeconds: number;
  /** Spawn → first write answered, and last write answered → exit (the command's own start and end). */
  leadSeconds: number;
  tailSeconds: number;
  created: number;
  duplicateCreates: number;
}

async function measure(build: string, wire: WireModule, options: Options, redisUrl: string, admin: Redis): Promise<Figures> {
  const scenario = await wire.prepareWireScenario(options.creates, options.concurrency, options.latencyMs);
  try {
    const bare = await wire.runBareLoop(scenario);
    const prefix = `bench-ab-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const run = await wire.runCliWork(scenario, redisUrl, prefix).finally(() => cleanPrefix(admin, prefix));
    const per = (total: number): number => (total / options.creates) * 1000;
    return {
      build,
      cpuMsPerListing: per(run.cli.cpuSeconds),
      bareCpuMsPerRequest: per(bare.cpuSeconds),
      cpuRatio: run.cli.cpuSeconds / bare.cpuSeconds,
      redisCommandsPerListing: run.redisServer.commands / options.creates,
      redisCpuMsPerListing: per(run.redisServer.cpuSeconds),
      writesRatio: run.writesPerSecond / bare.perSecond,
      wholeSeconds: run.cli.seconds,
      leadSeconds: run.leadSeconds,
      tailSeconds: run.tailSeconds,
      created: run.created,
      duplicateCreates: run.duplicateCreates,
    };
  } finally {
    await wire.removeWireScenario(scenario);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  // Why a bench reads the env itself: it is a script beside the CLI, not part of src/.
  const redisUrl = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const here = packageRoot(fileURLToPath(new URL('.', import.meta.url)));
  const builds: Array<[string, WireModule]> = [
    ['before', (await import(pathToFileURL(join(options.before, 'dist/bench/sync-wire.js')).href)) as WireModule],
    ['after', (await import(pathToFileURL(join(here, 'dist/bench/sync-wire.js')).href)) as WireModule],
  ];
  const admin = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const all: Figures[] = [];
  try {
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const [build, wire] of builds) {
        const figures = await measure(build, wire, options, redisUrl, admin);
        all.push(figures);
        process.stdout.write(`${JSON.stringify({ round, ...figures })}\n`);
      }
    }
  } finally {
    await admin.quit();
  }
  for (const [build] of builds) {
    const mine = all.filter((figures) => figures.build === build);
    const pick = (field: keyof Omit<Figures, 'build'>): number => Number(median(mine.map((figures) => figures[field])).toFixed(3));
    process.stdout.write(
      `${JSON.stringify({
        build,
        medianOf: mine.length,
        cpuMsPerListing: pick('cpuMsPerListing'),
        cpuRatio: pick('cpuRatio'),
        redisCommandsPerListing: pick('redisCommandsPerListing'),
        redisCpuMsPerListing: pick('redisCpuMsPerListing'),
        writesRatio: pick('writesRatio'),
        wholeSeconds: pick('wholeSeconds'),
        leadSeconds: pick('leadSeconds'),
        tailSeconds: pick('tailSeconds'),
      })}\n`,
    );
  }
}

main().catch((thrown: unknown) => {
  process.stderr.write(`bench sync-ab failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`);
  process.exitCode = 1;
});
