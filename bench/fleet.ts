/**
 * `npm run bench:fleet` (after `npm run build`): one replicated fleet source fanned out to 1, 10
 * and 100 chatbots by `fleet run SOURCE --dry-run --json`, the CLI as a process against the RESO
 * simulator (the MLS), the service simulator and Redis. Each size starts on a fresh prefix, so
 * every chatbot is new and the run is a full pull. The targets (issue 29): the requests to the
 * source stay those of one pull whatever the number of chatbots, and the fan-out's time per
 * chatbot is reported, against the 1-chatbot run of the same invocation as the baseline.
 * Why a dry run: it measures the fan-out (pull, replay, each chatbot's remote read and plan);
 * the writes are the service's and bench:sync measures them.
 *
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379); its fresh prefixes are removed at the end.
 * Usage: node dist/bench/fleet.js [--records N] [--max-top N] [--chatbots 1,10,100]
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startResoSimulator } from '../src/sim/reso/server.js';
import { startSimulator } from '../src/sim/server.js';
import { runCli } from './cli-child.js';
import { machineLine, writeSection } from './benchmarks-md.js';
import { cleanPrefix } from './sync-redis-stats.js';
import { cliEnv } from './sync-wire.js';
import { fleetSection, type FleetRound } from './fleet-report.js';

interface Options {
  records: number;
  maxTop: number;
  sizes: number[];
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { records: 10_000, maxTop: 1000, sizes: [1, 10, 100] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const text = argv[++i] ?? '';
    if (arg === '--chatbots') options.sizes = text.split(',').map(Number);
    else if (arg === '--records') options.records = Number(text);
    else if (arg === '--max-top') options.maxTop = Number(text);
    else throw new Error(`unknown option ${arg} (use --records N, --max-top N, --chatbots 1,10,100)`);
  }
  if ([options.records, options.maxTop, ...options.sizes].some((n) => !Number.isSafeInteger(n) || n < 1))
    throw new Error('--records, --max-top and --chatbots take whole numbers ≥ 1');
  return options;
}

/** The simulator's cities: chatbot i keeps one of them, so each chatbot's view is about a sixth of the MLS. */
const CITIES = ['Boulder', 'Denver', 'Austin', 'Seattle', 'Chicago', 'Raleigh'];
const chatbotName = (i: number): string => `bench-bot-${String(i).padStart(3, '0')}`;

function fleetFile(dir: string, propertyUrl: string, chatbots: number): string {
  const lines = [
    'sources:',
    '  mls:',
    `    feed: ${propertyUrl}`,
    '    profile: reso',
    '    replicate: true',
    '    overlap: 0s',
    'chatbots:',
  ];
  for (let i = 0; i < chatbots; i++)
    lines.push(`  ${chatbotName(i)}:`, '    source: mls', `    where: { City: ${CITIES[i % CITIES.length] ?? 'Boulder'} }`);
  const path = join(dir, `fleet-${chatbots}.yaml`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function round(options: Options, chatbots: number, dir: string, redis: Redis, redisUrl: string): Promise<FleetRound> {
  const names = Array.from({ length: chatbots }, (_, i) => chatbotName(i));
  const sim = await startSimulator({ port: 0, chatbots: names });
  const reso = await startResoSimulator({ port: 0, maxTop: options.maxTop, seed: 29 });
  const prefix = `bench-fleet-${randomBytes(4).toString('hex')}`;
  try {
    reso.state.records.seed({ count: options.records, status: 'Active' });
    const env = {
      ...cliEnv(sim, redisUrl, prefix),
      FEED_OAUTH_TOKEN_URL: reso.tokenUrl,
      FEED_OAUTH_CLIENT_ID: reso.credentials.clientId,
      FEED_OAUTH_CLIENT_SECRET: reso.credentials.clientSecret,
    };
    const applied = await runCli(['fleet', 'apply', fleetFile(dir, reso.propertyUrl, chatbots)], env);
    if (applied.code !== 0) throw new Error(`fleet apply failed: ${applied.stderr}`);
    reso.state.reset();
    const run = await runCli(['fleet', 'run', 'mls', '--dry-run', '--json'], env);
    if (run.code !== 0) throw new Error(`fleet run exited ${String(run.code)}: ${run.stderr.slice(0, 2000)}`);
    const out = JSON.parse(run.stdout) as { pull: { requests: number; records: number }; chatbots: unknown[] };
    if (out.chatbots.length !== chatbots) throw new Error(`fleet run synced ${out.chatbots.length} chatbots, not ${chatbots}`);
    const counters = reso.state.counters();
    return {
      chatbots,
      requests: counters.requests,
      recordsServed: counters.recordsServed,
      wallMs: run.seconds * 1000,
      peakRssMiB: Math.round(run.peakRssMiB),
    };
  } finally {
    await sim.close();
    await reso.close();
    await cleanPrefix(redis, prefix);
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const machine = machineLine();
  const command = ['npm run bench:fleet', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  console.error(`# ${machine}`);
  const redisUrl = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const dir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
  const rounds: FleetRound[] = [];
  try {
    for (const size of options.sizes) {
      const figures = await round(options, size, dir, redis, redisUrl);
      console.error(
        `  ${size} chatbot(s): ${figures.requests} requests, ${figures.recordsServed} records served, ` +
          `${(figures.wallMs / 1000).toFixed(2)} s (${(figures.wallMs / size).toFixed(0)} ms per chatbot), peak RSS ${figures.peakRssMiB} MiB`,
      );
      rounds.push(figures);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    redis.disconnect();
  }
  const body = fleetSection({ command, machine, date: new Date().toISOString(), records: options.records, maxTop: options.maxTop, rounds });
  console.log(body);
  await writeSection('Fleet fan-out (bench:fleet)', body);
  console.error('# wrote the Fleet fan-out section of BENCHMARKS.md');
  const minimal = Math.ceil(options.records / options.maxTop);
  if (rounds.some((r) => r.requests > minimal + 2)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
