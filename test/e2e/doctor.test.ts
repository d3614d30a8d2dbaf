/**
 * `listing-sync doctor` as a process: memory and key counts by kind under the prefix, the
 * server's policy and AOF, warnings with exit 1 (a Redis that may evict or lose data, runs past
 * retention), "unknown" when CONFIG is refused, and never the Redis password.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { newRunId } from '../../src/domain/job-id.js';
import { openQueues } from '../../src/queue/queues.js';
import { storeKeys } from '../../src/store/keys.js';
import type { RedisReport } from '../../src/store/redis-report.js';
import { applyRetention } from '../../src/store/retention.js';
import { createStore } from '../../src/store/store.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';
import { TEST_SEAL } from '../helpers/job-seal.js';

type DoctorJson = RedisReport & { redis: string };

const url = inject('redisUrl');
const DAY = 86_400_000;
const PASSWORD = 'Doctor-Secret-5e7a1c';

let redis: Redis;
let prefix: string;
let passed = false;
let server: RedisProcess | undefined;

beforeEach(() => {
  prefix = uniquePrefix('doctor');
  redis = new Redis(url);
  passed = false;
});
afterEach(async () => {
  if (passed) await cleanPrefix(url, prefix);
  await redis.quit();
  await server?.close();
  server = undefined;
});

async function doctor(redisUrl: string, extraEnv: Record<string, string> = {}, json = true): Promise<CliRun> {
  return await runCli(['doctor', ...(json ? ['--json'] : [])], { REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, ...extraEnv });
}

function kinds(report: DoctorJson): Record<string, { keys: number; bytes: number }> {
  return Object.fromEntries(report.keys.kinds.map((k) => [k.kind, { keys: k.keys, bytes: k.bytes }]));
}

function codes(report: DoctorJson): string[] {
  return report.warnings.map((w) => w.code);
}

async function configValue(client: Redis, name: string): Promise<string> {
  return ((await client.call('CONFIG', 'GET', name)) as string[])[1] ?? '';
}

describe('listing-sync doctor', () => {
  it('lists keys and bytes by kind, the policy and AOF, and warns while runs are past retention', async () => {
    const store = createStore(redis, prefix);
    const keys = storeKeys(prefix);
    const now = Date.now();
    for (const daysAgo of [100, 99, 98]) {
      const id = newRunId(now - daysAgo * DAY, 'ab');
      await store.runs.createRun({
        id,
        chatbot: 'A',
        trigger: 'cli',
        forced: false,
        status: 'done',
        startedAt: now - daysAgo * DAY,
        finishedAt: now - daysAgo * DAY + 1000,
        rejected: [{ line: 2 }],
      });
      await store.runs.addRunJobs(id, 'A', ['j1']);
      await redis.hset(keys.runOutcomes('A', id), 'j1', 'created\t1');
    }
    await redis.hset(keys.ledger('A', 'MLSNumber'), 'K1', `${newRunId(now, 'ab')}\t1\th\t9`);
    await redis.hset(keys.tombstones('A', 'MLSNumber'), 'K2', newRunId(now, 'ab'));
    await redis.zadd(keys.keyIndex('K1'), now, '{"chatbot":"A","runId":"r","jobId":"j1"}');
    const queues = openQueues(redis, prefix, TEST_SEAL);
    await queues.writes.add('create-listing', { chatbot: 'A' }, { jobId: 'create.A.MLSNumber.K1.r' });
    await queues.close();

    const run = await doctor(url, { LISTING_SYNC_KEEP_RUNS: '1' });
    const report = jsonOf<DoctorJson>(run);
    expect(report.prefix).toBe(prefix);
    expect(kinds(report)).toMatchObject({
      ledger: { keys: 1 },
      tombstones: { keys: 1 },
      'key-index': { keys: 1 },
      'run-records': { keys: 3 },
      'run-outcomes': { keys: 3 },
      'run-job-lists': { keys: 3 },
      'run-rejected-rows': { keys: 3 },
      'bullmq:listing-writes:jobs': { keys: 1 },
      'bullmq:listing-writes:events': { keys: 1 },
    });
    expect(kinds(report)['bullmq:listing-writes:waiting']?.keys).toBeGreaterThanOrEqual(1); // wait list, marker
    for (const kind of report.keys.kinds) expect(kind.bytes, kind.kind).toBeGreaterThan(0);
    expect(report.keys).toMatchObject({ estimated: false, measuredKeys: report.keys.total });
    expect(report.settings.maxmemoryPolicy).toEqual({ value: await configValue(redis, 'maxmemory-policy'), source: 'CONFIG GET' });
    expect(report.settings.appendonly).toEqual({ value: await configValue(redis, 'appendonly'), source: 'CONFIG GET' });
    expect(report.settings.appendfsync.value).toBe(await configValue(redis, 'appendfsync'));
    expect(report.memory.usedBytes).toBeGreaterThan(0);
    expect(report.retention).toEqual({ keepDays: 30, keepRuns: 1, runsPastRetention: 2 });
    expect(codes(report)).toContain('RETENTION_BEHIND');
    expect(run.code).toBe(1);

    await applyRetention(redis, keys, { keepDays: 30, keepRuns: 1 }, now);
    const after = jsonOf<DoctorJson>(await doctor(url, { LISTING_SYNC_KEEP_RUNS: '1' }));
    expect(after.retention.runsPastRetention).toBe(0);
    expect(codes(after)).not.toContain('RETENTION_BEHIND');
    expect(kinds(after)['run-records']?.keys).toBe(1);

    const text = await doctor(url, { LISTING_SYNC_KEEP_RUNS: '1' }, false);
    expect(text.stdout).toMatch(/^kind\s+keys\s+bytes$/m);
    expect(text.stdout).toMatch(/^run-records\s+1\s+\d/m);
    expect(text.code).toBe(after.warnings.length > 0 ? 1 : 0);
    passed = true;
  });

  it.skipIf(!hasRedisServer())('warns and exits 1 on a Redis that may evict or lose data, and never shows its password', async () => {
    server = await startRedisProcess({
      password: PASSWORD,
      args: ['--maxmemory-policy', 'allkeys-lru', '--appendonly', 'no', '--appendfsync', 'no'],
    });
    const admin = new Redis(server.url);
    try {
      const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
      await admin.call('CONFIG', 'SET', 'maxmemory', String(Math.round(used * 1.1)));
    } finally {
      await admin.quit();
    }

    const json = await doctor(server.url);
    const text = await doctor(server.url, {}, false);
    const wrongPassword = await doctor(server.url.replace(PASSWORD, `${PASSWORD}-wrong`));

    const report = jsonOf<DoctorJson>(json);
    expect(codes(report).sort()).toEqual(['AOF_FSYNC', 'AOF_OFF', 'EVICTION_POLICY', 'MEMORY_HIGH']);
    expect(report.redis).toBe(`redis://:***@127.0.0.1:${server.port}`);
    expect(json.code).toBe(1);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('maxmemory-policy is allkeys-lru: set it to noeviction');
    expect(text.stdout).toContain('appendonly is no');
    // A refused password is configuration (exit 2), named as such (docs/redis-security.md).
    expect(wrongPassword.code).toBe(2);
    expect(wrongPassword.stderr).toMatch(/^listing-sync: Redis at .+ refused the password \(WRONGPASS\)/);
    for (const out of [json, text, wrongPassword]) expect(out.stdout + out.stderr).not.toContain(PASSWORD);
    passed = true;
  });

  it.skipIf(!hasRedisServer())('says unknown, and why, when CONFIG is refused, taking what INFO shows', async () => {
    server = await startRedisProcess({ args: ['--rename-command', 'CONFIG', ''] });

    const run = await doctor(server.url);

    const report = jsonOf<DoctorJson>(run);
    expect(report.settings.maxmemoryPolicy).toEqual({ value: 'noeviction', source: 'INFO' });
    expect(report.settings.appendonly).toEqual({ value: 'yes', source: 'INFO' });
    expect(report.settings.appendfsync).toMatchObject({ value: null, source: 'unknown' });
    expect(report.settings.appendfsync.reason).toMatch(/^CONFIG GET refused \(ERR unknown command/);
    expect(report.warnings).toEqual([]);
    expect(run.code).toBe(0);
    passed = true;
  });
});
