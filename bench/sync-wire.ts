/**
 * The measurements of bench:sync, each against a fresh in-process simulator (the service, 20 ms
 * latency) with the clients as their own processes:
 * - the bare keep-alive loop (bare-loop.ts): the scenario's creates, `concurrency` in flight;
 * - the built CLI `sync --work` (start to exit), enqueueing and working in one process;
 * - the writes phase of both, timed the same way by the simulator: first create answered → last
 *   create answered, so the ratio compares like with like.
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ListingWrite } from '../src/domain/listing.js';
import { sampleListing } from '../src/sim/sample-listings.js';
import { startSimulator, type RunningSimulator } from '../src/sim/server.js';
import { Redis } from 'ioredis';
import { runCli, type CliRun } from './cli-child.js';
import { connectedClients, serverCommandCounts } from './sync-redis-stats.js';
import { writeFeedFile } from './sync-scenario.js';

export const WIRE_CHATBOT = 'bench-wire';

export interface WireScenario {
  creates: number;
  concurrency: number;
  latencyMs: number;
  feedPath: string;
  bodiesPath: string;
}

/** Writes the feed (native JSON) and the bare loop's request bodies for `creates` new listings. */
export async function prepareWireScenario(creates: number, concurrency: number, latencyMs: number): Promise<WireScenario> {
  const tag = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const feed: ListingWrite[] = Array.from({ length: creates }, (_, i) => sampleListing(i, { SerialNumber: WIRE_CHATBOT }));
  const feedPath = join(tmpdir(), `bench-wire-${tag}.json`);
  const bodiesPath = join(tmpdir(), `bench-wire-${tag}-bodies.json`);
  await writeFeedFile(feedPath, feed);
  await writeFile(bodiesPath, JSON.stringify(feed));
  return { creates, concurrency, latencyMs, feedPath, bodiesPath };
}

export async function removeWireScenario(scenario: WireScenario): Promise<void> {
  await rm(scenario.feedPath, { force: true });
  await rm(scenario.bodiesPath, { force: true });
}

/** A fresh simulator holding the (empty) bench chatbot. */
export async function wireSimulator(latencyMs: number): Promise<RunningSimulator> {
  return await startSimulator({ port: 0, host: '127.0.0.1', chatbots: [WIRE_CHATBOT], faults: { latencyMs } });
}

/** The writes phase as the simulator saw it. */
export interface WritesPhase {
  writes: number;
  seconds: number;
  perSecond: number;
  /**
   * Writes answered in each whole second of the phase, from the first write (the last, partial
   * second left out): whether a gap to the bare loop is a slow start or the steady pace.
   */
  bySecond: number[];
  /** Date.now() of the first and the last write answered (0 when none). */
  firstAt: number;
  lastAt: number;
}

/** Creates per second between the first and the last create the simulator answered. */
export function writesPhase(sim: RunningSimulator): WritesPhase {
  const times = sim.state
    .calls()
    .filter((call) => call.endpoint === 'createListing' || call.endpoint === 'updateListing' || call.endpoint === 'deleteListings')
    .map((call) => call.at);
  if (times.length < 2)
    return { writes: times.length, seconds: 0, perSecond: 0, bySecond: [], firstAt: times[0] ?? 0, lastAt: times[0] ?? 0 };
  const first = Math.min(...times);
  const last = Math.max(...times);
  const seconds = (last - first) / 1000;
  const bySecond = Array.from({ length: Math.floor(seconds) }, () => 0);
  for (const at of times) {
    const second = Math.floor((at - first) / 1000);
    if (second < bySecond.length) bySecond[second] = (bySecond[second] ?? 0) + 1;
  }
  // Why writes − 1: n answers span n − 1 intervals; the same on both sides of the ratio.
  return { writes: times.length, seconds, perSecond: (times.length - 1) / seconds, bySecond, firstAt: first, lastAt: last };
}

/**
 * Samples the simulator's requests in flight every 5 ms; `stop` averages the samples taken in
 * the writes phase (after the first write was answered, before the last).
 */
function sampleWrites(sim: RunningSimulator): { stop(): number } {
  const samples: Array<[writes: number, inFlight: number]> = [];
  const timer = setInterval(() => samples.push([sim.state.writeCalls(), sim.state.inFlight()]), 5);
  return {
    stop() {
      clearInterval(timer);
      const total = sim.state.writeCalls();
      const phase = samples.filter(([writes]) => writes > 0 && writes < total);
      return phase.length === 0 ? 0 : phase.reduce((sum, [, inFlight]) => sum + inFlight, 0) / phase.length;
    },
  };
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

const BARE_LOOP = join(fileURLToPath(new URL('.', import.meta.url)), 'bare-loop.js');

/** The bare keep-alive loop as its own process against a fresh simulator. */
export async function runBareLoop(scenario: WireScenario): Promise<BareResult> {
  const sim = await wireSimulator(scenario.latencyMs);
  try {
    const child = spawn(
      process.execPath,
      [BARE_LOOP, sim.baseUrl, sim.credentials.secretKey, scenario.bodiesPath, String(scenario.concurrency)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const sampler = sampleWrites(sim);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const slotsBusy = sampler.stop() / scenario.concurrency;
    if (code !== 0) throw new Error(`bare loop exited ${code}`);
    const own = JSON.parse(out) as { failures: number; seconds: number; cpuSeconds: number };
    const phase = writesPhase(sim);
    return {
      perSecond: phase.perSecond,
      seconds: phase.seconds,
      bySecond: phase.bySecond,
      wallSeconds: own.seconds,
      failures: own.failures,
      maxInFlight: sim.state.maxInFlight(),
      slotsBusy,
      cpuSeconds: own.cpuSeconds,
    };
  } finally {
    await sim.close();
  }
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

/** The env that points the CLI at `sim` and Redis under `prefix`. */
export function cliEnv(sim: RunningSimulator, redisUrl: string, prefix: string): NodeJS.ProcessEnv {
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

/** `listing-sync sync --work` of the scenario's feed, start to exit, against a fresh simulator. */
export async function runCliWork(
  scenario: WireScenario,
  redisUrl: string,
  prefix: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<CliWorkResult> {
  const sim = await wireSimulator(scenario.latencyMs);
  try {
    const args = [
      'sync',
      '--chatbot',
      WIRE_CHATBOT,
      '--feed',
      scenario.feedPath,
      '--work',
      '--concurrency',
      String(scenario.concurrency),
      '--json',
    ];
    const sampler = sampleWrites(sim);
    const { result: cli, work: redisServer } = await measuringRedis(redisUrl, () =>
      runCli(args, { ...cliEnv(sim, redisUrl, prefix), ...extraEnv }),
    );
    const slotsBusy = sampler.stop() / scenario.concurrency;
    if (cli.code !== 0) throw new Error(`sync --work exited ${cli.code}:\n${cli.stderr.slice(-2000)}`);
    const printed = JSON.parse(cli.stdout) as PrintedSummary;
    const phase = writesPhase(sim);
    const counts = sim.state.callCounts();
    const calls = Object.values(counts).reduce((a, b) => a + b, 0);
    return {
      cli,
      writesPerSecond: phase.perSecond,
      writesSeconds: phase.seconds,
      writesBySecond: phase.bySecond,
      leadSeconds: (phase.firstAt - cli.spawnedAt) / 1000,
      tailSeconds: (cli.exitedAt - phase.lastAt) / 1000,
      writes: phase.writes,
      calls,
      // One list page of the empty chatbot, one create per listing.
      minimalCalls: 1 + scenario.creates,
      maxInFlight: sim.state.maxInFlight(),
      slotsBusy,
      listings: sim.state.listings(WIRE_CHATBOT).length,
      duplicateCreates: sim.state.duplicateCreates(WIRE_CHATBOT).length,
      created: printed.result?.created ?? -1,
      failed: printed.result?.failed ?? -1,
      jobs: printed.jobs ?? -1,
      redisServer,
    };
  } finally {
    await sim.close();
  }
}
