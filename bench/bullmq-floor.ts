/**
 * bench:sync's second baseline, run as its own process (as the CLI is): the least any tool pays
 * that keeps a BullMQ job per listing. The same create requests as the bare loop, each enqueued as
 * one BullMQ job (addBulk, chunks of 1,000, removed on completion) and sent by a BullMQ Worker at
 * CONCURRENCY through one undici Pool. No feed, plan, claims, ledger, retries, gates or metrics.
 * Why: the CPU target compares `sync --work` with the bare loop, which has no queue at all; this
 * floor shows how much of that ratio BullMQ's own per-job work already is, in the same round.
 *
 * Usage: node dist/bench/bullmq-floor.js BASE_URL SECRET_KEY BODIES.ndjson CONCURRENCY REDIS_URL PREFIX
 * Prints one JSON line: { requests, failures, seconds, cpuSeconds } (start-up included, as for the CLI).
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { ENDPOINTS } from '../src/api/endpoints.js';

const [baseUrl = '', secretKey = '', bodiesPath = '', concurrencyText = '16', redisUrl = '', prefix = ''] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const bodies = (await readFile(bodiesPath, 'utf8'))
  .split('\n')
  .filter((line) => line !== '')
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
