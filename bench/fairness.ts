/**
 * `npm run bench:fairness`: does sharing the writes queue in turns (src/queue/fair-turns.ts) cost throughput?
 * Each round: the bare loop; one chatbot's creates queued then worked ("alone"); a migration and `others` small
 * syncs queued then worked ("shared"), and how far into the migration the others were done.
 * Usage: node dist/bench/fairness.js [--rounds N] [--migration N] [--others N] [--other-listings N]
 *   [--concurrency N] [--latency MS] [--no-write]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { fixed, head, medianTargets, publish, table } from './benchmarks-md.js';
import { cliEnv, runCli, spawnCli, type Spawned } from './cli-child.js';
import { cleanPrefix, newPrefix, parseOptions, REDIS_URL, waitUntil } from './kit.js';
import { runBareLoop, startWireSim } from './sync-wire.js';
import { writeWireFiles } from './wire-feed.js';

const argv = process.argv.slice(2);
const options = parseOptions(argv, { rounds: 2, migration: 4000, others: 5, otherListings: 40, concurrency: 16, latency: 20, write: true });
const { concurrency, latency: latencyMs, otherListings } = options;
const total = options.migration + options.others * options.otherListings;
const MIGRATION = 'bench-migration';
const admin = new Redis(REDIS_URL, { maxRetriesPerRequest: null });

type Feed = Record<'from' | 'count', number> & { chatbot: string };

const otherFeed = (k: number): Feed => ({ chatbot: `bench-other-${k + 1}`, from: 100_000 + k * otherListings, count: otherListings });

/** Queues every feed with `sync` (enqueue only), in order, then one worker works them all. */
async function queuedThenWorked(feeds: readonly Feed[]) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-fairness-'));
  const chatbots = feeds.map((feed) => feed.chatbot);
  const sim = await startWireSim(latencyMs, chatbots);
  const prefix = newPrefix('fair');
  const env = cliEnv(sim.info, REDIS_URL, prefix, 'info');
  let worker: Spawned | undefined;
  try {
    for (const feed of feeds) {
      const feedPath = join(dir, `${feed.chatbot}.json`);
      await writeWireFiles({ feedPath }, feed.count, feed.chatbot, feed.from);
      const run = await runCli(['sync', '--chatbot', feed.chatbot, '--feed', feedPath, '--json'], { ...env, LOG_LEVEL: 'warn' });
      if (run.code !== 0) throw new Error(`sync ${feed.chatbot} exited ${run.code}:\n${run.stderr}`);
    }
    worker = spawnCli(['worker', '--concurrency', String(concurrency)], env);
    await worker.started();
    await waitUntil(async () => (await sim.listings()) >= total, 'the queued runs did not finish in 10 minutes', 600_000, 200);
    const report = await sim.report();
    return { ...report, order: await sim.order(), complete: feeds.every((feed) => report.byChatbot[feed.chatbot] === feed.count) };
  } finally {
    await worker?.stop();
    await sim.close();
    await cleanPrefix(admin, prefix);
    await rm(dir, { recursive: true, force: true });
  }
}

async function round(index: number) {
  const load = loadavg()[0] ?? 0;
  const bodiesPath = join(tmpdir(), `${newPrefix('fairness')}-bodies.ndjson`);
  await writeWireFiles({ bodiesPath }, total, MIGRATION);
  const scenario = { creates: total, concurrency, latencyMs, feedPath: '', bodiesPath };
  const bare = await runBareLoop(scenario, MIGRATION).finally(() => rm(bodiesPath));
  const alone = await queuedThenWorked([{ chatbot: MIGRATION, from: 0, count: total }]);
  const others = Array.from({ length: options.others }, (_, k) => otherFeed(k));
  const shared = await queuedThenWorked([{ chatbot: MIGRATION, from: 0, count: options.migration }, ...others]);
  const lastOther = shared.order.findLastIndex((chatbot) => chatbot !== MIGRATION);
  const r = {
    index,
    load,
    bare: bare.perSecond,
    alone: alone.phase.perSecond,
    shared: shared.phase.perSecond,
    migrationBeforeOthersDone: shared.order.slice(0, lastOther + 1).filter((chatbot) => chatbot === MIGRATION).length,
    ok: alone.complete && shared.complete && alone.duplicateCreates + shared.duplicateCreates === 0,
    maxInFlight: Math.max(alone.maxInFlight, shared.maxInFlight),
  };
  process.stderr.write(`round ${index}: bare ${fixed(r.bare, 0)}, alone ${fixed(r.alone, 0)}, shared ${fixed(r.shared, 0)}/s\n`);
  return r;
}

const at = head('bench:fairness', argv);
const rounds: Array<Awaited<ReturnType<typeof round>>> = [];
try {
  for (let i = 1; i <= options.rounds; i += 1) rounds.push(await round(i));
} finally {
  await admin.quit();
}
const done = rounds.map((r) => r.migrationBeforeOthersDone / options.migration);
await publish('bench:fairness', at, options.write, [
  `Scenario: ${total} creates, ${concurrency} in flight, the simulator as its own process (bench/wire-sim.ts, ` +
    `${latencyMs} ms latency), a fresh simulator and Redis prefix per measurement. Each round: the bare keep-alive loop ` +
    `(the same ${total} creates); "alone": one chatbot's ${total} creates queued by \`listing-sync sync\`, then one ` +
    `\`listing-sync worker --concurrency ${concurrency}\`; "shared": a ${options.migration}-listing migration queued first, ` +
    `then ${options.others} syncs of ${options.otherListings} listings of other chatbots, then the same worker. "Others done" = the ` +
    `migration's creates answered before the last create of the others, ÷ ${options.migration}. Verdicts on the median; range min–max.`,
  medianTargets([
    ['shared writes/s ÷ alone writes/s (fairness costs no throughput) ≥ 0.95', rounds.map((r) => r.shared / r.alone), (m) => m >= 0.95],
    ['shared writes/s ÷ bare loop', rounds.map((r) => r.shared / r.bare)],
    ['alone writes/s ÷ bare loop', rounds.map((r) => r.alone / r.bare)],
    // Why the worst round, not the median: a chatbot left behind in any round is the defect.
    ["others done within the migration's first 25% of writes (worst round)", done, () => Math.max(...done) <= 0.25],
    ['every listing present, 0 duplicate creates', [rounds.every((r) => r.ok) ? 1 : 0], (m) => m === 1, 0],
  ]),
  { heading: 'Rounds' },
  table(rounds, [
    ['round', (r) => r.index, 'r'],
    ['load 1 min', (r) => fixed(r.load)],
    ['bare writes/s', (r) => fixed(r.bare, 0)],
    ['alone writes/s', (r) => fixed(r.alone, 0)],
    ['÷ bare', (r) => fixed(r.alone / r.bare)],
    ['shared writes/s', (r) => fixed(r.shared, 0)],
    ['÷ bare', (r) => fixed(r.shared / r.bare)],
    ['shared ÷ alone', (r) => fixed(r.shared / r.alone)],
    ['others done after (migration writes)', (r) => r.migrationBeforeOthersDone],
    ['max in flight', (r) => r.maxInFlight],
  ]),
]);
