/**
 * bench:sync's second baseline, run as its own process (as the CLI is): the least any tool pays
 * that keeps a BullMQ job per listing. The same create requests as the bare loop, each enqueued as
 * one BullMQ job (addBulk, chunks of 1,000, job id = its line, removed on completion) and sent by a
 * BullMQ Worker at `concurrency` through one undici Pool, the answer's JSON read. No feed, plan,
 * claims, ledger, run counts, retries, gates or metrics: only BullMQ, ioredis and undici.
 *
 * Why: issue 30's CPU target compares `sync --work` with the bare loop, which has no queue at
 * all; this floor shows how much of that ratio BullMQ's own per-job work already is, measured in
 * the same round, so that what listing-sync adds on top can be read apart from it.
 *
 * Usage: node dist/bench/bullmq-floor.js BASE_URL SECRET_KEY BODIES.ndjson CONCURRENCY REDIS_URL PREFIX
 * Prints one JSON line: { requests, failures, seconds, cpuSeconds } (cpuSeconds: user + system of
 * the whole process, start-up included as for the CLI).
 */
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { ENDPOINTS } from '../src/api/endpoints.js';
import { readRequestBodies } from './request-bodies.js';

const QUEUE = 'floor';
const CHUNK = 1000;

interface FloorJob {
  listing: unknown;
}

async function main(): Promise<void> {
  const [baseUrl, secretKey, bodiesPath, concurrencyText, redisUrl, prefix] = process.argv.slice(2);
  if (baseUrl === undefined || secretKey === undefined || bodiesPath === undefined || redisUrl === undefined || prefix === undefined)
    throw new Error('usage: bullmq-floor BASE_URL SECRET BODIES CONCURRENCY REDIS_URL PREFIX');
  const concurrency = Number(concurrencyText ?? '16');
  const bodies = await readRequestBodies(bodiesPath);
  const connect = (): Redis => new Redis(redisUrl, { maxRetriesPerRequest: null });
  const [queueConnection, workerConnection] = [connect(), connect()];
  const queue = new Queue<FloorJob>(QUEUE, { connection: queueConnection, prefix });
  const pool = new Pool(baseUrl, { connections: concurrency });
  let failures = 0;
  let finished = 0;
  const started = performance.now();
  let allFinished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allFinished = resolve));
  const worker = new Worker<FloorJob>(
    QUEUE,
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
  worker.on('completed', () => {
    finished += 1;
    if (finished === bodies.length) allFinished();
  });
  for (let from = 0; from < bodies.length; from += CHUNK)
    await queue.addBulk(
      bodies.slice(from, from + CHUNK).map((listing, i) => ({
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
}

main().catch((thrown: unknown) => {
  process.stderr.write(`bullmq-floor failed: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`);
  process.exitCode = 1;
});
