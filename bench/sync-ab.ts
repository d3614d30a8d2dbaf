/**
 * A/B of one bench:sync round (sync-wire.ts) between the built checkout `--before` and this one, alternating so both
 * see the same neighbours; prints one JSON line per measurement and the medians (BENCHMARKS.md "Cost per listing: changes").
 * Usage: node dist/bench/sync-ab.js --before DIR [--creates N] [--rounds N] [--latency MS] [--concurrency N]
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { median, packageRoot } from './benchmarks-md.js';
import { cleanPrefix, newPrefix, parseOptions, REDIS_URL } from './kit.js';
import type * as Wire from './sync-wire.js';

const options = parseOptions(process.argv.slice(2), { before: '', creates: 6000, rounds: 3, latency: 20, concurrency: 16 });
if (options.before === '') throw new Error('--before DIR (the root of a built checkout) is needed');
const load = async (root: string): Promise<typeof Wire> =>
  (await import(pathToFileURL(join(root, 'dist/bench/sync-wire.js')).href)) as typeof Wire;
const builds: Array<[string, typeof Wire]> = [
  ['before', await load(options.before)],
  ['after', await load(packageRoot(fileURLToPath(new URL('.', import.meta.url))))],
];

async function measure(build: string, wire: typeof Wire, admin: Redis): Promise<Record<string, number | string>> {
  const scenario = await wire.prepareWireScenario(options.creates, options.concurrency, options.latency);
  try {
    const bare = await wire.runBareLoop(scenario);
    const prefix = newPrefix('ab');
    const run = await wire.runCliWork(scenario, REDIS_URL, prefix).finally(() => cleanPrefix(admin, prefix));
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

const admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const all: Array<Record<string, number | string>> = [];
try {
  for (let round = 1; round <= options.rounds; round += 1)
    for (const [build, wire] of builds) {
      const figures = await measure(build, wire, admin);
      all.push(figures);
      process.stdout.write(`${JSON.stringify({ round, ...figures })}\n`);
    }
} finally {
  await admin.quit();
}
const NOT_MEDIANS = ['build', 'created', 'duplicateCreates', 'bareCpuMsPerRequest'];
for (const [build] of builds) {
  const mine = all.filter((figures) => figures.build === build);
  const fields = Object.keys(mine[0] ?? {}).filter((field) => !NOT_MEDIANS.includes(field));
  const medians = fields.map((field) => [field, Number(median(mine.map((figures) => Number(figures[field]))).toFixed(3))]);
  process.stdout.write(`${JSON.stringify({ build, medianOf: mine.length, ...Object.fromEntries(medians) })}\n`);
}
