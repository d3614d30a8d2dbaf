/**
 * Preloaded into a CLI process the bench starts (`node --require dist/bench/redis-count-preload.cjs
 * dist/cli/listing-sync.cjs …`): counts the Redis commands and round trips the process sends to
 * the Redis of its REDIS_URL (every connection, BullMQ's included; redis-socket-counter.cts) and
 * writes them as JSON when a thread exits: the main thread to the file named by
 * BENCH_REDIS_COUNTS, each worker thread (the enqueue thread) to that name plus `.thread-<id>`;
 * cli-child.ts adds them up. The main thread's file also holds the whole process's CPU time.
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
