/**
 * Preloaded (`--require`) into a CLI the bench starts: counts the Redis commands and round trips every connection
 * sends (redis-socket-counter.cts), written at each thread's exit to BENCH_REDIS_COUNTS (`.thread-<id>` for workers).
 */
import { writeFileSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';
import { installSocketCounter, socketCounts } from './redis-socket-counter.cjs';

// Why the env: a preload has no argv of its own, and this is a bench-only hook, not part of src/.
const target = process.env.BENCH_REDIS_COUNTS;
if (target !== undefined && target !== '') {
  installSocketCounter(Number(new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').port || 6379));
  const file = isMainThread ? target : `${target}.thread-${threadId}`;
  // The main thread also writes the process's CPU (user + system of every thread: getrusage).
  process.once('exit', () => {
    const cpu = process.cpuUsage();
    writeFileSync(file, JSON.stringify(isMainThread ? { ...socketCounts(), cpuMicros: cpu.user + cpu.system } : socketCounts()));
  });
}
