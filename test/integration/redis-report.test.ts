/**
 * The Redis report in-process against real Redis: counts by kind are exact, bytes exact up to
 * EXACT_KEY_LIMIT keys and a fair estimate beyond it; it only reads.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { storeKeys } from '../../src/store/keys.js';
import { EXACT_KEY_LIMIT, buildRedisReport } from '../../src/store/redis-report.js';
import { scanKeys } from '../../src/store/scan.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';

const url = inject('redisUrl');
let redis: Redis;
let prefix: string;
let passed = false;

beforeEach(() => {
  prefix = uniquePrefix('report');
  redis = new Redis(url);
  passed = false;
});
afterEach(async () => {
  if (passed) await cleanPrefix(url, prefix);
  await redis.quit();
});

async function keyCount(): Promise<number> {
  let count = 0;
  for await (const names of scanKeys(redis, `${prefix}:*`)) count += names.length;
  return count;
}

async function exactBytes(pattern: string): Promise<number> {
  let total = 0;
  for await (const names of scanKeys(redis, pattern)) {
    const pipe = redis.pipeline();
    for (const name of names) pipe.call('MEMORY', 'USAGE', name, 'SAMPLES', '0');
    for (const [, bytes] of (await pipe.exec()) ?? []) total += Number(bytes);
  }
  return total;
}

describe('buildRedisReport', () => {
  it('estimates past the exact limit from samples of each kind, saying so', async () => {
    const keys = storeKeys(prefix);
    const many = EXACT_KEY_LIMIT + 5000;
    const pipe = redis.pipeline();
    for (let i = 0; i < many; i += 1) pipe.zadd(keys.keyIndex(`K${i}`), i, `{"chatbot":"bot","runId":"r","jobId":"j${i}"}`);
    for (let b = 0; b < 40; b += 1) pipe.hset(keys.ledger(`bot${b}`, 'MLSNumber'), 'K1', 'x'.repeat(100 * (b + 1)));
    await pipe.exec();
    const before = await keyCount();

    const report = await buildRedisReport(redis, prefix, { keepDays: 30, keepRuns: 200 }, Date.now());

    expect(await keyCount()).toBe(before); // it only reads
    expect(report.keys.total).toBe(many + 40);
    expect(report.keys.estimated).toBe(true);
    expect(report.keys.measuredKeys).toBeGreaterThanOrEqual(EXACT_KEY_LIMIT);
    expect(report.keys.measuredKeys).toBeLessThan(EXACT_KEY_LIMIT + 1100);
    const index = report.keys.kinds.find((k) => k.kind === 'key-index');
    const ledger = report.keys.kinds.find((k) => k.kind === 'ledger');
    expect(index?.keys).toBe(many);
    // A kind with few keys is measured whole, even when it turns up after the limit.
    expect(ledger).toMatchObject({ keys: 40, measuredKeys: 40, bytes: await exactBytes(`${prefix}:ls:ledger:*`) });
    const exactIndex = await exactBytes(`${prefix}:ls:keyidx:*`);
    expect(Math.abs((index?.bytes ?? 0) - exactIndex) / exactIndex).toBeLessThan(0.05);
    expect(report.keys.bytes).toBe(report.keys.kinds.reduce((sum, k) => sum + k.bytes, 0));
    passed = true;
  });
});
