/**
 * Runs the built CLI as a child process the way a user does: wall time from spawn to exit, its
 * peak RSS (VmHWM polled from /proc, the last read before exit), its CPU (every thread) and the
 * Redis commands and round trips it sent, every thread's (redis-count-preload.cts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { packageRoot } from './benchmarks-md.js';
import { waitUntil } from './kit.js';
import type { ClientCounts } from './redis-socket-counter.cjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = packageRoot(HERE);

/** The CLI entry named by package.json `bin.listing-sync` (the built file). */
const CLI_BIN = join(
  ROOT,
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['listing-sync'] ?? '',
);
const PRELOAD = join(HERE, 'redis-count-preload.cjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Spawn → exit, and Date.now() at both (to line the run up with the simulator's call times). */
  seconds: number;
  spawnedAt: number;
  exitedAt: number;
  /** Peak resident set (VmHWM), MiB; 0 when /proc could not be read. */
  peakRssMiB: number;
  redis: ClientCounts;
  /** CPU of the whole process, every thread, user + system (0 when it died before its exit hook). */
  cpuSeconds: number;
}

/** Where a simulator (src/sim or bench/wire-sim.ts) answers, and with which keys. */
export interface SimAddress {
  baseUrl: string;
  siteUrl: string;
  credentials: { secretKey: string; sessionKey: string; projectAuthToken: string };
}

/** The env that points the CLI at `sim` and at Redis under `prefix`. */
export function cliEnv(sim: SimAddress, redisUrl: string, prefix: string, logLevel = 'warn'): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    API_BASE_URL: sim.baseUrl,
    SITE_URL: sim.siteUrl,
    API_SECRET_KEY: sim.credentials.secretKey,
    API_SESSION_KEY: sim.credentials.sessionKey,
    PROJECT_AUTH_TOKEN: sim.credentials.projectAuthToken,
    REDIS_URL: redisUrl,
    LISTING_SYNC_PREFIX: prefix,
    LOG_LEVEL: logLevel,
  };
}

export interface Spawned {
  child: ChildProcess;
  /** What it printed so far: stdout, stderr, and both as they came. */
  stdout(): string;
  stderr(): string;
  output(): string;
  /** Waits until it printed `workers started` (a `listing-sync worker`). */
  started(): Promise<void>;
  /** SIGTERM, and waits until it is gone. */
  stop(): Promise<void>;
}

/** Starts the CLI with `args` and `env`. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []): Spawned {
  const child = spawn(process.execPath, [...nodeArgs, CLI_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = { stdout: '', stderr: '', both: '' };
  for (const stream of ['stdout', 'stderr'] as const)
    child[stream].on('data', (chunk: Buffer) => {
      text[stream] += chunk.toString();
      text.both += chunk.toString();
    });
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const exitedEarly = (): boolean => {
    if (child.exitCode !== null) throw new Error(`worker exited ${child.exitCode}:\n${text.both}`);
    return text.both.includes('workers started');
  };
  return {
    child,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    output: () => text.both,
    started: () => waitUntil(exitedEarly, 'the worker did not start in a minute', 60_000, 50),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await gone;
    },
  };
}

/** VmHWM of a live process in MiB, or undefined once it is gone. */
async function peakRss(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : undefined;
}

/**
 * The counts the CLI's threads wrote at exit (`file` from the main thread, with the process's
 * CPU; `file.thread-N` from each worker thread), added up; the files are removed.
 */
function takeCounts(file: string): { redis: ClientCounts; cpuSeconds: number } {
  const redis: ClientCounts = { commands: 0, roundTrips: 0 };
  let cpuSeconds = 0;
  for (const name of readdirSync(dirname(file)).filter((entry) => entry.startsWith(basename(file)))) {
    const path = join(dirname(file), name);
    try {
      const counts = JSON.parse(readFileSync(path, 'utf8')) as ClientCounts & { cpuMicros?: number };
      redis.commands += counts.commands;
      redis.roundTrips += counts.roundTrips;
      cpuSeconds += (counts.cpuMicros ?? 0) / 1e6;
    } catch {
      // A file cut short by a dying thread: its counts are lost, the others still add up.
    }
    rmSync(path, { force: true });
  }
  return { redis, cpuSeconds };
}

/** Runs the CLI to its end, timing it and polling its peak RSS every 20 ms. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const countsFile = join(tmpdir(), `bench-redis-counts-${process.pid}-${Date.now()}.json`);
  const started = performance.now();
  const spawnedAt = Date.now();
  const spawned = spawnCli(args, { ...env, BENCH_REDIS_COUNTS: countsFile }, ['--require', PRELOAD]);
  const { child } = spawned;
  let peak = 0;
  const poll = setInterval(() => {
    if (child.pid !== undefined) void peakRss(child.pid).then((mib) => (peak = Math.max(peak, mib ?? 0)));
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(poll);
  return {
    code,
    stdout: spawned.stdout(),
    stderr: spawned.stderr(),
    seconds,
    spawnedAt,
    exitedAt: Date.now(),
    peakRssMiB: peak,
    ...takeCounts(countsFile),
  };
}
