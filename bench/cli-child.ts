/** Runs the built CLI as a user does, measuring spawn → exit, peak RSS (VmHWM), CPU and Redis traffic of every thread. */
import { spawn } from 'node:child_process';
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
const { bin } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const CLI_BIN = join(ROOT, bin['listing-sync'] ?? '');
const PRELOAD = join(HERE, 'redis-count-preload.cjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Spawn → exit, and Date.now() at both. */
  seconds: number;
  spawnedAt: number;
  exitedAt: number;
  peakRssMiB: number;
  redis: ClientCounts;
  /** User + system, every thread (0 when it died before its exit hook). */
  cpuSeconds: number;
}

export interface SimAddress {
  baseUrl: string;
  siteUrl: string;
  credentials: { secretKey: string; sessionKey: string; projectAuthToken: string };
}

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

export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []) {
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
    /** Waits for a `listing-sync worker`'s `workers started`. */
    started: () => waitUntil(exitedEarly, 'the worker did not start in a minute', 60_000, 50),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await gone;
    },
  };
}

export type Spawned = ReturnType<typeof spawnCli>;

/** VmHWM of a live process in MiB, or undefined once it is gone. */
async function peakRss(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : undefined;
}

/** The counts each of the CLI's threads wrote at exit (`file`, `file.thread-N`), added up; the files are removed. */
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
  const output = { stdout: spawned.stdout(), stderr: spawned.stderr() };
  return { code, ...output, seconds, spawnedAt, exitedAt: Date.now(), peakRssMiB: peak, ...takeCounts(countsFile) };
}
