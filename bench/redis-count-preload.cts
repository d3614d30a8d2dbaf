/**
 * Preloaded into a CLI process the bench starts (`node --require dist/bench/redis-count-preload.cjs
 * dist/src/cli/main.js …`): counts the Redis commands and round trips the process sends (every
 * ioredis client, BullMQ's included; redis-client-counter.cts) and writes them as JSON when a
 * thread exits: the main thread to the file named by BENCH_REDIS_COUNTS, each worker thread
 * (the enqueue thread) to that name plus `.thread-<id>`; cli-child.ts adds them up.
 */
import { writeFileSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';
import { clientCounts, installClientCounter } from './redis-client-counter.cjs';

// Why the env: a preload has no argv of its own, and this is a bench-only hook, not part of src/.
const target = process.env.BENCH_REDIS_COUNTS;
if (target !== undefined && target !== '') {
  installClientCounter();
  const file = isMainThread ? target : `${target}.thread-${threadId}`;
  process.once('exit', () => writeFileSync(file, JSON.stringify(clientCounts())));
}
