/**
 * The probe and job-finish scripts read and write each hash once per call (hash-view-lua.ts): the
 * jobs that share one call must still be applied as if alone, in order. Several jobs of one run
 * are submitted in the same tick, so group-commit.ts sends them as one script call; the results
 * must be what the same jobs one after the other would leave.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { createStore, type Store } from '../../src/store/store.js';
import { encodeLedgerEntry } from '../../src/store/ledger.js';

const url = inject('redisUrl');
let redis: Redis;
let prefix: string;
let store: Store;
let passed = false;

beforeEach(() => {
  prefix = uniquePrefix('batched');
  redis = new Redis(url);
  store = createStore(redis, prefix);
  passed = false;
});
afterEach(async () => {
  if (passed) await cleanPrefix(url, prefix);
  await redis.quit();
});

const OLD = 'run-00000001-aaaa';
const RUN = 'run-00000002-bbbb';
const NEWER = 'run-00000003-cccc';
const BOT = 'bot';
const entry = (runId: string, hash: string): { runId: string; writtenAt: number; hash: string } => ({ runId, writtenAt: 1, hash });

describe('one script call for several jobs of a run', () => {
  it('finishes them in order: ledger, tombstones, failed keys, claims and counts as if each ran alone', async () => {
    const keys = store.keys;
    await store.runs.createRun({ id: RUN, chatbot: BOT, trigger: 'cli', forced: false, status: 'enqueuing', startedAt: 1 });
    await store.runs.addRunJobs(RUN, BOT, ['jA', 'jB', 'jB2', 'jC', 'jD', 'jE']);
    await store.runs.sealRun(RUN, BOT, 6, 2);
    // Before: A failed for good earlier, D deleted and C written by an older run, E written by a newer one.
    await redis.hset(keys.failed(BOT, 'MLSNumber'), 'A', JSON.stringify({ key: 'A' }));
    await redis.hset(keys.tombstones(BOT, 'MLSNumber'), 'D', OLD);
    await redis.hset(keys.ledger(BOT, 'MLSNumber'), 'C', encodeLedgerEntry(entry(OLD, 'c')), 'E', encodeLedgerEntry(entry(NEWER, 'e')));
    for (const [key, jobId] of [
      ['A', 'jA'],
      ['B', 'jB'],
      ['C', 'jC'],
      ['D', 'jD'],
    ] as const) {
      expect(
        await store.claims.prepareWrite({ chatbot: BOT, keyType: 'MLSNumber', key, runId: RUN, jobId, attempt: `${jobId}-1` }),
      ).toMatchObject({ kind: 'go' });
    }
    const base = { chatbot: BOT, keyType: 'MLSNumber' as const, runId: RUN, weight: 1, now: 10, attempt: 1 };
    const write = (jobId: string, key: string): Parameters<Store['jobFinish']['finishJob']>[0] => ({
      ...base,
      jobId,
      outcome: 'created',
      mode: 'write',
      writes: [{ key, entry: entry(RUN, key.toLowerCase()) }],
    });
    const superseded = await Promise.all([
      store.jobFinish.finishJob(write('jA', 'A')),
      store.jobFinish.finishJob({
        ...base,
        jobId: 'jB',
        outcome: 'failed',
        attempt: 3,
        mode: 'fail',
        failures: [{ key: 'B', jobId: 'jB', runId: RUN, code: 'X', message: 'x', attempts: 3, at: 10 }],
      }),
      // A later job of the run writes B in the same call: the failed key it left is gone again.
      store.jobFinish.finishJob(write('jB2', 'B')),
      store.jobFinish.finishJob({ ...base, jobId: 'jC', outcome: 'deleted', mode: 'delete', keys: ['C'] }),
      store.jobFinish.finishJob(write('jD', 'D')),
      store.jobFinish.finishJob(write('jE', 'E')),
    ]);
    expect(superseded).toEqual([0, 0, 0, 0, 0, 1]);
    const ledger = await store.ledger.readLedger(BOT, 'MLSNumber');
    expect([...ledger.keys()].sort()).toEqual(['A', 'B', 'D', 'E']);
    expect(ledger.get('E')?.runId).toBe(NEWER);
    expect(await redis.hgetall(keys.tombstones(BOT, 'MLSNumber'))).toEqual({ C: RUN });
    expect(await redis.exists(keys.failed(BOT, 'MLSNumber'))).toBe(0);
    // Released claims are gone; the failed job's stays in doubt (jB2 did not hold it).
    expect(await redis.hgetall(keys.claims(BOT, 'MLSNumber'))).toEqual({ B: 'jB\t0\tdoubt' });
    const run = await store.runs.getRun(RUN);
    expect(run?.counts).toMatchObject({ created: 4, deleted: 1, failed: 1, retried: 2, finishedJobs: 6, failedJobs: 1 });
    expect(run?.status).toBe('failed');
    passed = true;
  });

  it('counts a job finishing twice in one call once, and moves the count when its outcome changed', async () => {
    await store.runs.createRun({ id: RUN, chatbot: BOT, trigger: 'cli', forced: false, status: 'enqueuing', startedAt: 1 });
    await store.runs.addRunJobs(RUN, BOT, ['j1', 'j2']);
    await store.runs.sealRun(RUN, BOT, 2, 2);
    const base = { chatbot: BOT, keyType: 'MLSNumber' as const, runId: RUN, weight: 1, now: 10, mode: 'none' as const };
    await Promise.all([
      store.jobFinish.finishJob({ ...base, jobId: 'j1', outcome: 'failed', attempt: 2 }),
      store.jobFinish.finishJob({ ...base, jobId: 'j1', outcome: 'created', attempt: 3 }),
      store.jobFinish.finishJob({ ...base, jobId: 'j1', outcome: 'created', attempt: 3 }),
    ]);
    let run = await store.runs.getRun(RUN);
    expect(run?.counts).toMatchObject({ created: 1, failed: 0, retried: 2, finishedJobs: 1, failedJobs: 0 });
    expect(run?.status).toBe('running');
    await store.jobFinish.finishJob({ ...base, jobId: 'j2', outcome: 'created', attempt: 1 });
    run = await store.runs.getRun(RUN);
    expect(run?.counts).toMatchObject({ created: 2, finishedJobs: 2, failedJobs: 0 });
    expect(run?.status).toBe('done');
    passed = true;
  });

  it('probes in order: the first job of a key claims it, a second job of the same key in the call waits', async () => {
    await store.runs.createRun({ id: RUN, chatbot: BOT, trigger: 'cli', forced: false, status: 'running', startedAt: 1 });
    await redis.hset(store.keys.ledger(BOT, 'MLSNumber'), 'N', encodeLedgerEntry(entry(NEWER, 'n')));
    const target = { chatbot: BOT, keyType: 'MLSNumber' as const, runId: RUN };
    const [first, second, other, newer] = await Promise.all([
      store.claims.prepareWrite({ ...target, key: 'K', jobId: 'j1', attempt: 'a' }),
      store.claims.prepareWrite({ ...target, key: 'K', jobId: 'j2', attempt: 'b' }),
      store.claims.prepareWrite({ ...target, key: 'L', jobId: 'j3', attempt: 'c' }),
      store.claims.prepareWrite({ ...target, key: 'N', jobId: 'j4', attempt: 'd' }),
    ]);
    expect(first).toMatchObject({ kind: 'go', inDoubt: false });
    expect(second).toMatchObject({ kind: 'claimed', byJob: 'j1', earlierAttempt: false });
    expect(other).toMatchObject({ kind: 'go', inDoubt: false });
    expect(newer).toEqual({ kind: 'superseded', newerRun: NEWER });
    expect(Object.keys(await redis.hgetall(store.keys.claims(BOT, 'MLSNumber'))).sort()).toEqual(['K', 'L']);
    passed = true;
  });
  it('handles a delete batch larger than one HMGET chunk (1,200 keys in one job)', async () => {
    await store.runs.createRun({ id: RUN, chatbot: BOT, trigger: 'cli', forced: false, status: 'enqueuing', startedAt: 1 });
    await store.runs.addRunJobs(RUN, BOT, ['jDel']);
    await store.runs.sealRun(RUN, BOT, 1, 2);
    const keys = Array.from({ length: 1200 }, (_, i) => `K${i}`);
    const ledgerKey = store.keys.ledger(BOT, 'MLSNumber');
    await redis.hset(ledgerKey, Object.fromEntries(keys.map((key) => [key, encodeLedgerEntry(entry(OLD, key))])));
    await redis.hset(ledgerKey, 'K1100', encodeLedgerEntry(entry(NEWER, 'k')));
    const superseded = await store.jobFinish.finishJob({
      chatbot: BOT,
      keyType: 'MLSNumber',
      runId: RUN,
      jobId: 'jDel',
      outcome: 'deleted',
      weight: 1200,
      attempt: 1,
      now: 10,
      mode: 'delete',
      keys,
    });
    expect(superseded).toBe(1);
    expect(await redis.hkeys(ledgerKey)).toEqual(['K1100']);
    expect(await redis.hlen(store.keys.tombstones(BOT, 'MLSNumber'))).toBe(1199);
    expect((await store.runs.getRun(RUN))?.counts).toMatchObject({ deleted: 1200, finishedJobs: 1 });
    passed = true;
  });
});
