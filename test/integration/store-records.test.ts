import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { createStore, type Store } from '../../src/store/store.js';

const url = inject('redisUrl');
let redis: Redis;
let prefix: string;
let store: Store;
let passed = false;

beforeEach(() => {
  prefix = uniquePrefix('store');
  redis = new Redis(url);
  store = createStore(redis, prefix);
  passed = false;
});
afterEach(async () => {
  if (passed) await cleanPrefix(url, prefix);
  await redis.quit();
});

const OLD = 'run-00000001-aaaa';
const NEW = 'run-00000002-bbbb';

describe('ledger', () => {
  it('never lets an older run overwrite or resurrect what a newer run wrote or deleted', async () => {
    expect(
      await store.ledger.recordWrite('bot', 'MLSNumber', 'K1', { hash: 'h2', runId: NEW, writtenAt: 2, remoteId: '9' }),
    ).toBeUndefined();
    expect(await store.ledger.recordWrite('bot', 'MLSNumber', 'K1', { hash: 'h1', runId: OLD, writtenAt: 1 })).toBe(NEW);
    expect((await store.ledger.readLedger('bot', 'MLSNumber')).get('K1')).toEqual({ hash: 'h2', runId: NEW, writtenAt: 2, remoteId: '9' });
    expect(await store.ledger.recordDelete('bot', 'MLSNumber', 'K1', NEW)).toBeUndefined();
    expect((await store.ledger.readLedger('bot', 'MLSNumber')).has('K1')).toBe(false);
    expect(await store.ledger.newerWriter('bot', 'MLSNumber', 'K1', OLD)).toBe(NEW);
    expect(await store.ledger.recordWrite('bot', 'MLSNumber', 'K1', { hash: 'h1', runId: OLD, writtenAt: 1 })).toBe(NEW);
    expect((await store.ledger.readLedger('bot', 'MLSNumber')).has('K1')).toBe(false);
    passed = true;
  });

  it('reads many entries back through HSCAN', async () => {
    const pipe = redis.pipeline();
    for (let i = 0; i < 20_000; i += 1) pipe.hset(`${prefix}:ls:ledger:big`, `K${i}`, `${OLD}\t1\th${i}\t`);
    await pipe.exec();
    const ledger = await store.ledger.readLedger('big', 'MLSNumber');
    expect(ledger.size).toBe(20_000);
    expect(ledger.get('K123')).toEqual({ runId: OLD, writtenAt: 1, hash: 'h123' });
    passed = true;
  });
});

describe('runs', () => {
  it('keeps counts exact when a job records twice or fails then succeeds', async () => {
    await store.runs.createRun({
      id: NEW,
      chatbot: 'bot',
      trigger: 'cli',
      forced: false,
      status: 'enqueuing',
      startedAt: 5,
      summary: { skipped: 'a summary the counts do not depend on' },
      rejected: [{ line: 3 }],
    });
    await store.runs.addRunJobs(NEW, 'bot', ['j1', 'j2']);
    await store.runs.sealRun(NEW, 'bot', 2, 6);
    const base = { chatbot: 'bot', runId: NEW, weight: 1, now: 10 };
    await store.jobFinish.finishJob({
      ...base,
      jobId: 'j1',
      outcome: 'created',
      attempt: 1,
      mode: 'write',
      writes: [{ key: 'A', entry: { hash: 'h', runId: NEW, writtenAt: 10 } }],
    });
    await store.jobFinish.finishJob({
      ...base,
      jobId: 'j1',
      outcome: 'created',
      attempt: 1,
      mode: 'write',
      writes: [{ key: 'A', entry: { hash: 'h', runId: NEW, writtenAt: 10 } }],
    });
    await store.jobFinish.finishJob({
      ...base,
      jobId: 'j2',
      outcome: 'failed',
      attempt: 3,
      mode: 'fail',
      failures: [{ key: 'B', jobId: 'j2', runId: NEW, code: 'ENVELOPE_FAILURE', message: 'x', attempts: 3, at: 10 }],
    });
    let run = await store.runs.getRun(NEW);
    expect(run?.status).toBe('failed');
    expect(run?.counts).toMatchObject({ created: 1, failed: 1, retried: 2, totalJobs: 2, finishedJobs: 2, failedJobs: 1 });
    expect([...(await store.failedKeys.failedKeys('bot', 'MLSNumber')).keys()]).toEqual(['B']);

    await store.jobFinish.finishJob({
      ...base,
      jobId: 'j2',
      outcome: 'created',
      attempt: 4,
      mode: 'write',
      writes: [{ key: 'B', entry: { hash: 'h', runId: NEW, writtenAt: 11 } }],
    });
    run = await store.runs.getRun(NEW);
    expect(run?.status).toBe('done');
    expect(run?.counts).toMatchObject({ created: 2, failed: 0, retried: 3, finishedJobs: 2, failedJobs: 0 });
    expect((await store.failedKeys.failedKeys('bot', 'MLSNumber')).size).toBe(0);
    expect(await store.runs.rejectedRows(NEW)).toEqual([{ line: 3 }]);
    expect(await store.runs.jobsOfRun(NEW)).toEqual(['j1', 'j2']);
    expect((await store.runs.lastSuccessfulRun('bot'))?.id).toBe(NEW);
    passed = true;
  });

  it('lists runs newest first per chatbot and finds keys by touch', async () => {
    await store.runs.createRun({ id: OLD, chatbot: 'a', trigger: 'cli', forced: false, status: 'done', startedAt: 1 });
    await store.runs.createRun({ id: NEW, chatbot: 'b', trigger: 'schedule', forced: true, status: 'refused', startedAt: 2 });
    expect((await store.runs.listRuns()).map((r) => r.id)).toEqual([NEW, OLD]);
    expect((await store.runs.listRuns({ chatbot: 'a' })).map((r) => r.id)).toEqual([OLD]);
    await store.keyIndex.recordKeyTouch('a', '123', OLD, 'jx', 1);
    await store.keyIndex.recordKeyTouch('b', '123', NEW, 'jy', 2);
    expect((await store.keyIndex.touches('123')).map((t) => t.jobId)).toEqual(['jy', 'jx']);
    expect((await store.keyIndex.touches('123', 'a')).map((t) => t.jobId)).toEqual(['jx']);
    // Only that key: not one it is a prefix of, nor one with a tab in it; and the former layout is still read.
    await store.keyIndex.recordKeyTouch('a', '1234', OLD, 'jz', 3);
    await store.keyIndex.recordKeyTouch('a', '123\tx', OLD, 'jt', 4);
    await redis.zadd(store.keys.keyIndex('123'), 0, JSON.stringify({ chatbot: 'a', runId: 'run-0', jobId: 'jlegacy' }));
    expect((await store.keyIndex.touches('123')).map((t) => t.jobId)).toEqual(['jy', 'jx', 'jlegacy']);
    expect((await store.keyIndex.touches('123\tx')).map((t) => t.jobId)).toEqual(['jt']);
    passed = true;
  });
});
