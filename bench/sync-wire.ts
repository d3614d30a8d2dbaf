// bench:sync's measurements, each against a fresh simulator process: the baselines, `sync --work` and `sync --dry-run`.
// Why the exports' signatures stay: sync-ab.ts imports this module from two builds.
import { fork } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliEnv, runCli, type CliRun } from './cli-child.js';
import { measuringRedis, newPrefix, runJson, type RedisServerWork } from './kit.js';
import { writeWireFiles } from './wire-feed.js';
import type { FromWireSim, ToWireSim } from './wire-sim.js';

export const WIRE_CHATBOT = 'bench-wire';
const HERE = fileURLToPath(new URL('.', import.meta.url));

/** A fresh simulator process holding `chatbots` (empty), answering after `latencyMs`. */
export async function startWireSim(latencyMs: number, chatbots: readonly string[]) {
  // Why a larger heap: in a 1,000,000-listing migration the simulator holds every listing and every call (with its body).
  const child = fork(join(HERE, 'wire-sim.js'), [String(latencyMs), chatbots.join(',')], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: ['--max-old-space-size=8192'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T extends FromWireSim['type']>(type: T): Promise<Extract<FromWireSim, { type: T }>> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: FromWireSim): void => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as Extract<FromWireSim, { type: T }>);
      };
      child.on('message', onMessage);
      void exited.then(() => reject(new Error(`the simulator process exited (${child.exitCode})`)));
    });
  const ask = <T extends FromWireSim['type'] & ToWireSim['type']>(type: T): Promise<Extract<FromWireSim, { type: T }>> => {
    const answer = next(type);
    child.send({ type });
    return answer;
  };
  const { sim } = await next('ready');
  return {
    info: sim,
    /** Starts sampling the requests in flight (avgInFlight). */
    sample: () => void child.send({ type: 'sample' }),
    listings: async () => (await ask('listings')).listings,
    report: async () => (await ask('report')).report,
    order: async () => (await ask('order')).order,
    close: async () => {
      if (child.exitCode === null && child.connected) child.send({ type: 'close' });
      await exited;
    },
  };
}

export type WireSim = Awaited<ReturnType<typeof startWireSim>>;

export interface WireScenario {
  creates: number;
  concurrency: number;
  latencyMs: number;
  feedPath: string;
  /** The baselines' request bodies (NDJSON), if prepared. */
  bodiesPath?: string;
}

/** Writes the feed (native JSON) of `creates` new listings and, unless `bodies` is false, the baselines' request bodies. */
export async function prepareWireScenario(
  creates: number,
  concurrency: number,
  latencyMs: number,
  { bodies = true } = {},
): Promise<WireScenario> {
  const tag = newPrefix('wire');
  const feedPath = join(tmpdir(), `${tag}.json`);
  const paths = { feedPath, ...(bodies ? { bodiesPath: join(tmpdir(), `${tag}-bodies.ndjson`) } : {}) };
  await writeWireFiles(paths, creates, WIRE_CHATBOT);
  return { creates, concurrency, latencyMs, ...paths };
}

export async function removeWireScenario(scenario: WireScenario): Promise<void> {
  for (const path of [scenario.feedPath, scenario.bodiesPath]) if (path !== undefined) await rm(path, { force: true });
}

/** perSecond, seconds, bySecond: the writes phase's; wallSeconds: the loop's own, first request → last answer. */
export interface BareResult {
  perSecond: number;
  seconds: number;
  bySecond: number[];
  wallSeconds: number;
  failures: number;
  maxInFlight: number;
  /** Average requests in flight (sampled every 5 ms) ÷ concurrency. */
  slotsBusy: number;
  cpuSeconds: number;
}

export interface FloorResult {
  cpuSeconds: number;
  seconds: number;
  failures: number;
  listings: number;
  duplicateCreates: number;
}

/** Runs baseline `script` as its own process against a fresh simulator process (`chatbot` in it). */
async function runBaseline(script: string, scenario: WireScenario, extraArgs: readonly string[] = [], chatbot = WIRE_CHATBOT) {
  if (scenario.bodiesPath === undefined) throw new Error("this scenario was prepared without the baselines' bodies");
  const sim = await startWireSim(scenario.latencyMs, [chatbot]);
  try {
    sim.sample();
    const args = [sim.info.baseUrl, sim.info.credentials.secretKey, scenario.bodiesPath, String(scenario.concurrency), ...extraArgs];
    const own = await runJson<{ failures: number; seconds: number; cpuSeconds: number }>(join(HERE, script), args);
    return { own, report: await sim.report() };
  } finally {
    await sim.close();
  }
}

/** The bare keep-alive loop as its own process; `chatbot`: whose listings the bodies are. */
export async function runBareLoop(scenario: WireScenario, chatbot = WIRE_CHATBOT): Promise<BareResult> {
  const { own, report } = await runBaseline('bare-loop.js', scenario, [], chatbot);
  const { phase, maxInFlight, avgInFlight } = report;
  const { seconds: wallSeconds, failures, cpuSeconds } = own;
  return { ...phase, wallSeconds, failures, maxInFlight, slotsBusy: avgInFlight / scenario.concurrency, cpuSeconds };
}

/** The BullMQ floor as its own process, under `prefix` in Redis at `redisUrl`. */
export async function runBullmqFloor(scenario: WireScenario, redisUrl: string, prefix: string): Promise<FloorResult> {
  const { own, report } = await runBaseline('bullmq-floor.js', scenario, [redisUrl, prefix]);
  return { ...own, listings: report.listings, duplicateCreates: report.duplicateCreates };
}

export interface CliWorkResult {
  cli: CliRun;
  writesPerSecond: number;
  writesSeconds: number;
  writesBySecond: number[];
  /** Spawn → first write answered, and last write answered → exit. */
  leadSeconds: number;
  tailSeconds: number;
  writes: number;
  calls: number;
  minimalCalls: number;
  maxInFlight: number;
  slotsBusy: number;
  listings: number;
  duplicateCreates: number;
  /** As the CLI printed them (--json). */
  created: number;
  failed: number;
  jobs: number;
  /** Server side, Lua's commands included. */
  redisServer: RedisServerWork;
}

const syncArgs = (scenario: WireScenario, ...extra: string[]): string[] =>
  ['sync', '--chatbot', WIRE_CHATBOT, '--feed', scenario.feedPath].concat(extra, '--json');

/** `sync --dry-run` of the scenario's feed: start-up, feed, snapshot, plan and guard; the part of `sync --work`'s CPU before the queue. */
export async function runCliPlanOnly(scenario: WireScenario, redisUrl: string, prefix: string): Promise<CliRun> {
  const sim = await startWireSim(scenario.latencyMs, [WIRE_CHATBOT]);
  try {
    const run = await runCli(syncArgs(scenario, '--dry-run'), cliEnv(sim.info, redisUrl, prefix));
    if (run.code !== 0) throw new Error(`sync --dry-run exited ${run.code}:\n${run.stderr.slice(-2000)}`);
    return run;
  } finally {
    await sim.close();
  }
}

/** `sync --work` of the scenario's feed, start to exit. `sample`: sample the requests in flight (off for the big migrations). */
export async function runCliWork(
  scenario: WireScenario,
  redisUrl: string,
  prefix: string,
  extraEnv: NodeJS.ProcessEnv = {},
  { sample = true } = {},
): Promise<CliWorkResult> {
  const sim = await startWireSim(scenario.latencyMs, [WIRE_CHATBOT]);
  try {
    if (sample) sim.sample();
    const args = syncArgs(scenario, '--work', '--concurrency', String(scenario.concurrency));
    const env = { ...cliEnv(sim.info, redisUrl, prefix), ...extraEnv };
    const { result: cli, work: redisServer } = await measuringRedis(redisUrl, () => runCli(args, env));
    if (cli.code !== 0) throw new Error(`sync --work exited ${cli.code}:\n${cli.stderr.slice(-2000)}`);
    const printed = JSON.parse(cli.stdout) as { jobs?: number; result?: { created?: number; failed?: number } };
    const { phase, callCounts, maxInFlight, avgInFlight, listings, duplicateCreates } = await sim.report();
    return {
      cli,
      writesPerSecond: phase.perSecond,
      writesSeconds: phase.seconds,
      writesBySecond: phase.bySecond,
      leadSeconds: (phase.firstAt - cli.spawnedAt) / 1000,
      tailSeconds: (cli.exitedAt - phase.lastAt) / 1000,
      writes: phase.writes,
      calls: Object.values(callCounts).reduce((a, b) => a + b, 0),
      // One list page of the empty chatbot, one create per listing.
      minimalCalls: 1 + scenario.creates,
      maxInFlight,
      slotsBusy: avgInFlight / scenario.concurrency,
      listings,
      duplicateCreates,
      created: printed.result?.created ?? -1,
      failed: printed.result?.failed ?? -1,
      jobs: printed.jobs ?? -1,
      redisServer,
    };
  } finally {
    await sim.close();
  }
}
