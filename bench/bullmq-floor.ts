/**
 * bench:sync's second baseline, its own process: the bare loop's creates as one BullMQ job each (addBulk by 1,000,
 * removed on completion), sent by a BullMQ Worker through one undici Pool; nothing else. Why: the CPU target compares
 * `sync --work` with the bare loop, which has no queue; this floor shows how much of that ratio BullMQ's per-job work is.
 * Usage: node dist/bench/bullmq-floor.js BASE_URL SECRET_KEY BODIES.ndjson CONCURRENCY REDIS_URL PREFIX (prints as create-client.ts)
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { bodies, concurrency, create, finish, restArgs } from './create-client.js';

const [redisUrl = '', prefix = ''] = restArgs;
const connect = (): Redis => new Redis(redisUrl, { maxRetriesPerRequest: null });
const [queueConnection, workerConnection] = [connect(), connect()];
const queue = new Queue<{ listing: unknown }>('floor', { connection: queueConnection, prefix });
let finished = 0;
let allFinished: () => void = () => undefined;
const done = new Promise<void>((resolve) => (allFinished = resolve));
const worker = new Worker<{ listing: unknown }>('floor', (job) => create(job.data.listing), {
  connection: workerConnection,
  prefix,
  concurrency,
});
worker.on('completed', () => (++finished === bodies.length ? allFinished() : undefined));
for (let from = 0; from < bodies.length; from += 1000)
  await queue.addBulk(
    bodies.slice(from, from + 1000).map((listing, i) => ({
      name: 'create',
      data: { listing },
      opts: { jobId: `line-${from + i + 1}`, removeOnComplete: true },
    })),
  );
await done;
await finish(async () => {
  await worker.close();
  await queue.close();
  await Promise.all([queueConnection.quit(), workerConnection.quit()]);
});
