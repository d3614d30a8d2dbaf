/**
 * `npm run bench:fleet`: one replicated source fanned out to N new chatbots by `fleet run SOURCE --dry-run` (issue 29:
 * the source's requests stay one pull's whatever N). Why dry: it measures the fan-out; bench:sync measures writes.
 * Usage: node dist/bench/fleet.js [--records N] [--max-top N] [--chatbots 1,10,100] [--no-write]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { startResoSimulator } from '../src/sim/reso/server.js';
import { startSimulator } from '../src/sim/server.js';
import { fixed, head, measuredTargets, publish, ratioText, table } from './benchmarks-md.js';
import { cliEnv, runCli } from './cli-child.js';
import { cleanPrefix, measuringRedis, newPrefix, parseOptions, REDIS_URL } from './kit.js';

const argv = process.argv.slice(2);
const options = parseOptions(argv, { records: 10_000, maxTop: 1000, chatbots: [1, 10, 100], write: true });
/** Chatbot i keeps one of the simulator's cities: about a sixth of the MLS. */
const CITIES = ['Boulder', 'Denver', 'Austin', 'Seattle', 'Chicago', 'Raleigh'];
const chatbotName = (i: number): string => `bench-bot-${String(i).padStart(3, '0')}`;
const minimal = Math.ceil(options.records / options.maxTop);

function fleetFile(dir: string, propertyUrl: string, chatbots: number): string {
  const bots = Array.from({ length: chatbots }, (_, i) => [chatbotName(i), { source: 'mls', where: { City: CITIES[i % CITIES.length] } }]);
  const path = join(dir, `fleet-${chatbots}.yaml`);
  const mls = { feed: propertyUrl, profile: 'reso', replicate: true, overlap: '0s' };
  writeFileSync(path, stringify({ sources: { mls }, chatbots: Object.fromEntries(bots) }));
  return path;
}

async function round(chatbots: number, dir: string, redis: Redis) {
  const sim = await startSimulator({ port: 0, chatbots: Array.from({ length: chatbots }, (_, i) => chatbotName(i)) });
  const reso = await startResoSimulator({ port: 0, maxTop: options.maxTop, seed: 29 });
  const prefix = newPrefix('fleet');
  try {
    reso.state.records.seed({ count: options.records, status: 'Active' });
    const env = {
      ...cliEnv(sim, REDIS_URL, prefix),
      FEED_OAUTH_TOKEN_URL: reso.tokenUrl,
      FEED_OAUTH_CLIENT_ID: reso.credentials.clientId,
      FEED_OAUTH_CLIENT_SECRET: reso.credentials.clientSecret,
    };
    const applied = await runCli(['fleet', 'apply', fleetFile(dir, reso.propertyUrl, chatbots)], env);
    if (applied.code !== 0) throw new Error(`fleet apply failed: ${applied.stderr}`);
    reso.state.reset();
    const { result: run, work } = await measuringRedis(REDIS_URL, () => runCli(['fleet', 'run', 'mls', '--dry-run', '--json'], env));
    if (run.code !== 0) throw new Error(`fleet run exited ${String(run.code)}: ${run.stderr.slice(0, 2000)}`);
    const out = JSON.parse(run.stdout) as { chatbots: unknown[] };
    if (out.chatbots.length !== chatbots) throw new Error(`fleet run synced ${out.chatbots.length} chatbots, not ${chatbots}`);
    const { requests, recordsServed } = reso.state.counters();
    process.stderr.write(`${chatbots} chatbot(s): ${requests} requests, ${run.seconds.toFixed(2)} s\n`);
    const { peakRssMiB, cpuSeconds } = run;
    return { chatbots, requests, recordsServed, wallMs: run.seconds * 1000, peakRssMiB, cpuSeconds, redis: work.commands };
  } finally {
    await Promise.all([sim.close(), reso.close(), cleanPrefix(redis, prefix)]);
  }
}

const at = head('bench:fleet', argv);
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const dir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
const rounds: Array<Awaited<ReturnType<typeof round>>> = [];
try {
  for (const size of options.chatbots) rounds.push(await round(size, dir, redis));
} finally {
  rmSync(dir, { recursive: true, force: true });
  redis.disconnect();
}
const base = rounds[0];
const missed = await publish('Fleet fan-out (bench:fleet)', at, options.write, [
  `One replicated fleet source of ${options.records} records (the RESO simulator, pages of ${options.maxTop}: ${minimal} requests ` +
    'minimal) fanned out by `fleet run SOURCE --dry-run` to N new chatbots, each keeping one city of six. Every chatbot is new, ' +
    'so each run is a full pull; the baseline is the 1-chatbot run. "Alone" = N × the baseline (each chatbot pulling for itself); ' +
    'time per chatbot = spawn to exit ÷ N; ms per added chatbot = (wall − baseline wall) ÷ (N − 1). CPU = the CLI process, every ' +
    'thread; Redis commands counted server side (INFO commandstats).',
  measuredTargets(
    rounds.map((r) => [
      `${r.chatbots} chatbot(s): requests to the source ≤ minimal + 2 (${minimal + 2})`,
      String(r.requests),
      r.requests <= minimal + 2,
    ]),
  ),
  table(rounds, [
    ['chatbots', (r) => r.chatbots, 'r'],
    ['requests to the source', (r) => r.requests],
    ['× baseline', (r) => ratioText(r.requests, base?.requests ?? 0)],
    ['requests if each pulled alone', (r) => (base?.requests ?? 0) * r.chatbots],
    ['records served', (r) => r.recordsServed],
    ['wall s', (r) => fixed(r.wallMs / 1000)],
    ['ms per chatbot', (r) => fixed(r.wallMs / r.chatbots, 0)],
    // Why the marginal time too: the whole command's time holds the process start and the pull, paid once.
    ['ms per added chatbot', (r) => (!base || r === base ? '-' : fixed((r.wallMs - base.wallMs) / (r.chatbots - base.chatbots), 0))],
    ['CPU s', (r) => fixed(r.cpuSeconds)],
    ['Redis commands', (r) => r.redis],
    ['peak RSS MiB', (r) => fixed(r.peakRssMiB, 0)],
  ]),
]);
if (missed) process.exitCode = 1;
