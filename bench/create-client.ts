/**
 * What bare-loop.ts and bullmq-floor.ts share: their arguments (BASE_URL SECRET_KEY BODIES.ndjson CONCURRENCY ...rest), the
 * bodies, one create through one undici Pool, the printed { requests, failures, seconds, cpuSeconds }. Why only undici and the
 * endpoint table: what a baseline loads is part of the CPU it measures.
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { ENDPOINTS } from '../src/api/endpoints.js';

const [baseUrl = '', secretKey = '', bodiesPath = '', concurrencyText = '16', ...rest] = process.argv.slice(2);
export const concurrency = Number(concurrencyText);
export const restArgs = rest;
export const bodies = (await readFile(bodiesPath, 'utf8'))
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as unknown);
const pool = new Pool(baseUrl, { connections: concurrency });
const started = performance.now();
let failures = 0;

export async function create(body: unknown): Promise<void> {
  const response = await pool.request({
    path: ENDPOINTS.createListing.path,
    method: 'POST',
    headers: { authorization: secretKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const envelope = (await response.body.json()) as { Success?: unknown };
  if (response.statusCode !== 200 || envelope.Success !== true) failures += 1;
}

/** Times the run up to now, then closes `others` and the Pool, then prints. */
export async function finish(others: () => Promise<unknown> = async () => undefined): Promise<void> {
  const seconds = (performance.now() - started) / 1000;
  await others();
  await pool.close();
  const cpu = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ requests: bodies.length, failures, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
}
