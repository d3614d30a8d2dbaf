/**
 * The bare keep-alive request loop of bench:sync, run as its own process (as the CLI is): the
 * same create requests the sync makes, `concurrency` in flight through one undici Pool with
 * keep-alive connections, no queue, no Redis. What the machine and the simulator allow at all.
 *
 * Usage: node dist/bench/bare-loop.js BASE_URL SECRET_KEY BODIES.ndjson CONCURRENCY (one body a line)
 * Prints one JSON line: { requests, failures, seconds, cpuSeconds } (cpuSeconds: user + system of
 * the whole process, the baseline of the CLI's CPU per listing).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { ENDPOINTS } from '../src/api/endpoints.js';
import { readRequestBodies } from './request-bodies.js';

async function main(): Promise<void> {
  const [baseUrl, secretKey, bodiesPath, concurrencyText] = process.argv.slice(2);
  if (baseUrl === undefined || secretKey === undefined || bodiesPath === undefined)
    throw new Error('usage: bare-loop BASE_URL SECRET BODIES CONCURRENCY');
  const concurrency = Number(concurrencyText ?? '16');
  const bodies = await readRequestBodies(bodiesPath);
  const pool = new Pool(baseUrl, { connections: concurrency });
  let next = 0;
  let failures = 0;
  const started = performance.now();
  // Why one loop per slot instead of p-limit: the barest client there is; a slot sends its next
  // request as soon as its last response is read.
  const slot = async (): Promise<void> => {
    while (next < bodies.length) {
      const body = bodies[next];
      next += 1;
      const response = await pool.request({
        path: ENDPOINTS.createListing.path,
        method: 'POST',
        headers: { authorization: secretKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const envelope = (await response.body.json()) as { Success?: unknown };
      if (response.statusCode !== 200 || envelope.Success !== true) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => slot()));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  const cpu = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ requests: bodies.length, failures, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
}

main().catch((thrown: unknown) => {
  process.stderr.write(`bare-loop failed: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`);
  process.exitCode = 1;
});
