/**
 * Preloaded into a CLI process the bench starts (`node --import dist/bench/redis-count-preload.js
 * dist/src/cli/main.js …`): counts the Redis commands and round trips the process sends (every
 * ioredis client, BullMQ's included; sync-redis-stats.ts) and writes them as JSON to the file
 * named by BENCH_REDIS_COUNTS when the process exits.
 */
import { writeFileSync } from 'node:fs';
import { clientCounts, installClientCounter } from './sync-redis-stats.js';

// Why the env: a preload has no argv of its own, and this is a bench-only hook, not part of src/.
const target = process.env.BENCH_REDIS_COUNTS;
if (target !== undefined && target !== '') {
  installClientCounter();
  process.once('exit', () => writeFileSync(target, JSON.stringify(clientCounts())));
}
