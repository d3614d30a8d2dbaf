/**
 * bench:sync's second baseline, its own process: the bare loop's creates as one BullMQ job each (addBulk by 1,000,
 * removed on completion), sent by a BullMQ Worker through one undici Pool; nothing else. Why: the CPU target compares
 * `sync --work` with the bare loop, which has no queue; this floor shows how much of that ratio BullMQ's per-job work is.
 * Usage: node dist/bench/bullmq-floor.js BASE_URL SECRET_KEY BODIES.ndjson CONCURRENCY REDIS_URL PREFIX (prints as bare-loop.ts)
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { ENDPOINTS } from '../src/api/endpoints.js';

const [baseUrl = '', secretKey = '', bodiesPath = '', concurrencyText = '16', redisUrl = '', prefix = ''] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const text = await readFile(bodiesPath, 'utf8');
const bodies = text
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as unknown);
const connect = (): Redis => new Redis(redisUrl, { maxRetriesPerRequest: null });
const [queueConnection, workerConnection] = [connect(), connect()];
const queue = new Queue<{ listing: unknown }>('floor', { connection: queueConnection, prefix });
const pool = new Pool(baseUrl, { connections: concurrency });
let failures = 0;
let finished = 0;
const started = performance.now();
let allFinished: () => void = () => undefined;
const done = new Promise<void>((resolve) => (allFinished = resolve));
const worker = new Worker<{ listing: unknown }>(
  'floor',
  async (job) => {
    const response = await pool.request({
      path: ENDPOINTS.createListing.path,
      method: 'POST',
      headers: { authorization: secretKey, 'content-type': 'application/json' },
      body: JSON.stringify(job.data.listing),
    });
    const envelope = (await response.body.json()) as { Success?: unknown };
    if (response.statusCode !== 200 || envelope.Success !== true) failures += 1;
  },
  { connection: workerConnection, prefix, concurrency },
);
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
const seconds = (performance.now() - started) / 1000;
await worker.close();
await queue.close();
await pool.close();
await Promise.all([queueConnection.quit(), workerConnection.quit()]);
const cpu = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ requests: bodies.length, failures, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
