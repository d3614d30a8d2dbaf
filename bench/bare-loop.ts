/**
 * The bare keep-alive loop, bench:sync's and bench:fairness's baseline, as its own process: the same creates,
 * CONCURRENCY in flight through one undici Pool, no queue, no Redis. Why it imports only undici and the endpoint
 * table: what it loads is part of the CPU it measures.
 * Usage: node dist/bench/bare-loop.js BASE_URL SECRET_KEY BODIES.ndjson CONCURRENCY; prints { requests, failures, seconds, cpuSeconds }.
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { ENDPOINTS } from '../src/api/endpoints.js';

const [baseUrl = '', secretKey = '', bodiesPath = '', concurrencyText = '16'] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const text = await readFile(bodiesPath, 'utf8');
const bodies = text
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as unknown);
const pool = new Pool(baseUrl, { connections: concurrency });
let next = 0;
let failures = 0;
const started = performance.now();
// Why one loop per slot, not p-limit: the barest client; a slot sends its next request once its last response is read.
const slot = async (): Promise<void> => {
  for (let body = bodies[next++]; body !== undefined; body = bodies[next++]) {
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
