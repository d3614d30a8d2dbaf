/**
 * The measurements of bench:sync, each against a fresh simulator in a process of its own
 * (wire-sim.ts, 20 ms latency), with the clients as their own processes too:
 * - the bare keep-alive loop (bare-loop.ts): the scenario's creates, `concurrency` in flight;
 * - the built CLI `sync --work` (start to exit), enqueueing and working in one process;
 * - the writes phase of both, timed the same way by the simulator: first create answered → last
 *   create answered, so the ratio compares like with like.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { runCli, type CliRun } from './cli-child.js';
import { connectedClients, serverCommandCounts } from './sync-redis-stats.js';
import { writeWireFiles } from './wire-feed.js';
import { startWireSim, type WireSim } from './wire-sim-child.js';
import type { WireSimInfo } from './wire-sim.js';

export const WIRE_CHATBOT = 'bench-wire';

export interface WireScenario {
  creates: number;
  concurrency: number;
  latencyMs: number;
  feedPath: string;
  /** The bare loop's request bodies (NDJSON); absent when only the CLI runs the scenario. */
  bodiesPath?: string;
}

/**
 * Writes the feed (native JSON) for `creates` new listings and, unless `bodies` is false, the
 * bare loop's request bodies.
 */
export async function prepareWireScenario(
  creates: number,
  concurrency: number,
  latencyMs: number,
  { bodies = true }: { bodies?: boolean } = {},
): Promise<WireScenario> {
  const tag = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const feedPath = join(tmpdir(), `bench-wire-${tag}.json`);
  const bodiesPath = bodies ? join(tmpdir(), `bench-wire-${tag}-bodies.ndjson`) : undefined;
  await writeWireFiles({ feedPath, ...(bodiesPath === undefined ? {} : { bodiesPath }) }, creates, WIRE_CHATBOT);
  return { creates, concurrency, latencyMs, feedPath, ...(bodiesPath === undefined ? {} : { bodiesPath }) };
}

export async function removeWireScenario(scenario: WireScenario): Promise<void> {
  await rm(scenario.feedPath, { force: true });
  if (scenario.bodiesPath !== undefined) await rm(scenario.bodiesPath, { force: true });
}

/** A fresh simulator process holding the (empty) bench chatbot. */
export async function wireSimulator(latencyMs: number): Promise<WireSim> {
  return await startWireSim(latencyMs, WIRE_CHATBOT);
}

export interface BareResult {
  perSecond: number;
  /** First create answered → last (the writes phase). */
  seconds: number;
  /** WritesPhase.bySecond. */
  bySecond: number[];
  /** The loop's own time for all creates, first request sent → last answer read. */
  wallSeconds: number;
  failures: number;
  maxInFlight: number;
  /** Average requests in flight while the loop ran (sampled every 5 ms) ÷ concurrency. */
  slotsBusy: number;
  /** CPU of the loop's process, user + system. */
  cpuSeconds: number;
}

const HERE = fileURLToPath(new URL('.', import.meta.url));
const BARE_LOOP = join(HERE, 'bare-loop.js');
const BULLMQ_FLOOR = join(HERE, 'bullmq-floor.js');

/** What a baseline process (bare-loop.ts, bullmq-floor.ts) prints at its end. */
interface BaselineOwn {
  failures: number;
  seconds: number;
  cpuSeconds: number;
}

/**
 * Runs a baseline `script` as its own process against a fresh simulator process, with the
 * simulator's address, the secret, the scenario's bodies and concurrency, then `extraArgs`.
 */
async function runBaseline(
  script: string,
  scenario: WireScenario,
  extraArgs: readonly string[] = [],
): Promise<{ own: BaselineOwn; report: Awaited<ReturnType<WireSim['report']>> }> {
  if (scenario.bodiesPath === undefined) throw new Error("this scenario was prepared without the baselines' bodies");
  const sim = await wireSimulator(scenario.latencyMs);
  try {
    sim.sample();
    const child = spawn(
      process.execPath,
      [script, sim.info.baseUrl, sim.info.credentials.secretKey, scenario.bodiesPath, String(scenario.concurrency), ...extraArgs],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`${script} exited ${code}`);
    return { own: JSON.parse(out) as BaselineOwn, report: await sim.report() };
  } finally {
    await sim.close();
  }
}

/** The bare keep-alive loop as its own process against a fresh simulator process. */
export async function runBareLoop(scenario: WireScenario): Promise<BareResult> {
  const { own, report } = await runBaseline(BARE_LOOP, scenario);
  const { phase, maxInFlight, avgInFlight } = report;
  return {
    perSecond: phase.perSecond,
    seconds: phase.seconds,
    bySecond: phase.bySecond,
    wallSeconds: own.seconds,
    failures: own.failures,
    maxInFlight,
    slotsBusy: avgInFlight / scenario.concurrency,
    cpuSeconds: own.cpuSeconds,
  };
}

/** The BullMQ floor (bullmq-floor.ts): the same creates as one BullMQ job each, nothing else. */
export interface FloorResult {
  /** CPU of the floor's process, user + system, start-up included. */
  cpuSeconds: number;
  /** Its own time from the first enqueue to the last job completed. */
  seconds: number;
  failures: number;
  /** Listings the simulator holds after it, and creates it saw twice (both checks that it did the work). */
  listings: number;
  duplicateCreates: number;
}

/** The BullMQ floor as its own process, under `prefix` in Redis at `redisUrl`, against a fresh simulator process. */
export async function runBullmqFloor(scenario: WireScenario, redisUrl: string, prefix: string): Promise<FloorResult> {
  const { own, report } = await runBaseline(BULLMQ_FLOOR, scenario, [redisUrl, prefix]);
  return {
    cpuSeconds: own.cpuSeconds,
    seconds: own.seconds,
    failures: own.failures,
    listings: report.listings,
    duplicateCreates: report.duplicateCreates,
  };
}

export interface CliWorkResult {
  cli: CliRun;
  writesPerSecond: number;
  writesSeconds: number;
  /** WritesPhase.bySecond. */
  writesBySecond: number[];
  /** Spawn → first write answered: start-up, feed, snapshot, plan, guard and first enqueue. */
  leadSeconds: number;
  /** Last write answered → exit: the run's end noticed, the summary printed, connections closed. */
  tailSeconds: number;
  writes: number;
  calls: number;
  minimalCalls: number;
  maxInFlight: number;
  /** Average requests in flight from the first create to the last (sampled every 5 ms) ÷ concurrency. */
  slotsBusy: number;
  listings: number;
  duplicateCreates: number;
  /** The run's counts as the CLI printed them (--json). */
  created: number;
  failed: number;
  jobs: number;
  /** What Redis executed while the CLI ran, server side (INFO): Lua's commands included. */
  redisServer: RedisServerWork;
}

/**
 * Redis's own work over a span, from INFO before and after: every command it executed (those a
 * Lua script runs included) and its CPU (user + system, all its threads). Server-wide, so other
 * clients of the same Redis add to it: `otherClients` says how many were connected.
 */
export interface RedisServerWork {
  commands: number;
  cpuSeconds: number;
  otherClients: number;
}

async function redisCpuSeconds(redis: Redis): Promise<number> {
  const text = await redis.info('cpu');
  const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0);
  return field('used_cpu_sys') + field('used_cpu_user');
}

/** Runs `span` and returns what Redis did meanwhile. */
async function measuringRedis<T>(redisUrl: string, span: () => Promise<T>): Promise<{ result: T; work: RedisServerWork }> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const otherClients = (await connectedClients(redis)) - 1;
    const [commandsBefore, cpuBefore] = [await serverCommandCounts(redis), await redisCpuSeconds(redis)];
    const result = await span();
    const [commandsAfter, cpuAfter] = [await serverCommandCounts(redis), await redisCpuSeconds(redis)];
    // Why minus 2 INFO calls and a CLIENT LIST: this measurement's own commands.
    return { result, work: { commands: commandsAfter.total - commandsBefore.total - 2, cpuSeconds: cpuAfter - cpuBefore, otherClients } };
  } finally {
    redis.disconnect();
  }
}

/** The env that points the CLI at `sim` (a simulator process, or one in this process) and Redis under `prefix`. */
export function cliEnv(sim: WireSimInfo, redisUrl: string, prefix: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    API_BASE_URL: sim.baseUrl,
    SITE_URL: sim.siteUrl,
    API_SECRET_KEY: sim.credentials.secretKey,
    API_SESSION_KEY: sim.credentials.sessionKey,
    PROJECT_AUTH_TOKEN: sim.credentials.projectAuthToken,
    REDIS_URL: redisUrl,
    LISTING_SYNC_PREFIX: prefix,
    LOG_LEVEL: 'warn',
  };
}

interface PrintedSummary {
  jobs?: number;
  result?: { created?: number; failed?: number };
}

/** `listing-sync sync` of the scenario's feed into the bench chatbot, with `extra` flags, `--json`. */
function syncArgs(scenario: WireScenario, ...extra: string[]): string[] {
  return ['sync', '--chatbot', WIRE_CHATBOT, '--feed', scenario.feedPath, ...extra, '--json'];
}

/**
 * `listing-sync sync --dry-run` of the scenario's feed against a fresh simulator process: the
 * command's start-up, feed, snapshot, plan and guard, without enqueueing or working. Its CPU is
 * the part of `sync --work`'s that comes before the queue.
 */
export async function runCliPlanOnly(scenario: WireScenario, redisUrl: string, prefix: string): Promise<CliRun> {
  const sim = await wireSimulator(scenario.latencyMs);
  try {
    const run = await runCli(syncArgs(scenario, '--dry-run'), cliEnv(sim.info, redisUrl, prefix));
    if (run.code !== 0) throw new Error(`sync --dry-run exited ${run.code}:\n${run.stderr.slice(-2000)}`);
    return run;
  } finally {
    await sim.close();
  }
}

/**
 * `listing-sync sync --work` of the scenario's feed, start to exit, against a fresh simulator
 * process. `sample`: sample the requests in flight (slots busy); off for the big migrations.
 */
export async function runCliWork(
  scenario: WireScenario,
  redisUrl: string,
  prefix: string,
  extraEnv: NodeJS.ProcessEnv = {},
  { sample = true }: { sample?: boolean } = {},
): Promise<CliWorkResult> {
  const sim = await wireSimulator(scenario.latencyMs);
  try {
    const args = syncArgs(scenario, '--work', '--concurrency', String(scenario.concurrency));
    if (sample) sim.sample();
    const { result: cli, work: redisServer } = await measuringRedis(redisUrl, () =>
      runCli(args, { ...cliEnv(sim.info, redisUrl, prefix), ...extraEnv }),
    );
    if (cli.code !== 0) throw new Error(`sync --work exited ${cli.code}:\n${cli.stderr.slice(-2000)}`);
    const printed = JSON.parse(cli.stdout) as PrintedSummary;
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
