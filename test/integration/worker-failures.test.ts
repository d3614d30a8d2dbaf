import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { listFailedJobs, retryJobs } from '../../src/queue/failed-jobs.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedOf, queueBenchPerTest, waitingJobs } from '../helpers/queue.js';

const BOT = 'bot-fail';
const openBench = queueBenchPerTest();

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('failures the queue must handle', () => {
  it('fails a non-retryable envelope error at once with its Code and Message, then a retry succeeds once the cause is fixed', async () => {
    const bench = await openBench({ chatbots: ['other'] }, 'fatal');
    // The chatbot does not exist on the service yet: envelope Code 404, which no retry can fix.
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 3));
    await bench.work();
    const runId = await bench.enqueue(plan);
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    expect(counts).toMatchObject({ failed: 3, failedJobs: 3, created: 0, retried: 0 });
    expect((await bench.store.runs.getRun(runId))?.status).toBe('failed');
    const failed = await listFailedJobs(bench.queues.writes, bench.store, runId);
    expect(failed).toHaveLength(3);
    for (const row of failed) {
      expect(row).toMatchObject({ chatbot: BOT, attempts: 1, code: 'ENVELOPE_FAILURE 404' });
      expect(row.message).toContain(`chatbot ${BOT} not found`);
    }
    expect([...(await bench.store.failedKeys.failedKeys(BOT, 'MLSNumber')).keys()].sort()).toEqual(plan.creates.map((c) => c.key).sort());

    bench.sim.state.addChatbot(BOT);
    const { retried } = await retryJobs(bench.queues.writes, bench.store, { runId });
    expect(retried).toHaveLength(3);
    await until(async () => (await bench.store.runs.runCounts(runId)).created === 3);
    expect(await bench.store.runs.runCounts(runId)).toMatchObject({ created: 3, failed: 0, failedJobs: 0 });
    expect((await bench.store.runs.getRun(runId))?.status).toBe('done');
    expect(bench.sim.state.listings(BOT)).toHaveLength(3);
    expect((await bench.store.failedKeys.failedKeys(BOT, 'MLSNumber')).size).toBe(0);
  });

  it('pauses the queue on an authentication failure instead of failing jobs, and finishes once resumed with good credentials', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'auth');
    const badApi = createApiClient({
      baseUrl: bench.sim.baseUrl,
      siteUrl: bench.sim.siteUrl,
      credentials: { ...bench.sim.credentials, secretKey: 'wrong-secret', sessionKey: 'wrong-session' },
    });
    try {
      const plan = await bench.plan(BOT, feedOf(BOT, 0, 5));
      const bad = await bench.work({ concurrency: 2 }, badApi);
      const runId = await bench.enqueue(plan);
      await until(async () => await bench.queues.writes.isPaused());
      await bad.close();
      const jobCounts = await bench.queues.writes.getJobCounts('failed', 'active', 'delayed');
      expect(jobCounts.failed).toBe(0);
      expect(await waitingJobs(bench.queues.writes)).toBe(5);
      expect(await bench.store.runs.runCounts(runId)).toMatchObject({ failed: 0, finishedJobs: 0 });

      await bench.queues.writes.resume();
      await bench.work();
      expect(await waitForRun(bench.store, runId, { pollMs: 50 })).toMatchObject({ created: 5, failed: 0 });
      expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    } finally {
      await badApi.close();
    }
  });
});
