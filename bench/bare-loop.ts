/**
 * The bare keep-alive loop, bench:sync's and bench:fairness's baseline, as its own process: the same creates,
 * CONCURRENCY in flight through one undici Pool, no queue, no Redis.
 * Usage: node dist/bench/bare-loop.js BASE_URL SECRET_KEY BODIES.ndjson CONCURRENCY (prints as create-client.ts)
 */
import { bodies, concurrency, create, finish } from './create-client.js';

let next = 0;
// Why one loop per slot, not p-limit: the barest client; a slot sends its next request once its last response is read.
const slot = async (): Promise<void> => {
  for (let body = bodies[next++]; body !== undefined; body = bodies[next++]) await create(body);
};
await Promise.all(Array.from({ length: concurrency }, () => slot()));
await finish();
