/**
 * Retention (src/store/retention.ts) against real Redis: exactly the runs beyond the newest
 * `keepRuns` of their chatbot AND older than `keepDays` AND final go, with every key they hold;
 * key-index entries and tombstones age out; the ledger, failed keys, leases and claims stay.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { newRunId } from '../../src/domain/job-id.js';
import { storeKeys, type StoreKeys } from '../../src/store/keys.js';
import { applyRetention, retentionLockKey, runRetentionOnce } from '../../src/store/retention.js';
import type { RunStatus } from '../../src/store/run-types.js';
import { createStore, type Store } from '../../src/store/store.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';

const url = inject('redisUrl');
const DAY = 86_400_000;
const NOW = Date.UTC(2030, 0, 31, 12);
const SETTINGS = { keepDays: 30, keepRuns: 3 };

let redis: Redis;
let prefix: string;
let keys: StoreKeys;
let store: Store;
let passed = false;
let serial = 0;

beforeEach(() => {
  prefix = uniquePrefix('retention');
  redis = new Redis(url);
  keys = storeKeys(prefix);
  store = createStore(redis, prefix);
  passed = false;
});
afterEach(async () => {
  if (passed) await cleanPrefix(url, prefix);
  await redis.quit();
});

function runIdAt(at: number): string {
  serial += 1;
  return newRunId(at, serial.toString(16).padStart(4, '0'));
}

/** A run with every per-run key filled, as a sync and its jobs leave it. */
async function makeRun(chatbot: string, startedDaysAgo: number, status: RunStatus, finishedDaysAgo?: number): Promise<string> {
  const startedAt = NOW - startedDaysAgo * DAY;
  const id = runIdAt(startedAt);
  const finished = finishedDaysAgo ?? startedDaysAgo - 0.01;
  await store.runs.createRun({ id, chatbot, trigger: 'cli', forced: false, status, startedAt, rejected: [{ line: 2, reason: 'bad' }] });
  await store.runs.addRunJobs(id, chatbot, [`create.${chatbot}.j1`, `create.${chatbot}.j2`]);
  const tx = redis.multi();
  if (status !== 'running' && status !== 'planned' && status !== 'enqueuing')
    tx.hset(keys.run(chatbot, id), 'finishedAt', String(NOW - finished * DAY));
  tx.hset(keys.runOutcomes(chatbot, id), `create.${chatbot}.j1`, 'created\t1');
  tx.hset(keys.runAttempts(chatbot, id), `create.${chatbot}.j1`, '2');
  await tx.exec();
  return id;
}

function perRunKeys(chatbot: string, id: string): string[] {
  return [
    keys.run(chatbot, id),
    keys.runOutcomes(chatbot, id),
    keys.runAttempts(chatbot, id),
    keys.runJobs(chatbot, id),
    keys.runRejected(chatbot, id),
  ];
}

async function existing(names: readonly string[]): Promise<number> {
  return names.length === 0 ? 0 : await redis.exists(...names);
}

async function indexed(chatbot: string): Promise<string[]> {
  return await redis.zrange(keys.runsOfChatbot(chatbot), '0', '-1');
}

/** Keys retention must never touch, with their content. */
async function untouchable(chatbot: string): Promise<Record<string, unknown>> {
  const old = newRunId(NOW - 400 * DAY, 'ab');
  const names = {
    ledger: keys.ledger(chatbot, 'MLSNumber'),
    ledgerUrl: keys.ledger(chatbot, 'URL'),
    failed: keys.failed(chatbot, 'MLSNumber'),
    claims: keys.claims(chatbot, 'MLSNumber'),
    lease: keys.lease(chatbot),
  };
  await redis.hset(names.ledger, 'K1', `${old}\t1\th1\t9`);
  await redis.hset(names.ledgerUrl, 'https://x/1', `${old}\t1\th1\t9`);
  await redis.hset(names.failed, 'K2', JSON.stringify({ key: 'K2', runId: old, at: 1 }));
  await redis.hset(names.claims, 'K3', `job\t1\tsent`);
  await redis.hset(names.lease, 'runId', old, 'since', '1');
  const snapshot: Record<string, unknown> = {};
  for (const name of Object.values(names)) snapshot[name] = await redis.hgetall(name);
  return snapshot;
}

describe('applyRetention', () => {
  it('removes exactly the final runs beyond the newest keepRuns that are older than keepDays, with all their keys', async () => {
    const a = {
      old: await makeRun('A', 100, 'done'),
      openOld: await makeRun('A', 60, 'running'),
      stuck: await makeRun('A', 50, 'stuck'),
      failed: await makeRun('A', 45, 'failed'),
      planned: await makeRun('A', 40, 'planned'),
      skipped: await makeRun('A', 35, 'skipped'),
      enqueuing: await makeRun('A', 33, 'enqueuing'),
      endedRecently: await makeRun('A', 31, 'done', 29),
      justOld: await makeRun('A', 30 + 1 / 1440, 'refused', 30 + 1 / 1440),
      justNew: await makeRun('A', 30 - 1 / 1440, 'cancelled'),
      r10: await makeRun('A', 10, 'done'),
      r5: await makeRun('A', 5, 'failed'),
      r1: await makeRun('A', 1, 'done'),
    };
    // Chatbot B: every run is old; the newest three stay because they are its newest.
    const b = [
      await makeRun('B', 95, 'done'),
      await makeRun('B', 94, 'failed'),
      await makeRun('B', 93, 'done'),
      await makeRun('B', 92, 'done'),
      await makeRun('B', 91, 'cancelled'),
    ];
    const kept = { A: await untouchable('A'), B: await untouchable('B') };
    const chatbotOf = (id: string): string => (b.includes(id) ? 'B' : 'A');

    const result = await applyRetention(redis, keys, SETTINGS, NOW);

    const removed = [a.old, a.stuck, a.failed, a.skipped, a.justOld, b[0] as string, b[1] as string];
    expect(result).toMatchObject({ cutoff: NOW - 30 * DAY, chatbots: 2, runs: removed.length, runKeys: removed.length * 5 });
    expect(await existing(removed.flatMap((id) => perRunKeys(chatbotOf(id), id)))).toBe(0);
    const survivorsA = [a.openOld, a.planned, a.enqueuing, a.endedRecently, a.justNew, a.r10, a.r5, a.r1];
    expect(await indexed('A')).toEqual(survivorsA);
    expect(await indexed('B')).toEqual(b.slice(2));
    const survivors = [...survivorsA, ...b.slice(2)];
    expect(await existing(survivors.flatMap((id) => perRunKeys(chatbotOf(id), id)))).toBe(survivors.length * 5);
    expect((await redis.zrange(keys.runsAll(), '0', '-1')).sort()).toEqual([...survivors].sort());
    for (const run of removed) expect(await redis.zscore(keys.runsOpen(), run)).toBeNull();
    for (const chatbot of ['A', 'B'] as const) {
      for (const [name, content] of Object.entries(kept[chatbot])) expect(await redis.hgetall(name)).toEqual(content);
    }

    // Idempotent: a second pass finds nothing more.
    expect(await applyRetention(redis, keys, SETTINGS, NOW)).toMatchObject({ runs: 0, runKeys: 0, keyIndexEntries: 0, tombstones: 0 });
    passed = true;
  });

  it('drops whole days of key touches once the day lies before the cutoff, and a search no longer finds them', async () => {
    const cutoff = NOW - SETTINGS.keepDays * DAY;
    const lastOldDayEnd = Math.floor(cutoff / DAY) * DAY;
    await store.keyIndex.recordTouches([
      { chatbot: 'A', key: 'K1', runId: 'r-old', jobId: 'j1', at: lastOldDayEnd - 1 },
      { chatbot: 'A', key: 'K2', runId: 'r-old', jobId: 'j2', at: lastOldDayEnd - 2 * DAY },
      { chatbot: 'B', key: 'K1', runId: 'r-old-b', jobId: 'j3', at: lastOldDayEnd - 5 },
      // The cutoff's own day is kept whole: some of its touches are younger than the cutoff.
      { chatbot: 'A', key: 'K1', runId: 'r-edge', jobId: 'j4', at: lastOldDayEnd },
      { chatbot: 'A', key: 'K1', runId: 'r-new', jobId: 'j5', at: NOW - DAY },
    ]);
    expect((await store.keyIndex.touches('K1')).map((t) => t.jobId)).toEqual(['j5', 'j4', 'j1', 'j3']);

    const result = await applyRetention(redis, keys, SETTINGS, NOW);

    expect(result.keyIndexEntries).toBe(3);
    expect((await store.keyIndex.touches('K1')).map((t) => t.jobId)).toEqual(['j5', 'j4']);
    expect(await store.keyIndex.touches('K2')).toEqual([]);
    expect(await redis.zcard(keys.keyTouchDays())).toBe(2);
    expect(await applyRetention(redis, keys, SETTINGS, NOW)).toMatchObject({ keyIndexEntries: 0 });
    passed = true;
  });

  it('trims former key-index entries and tombstones by age, leaving recent ones and deleting what is emptied', async () => {
    const recent = NOW - 29 * DAY;
    const old = NOW - 31 * DAY;
    await redis.zadd(
      keys.keyIndex('K1'),
      old,
      '{"chatbot":"A","runId":"r-old","jobId":"j1"}',
      recent,
      '{"chatbot":"A","runId":"r-new","jobId":"j2"}',
    );
    await redis.zadd(
      keys.keyIndex('K2'),
      old,
      '{"chatbot":"A","runId":"r-old","jobId":"j3"}',
      old - DAY,
      '{"chatbot":"B","runId":"r-older","jobId":"j4"}',
    );
    const tomb = keys.tombstones('A', 'MLSNumber');
    await redis.hset(
      tomb,
      'K1',
      newRunId(old, 'ff'),
      'K2',
      newRunId(recent, '00'),
      'K3',
      newRunId(NOW - 300 * DAY, '1'),
      'K4',
      newRunId(NOW - 30 * DAY, '0'),
    );
    await redis.hset(keys.tombstones('B', 'URL'), 'https://x/1', newRunId(old, 'aa'));
    // Many tombstones: the HSCAN path in batches.
    const pipe = redis.pipeline();
    for (let i = 0; i < 2500; i += 1) pipe.hset(keys.tombstones('C', 'MLSNumber'), `M${i}`, newRunId(i % 2 === 0 ? old : recent, 'c'));
    await pipe.exec();

    const result = await applyRetention(redis, keys, SETTINGS, NOW);

    expect(result).toMatchObject({ keyIndexEntries: 3, tombstones: 2 + 1 + 1250 });
    expect(await redis.zrange(keys.keyIndex('K1'), '0', '-1')).toEqual(['{"chatbot":"A","runId":"r-new","jobId":"j2"}']);
    expect(await redis.exists(keys.keyIndex('K2'))).toBe(0);
    expect(Object.keys(await redis.hgetall(tomb)).sort()).toEqual(['K2', 'K4']);
    expect(await redis.exists(keys.tombstones('B', 'URL'))).toBe(0);
    expect(await redis.hlen(keys.tombstones('C', 'MLSNumber'))).toBe(1250);
    passed = true;
  });

  it('pages through thousands of runs of a chatbot, keeping the open ones in between', async () => {
    const pipe = redis.pipeline();
    const open: string[] = [];
    const closed: string[] = [];
    for (let i = 0; i < 2600; i += 1) {
      const startedAt = NOW - (200 - i / 100) * DAY;
      const id = runIdAt(startedAt);
      const isOpen = i % 250 === 7;
      (isOpen ? open : closed).push(id);
      pipe.hset(keys.run('big', id), {
        id,
        chatbot: 'big',
        status: isOpen ? 'running' : 'done',
        startedAt: String(startedAt),
        finishedAt: String(startedAt + 1000),
      });
      pipe.rpush(keys.runJobs('big', id), 'j');
      pipe.zadd(keys.runsAll(), startedAt, id);
      pipe.zadd(keys.runsOfChatbot('big'), startedAt, id);
    }
    await pipe.exec();
    const newest = closed.slice(-3);

    const result = await applyRetention(redis, keys, SETTINGS, NOW);

    expect(result.runs).toBe(closed.length - 3);
    expect(await indexed('big')).toEqual([...open, ...newest]);
    expect(await redis.zcard(keys.runsAll())).toBe(open.length + 3);
    passed = true;
  });

  it('gives the same result when several passes run at once', async () => {
    const runs = [];
    for (let d = 0; d < 12; d += 1) runs.push(await makeRun('A', 90 - d, d % 5 === 0 ? 'running' : 'done'));
    const others = [new Redis(url), new Redis(url), new Redis(url)];
    try {
      const results = await Promise.all(others.map((client) => applyRetention(client, keys, SETTINGS, NOW)));
      expect(results.reduce((sum, r) => sum + r.runs, 0)).toBe(12 - 3 - 2); // 3 newest, 2 open (d = 0, 5) kept; d = 10 is among the newest
      expect(await indexed('A')).toEqual([runs[0], runs[5], ...runs.slice(9)]);
    } finally {
      await Promise.all(others.map((client) => client.quit()));
    }
    passed = true;
  });
});

describe('runRetentionOnce', () => {
  it('runs in one process at a time and keeps the lock for the interval', async () => {
    await makeRun('A', 90, 'done');
    for (let d = 0; d < 3; d += 1) await makeRun('A', 3 - d, 'done');
    const other = new Redis(url);
    try {
      const [first, second] = await Promise.all([
        runRetentionOnce(redis, keys, SETTINGS, NOW, 60_000),
        runRetentionOnce(other, keys, SETTINGS, NOW, 60_000),
      ]);
      const ran = [first, second].filter((r) => r !== undefined);
      expect(ran).toHaveLength(1);
      expect(ran[0]?.runs).toBe(1);
      expect(await redis.pttl(retentionLockKey(keys))).toBeGreaterThan(50_000);
      expect(retentionLockKey(keys)).toBe(`${prefix}:ls:retention-lock`);
      expect(await runRetentionOnce(redis, keys, SETTINGS, NOW, 60_000)).toBeUndefined();
    } finally {
      await other.quit();
    }
    passed = true;
  });

  it('refuses nonsense settings', async () => {
    await expect(applyRetention(redis, keys, { keepDays: -1, keepRuns: 3 }, NOW)).rejects.toThrow(/keepDays/);
    await expect(runRetentionOnce(redis, keys, SETTINGS, NOW, 0)).rejects.toThrow(/lockMs/);
    passed = true;
  });
});
