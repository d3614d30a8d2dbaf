/**
 * Runs the built CLI as a child process the way a user does, for bench:sync: wall time from
 * spawn to exit, its peak RSS (VmHWM polled from /proc, the last read before exit), and the
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
import type { ClientCounts } from './sync-redis-stats.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = packageRoot(HERE);

/** The CLI entry named by package.json `bin.listing-sync` (the built file). */
export const CLI_BIN = join(
  ROOT,
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['listing-sync'] ?? '',
);
const PRELOAD = join(HERE, 'redis-count-preload.cjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Spawn → exit. */
  seconds: number;
  /** Date.now() at spawn and at exit: to line the run up with the simulator's call times. */
  spawnedAt: number;
  exitedAt: number;
  /** Peak resident set (VmHWM), MiB; 0 when /proc could not be read. */
  peakRssMiB: number;
  redis: ClientCounts;
  /** CPU of the whole process, every thread, user + system (0 when it died before its exit hook). */
  cpuSeconds: number;
}

/** VmHWM of a live process in MiB, or undefined once it is gone. */
async function peakRss(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface Spawned {
  child: ChildProcess;
  output(): string;
}

/** Starts the CLI with `args` and `env` (stdout/stderr collected). */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv, preload = false): Spawned {
  const child = spawn(process.execPath, [...(preload ? ['--require', PRELOAD] : []), CLI_BIN, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

/**
 * The counts the CLI's threads wrote at exit (`file` from the main thread, `file.thread-N` from
 * each worker thread), added up; the files are removed. None: the process died before its exit
 * hook (reported through the exit code).
 */
function takeCounts(file: string): { redis: ClientCounts; cpuSeconds: number } {
  const total: ClientCounts = { commands: 0, roundTrips: 0 };
  let cpuSeconds = 0;
  const dir = dirname(file);
  for (const name of readdirSync(dir).filter((entry) => entry.startsWith(basename(file)))) {
    const path = join(dir, name);
    try {
      const counts = JSON.parse(readFileSync(path, 'utf8')) as ClientCounts & { cpuMicros?: number };
      total.commands += counts.commands;
      total.roundTrips += counts.roundTrips;
      cpuSeconds += (counts.cpuMicros ?? 0) / 1e6;
    } catch {
      // A file cut short by a dying thread: its counts are lost, the others still add up.
    }
    rmSync(path, { force: true });
  }
  return { redis: total, cpuSeconds };
}

/** Runs the CLI to its end, timing it and polling its peak RSS every 20 ms. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const countsFile = join(tmpdir(), `bench-redis-counts-${process.pid}-${Date.now()}.json`);
  const started = performance.now();
  const spawnedAt = Date.now();
  // e.g. BENCH_CLI_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' profiles the CLI process.
  const nodeArgs = (process.env.BENCH_CLI_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...nodeArgs, '--require', PRELOAD, CLI_BIN, ...args], {
    env: { ...env, BENCH_REDIS_COUNTS: countsFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let peak = 0;
  const poll = setInterval(() => {
    if (child.pid !== undefined) void peakRss(child.pid).then((mib) => (peak = Math.max(peak, mib ?? 0)));
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  const seconds = (performance.now() - started) / 1000;
  const exitedAt = Date.now();
  clearInterval(poll);
  return { code, stdout, stderr, seconds, spawnedAt, exitedAt, peakRssMiB: peak, ...takeCounts(countsFile) };
}
