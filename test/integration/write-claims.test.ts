/**
 * Writes that cannot collide, whatever runs: the key claim folded into the pre-write probe, the
 * look-up-first rules (a claim in doubt, a Redis restart since the run was planned), and the
 * reconciler ending runs whose jobs left the queue. Real Redis, the simulator over HTTP, and
 * runs enqueued straight into the queue, bypassing the chatbot lease on purpose: the claims must
 * hold on their own.
 */
import { describe, expect, it } from 'vitest';
import { reconcileRun } from '../../src/queue/reconcile-run.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { createListingDataSchema, createListingJob } from '../../jobs/create-listing.js';
import { listingJobSpecs } from '../../jobs/support/listing-job-specs.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { DEFAULT_RETRY_TABLE } from '../../src/api/retry-policy.js';
import { CLAIM_MS } from '../../src/store/write-claims.js';
import { SEND_FENCE_MS } from '../../jobs/support/send-window.js';
import { enqueueAsSync, feedContent, feedOf, nextRunId, queueBenchPerTest, simContent } from '../helpers/queue.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

const BOT = 'bot-claims';

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
const openBench = queueBenchPerTest();

describe('key claims', () => {
  it('two runs creating the same keys at once, in two worker sets, under dropped connections: every key created once, zero duplicate creates', async () => {
    const bench = await openBench({ chatbots: [BOT], faults: { seed: 3, commitThenDropRate: 0.08, latencyMs: 15, jitterMs: 5 } }, 'claims');
    await bench.work({ concurrency: 8 });
    await bench.work({ concurrency: 8 });
    // Rounds of 8 keys: both runs' jobs for a key are in flight together (16 slots), which is
    // where two probes see no ledger entry and, without a claim, both create.
    const feed = feedOf(BOT, 0, 80);
    for (let from = 0; from < feed.length; from += 8) {
      // The feed so far (the plan mirrors it): its 8 newest keys are the creates.
      const sofar = feedOf(BOT, 0, from + 8);
      const [planA, planB] = [await bench.plan(BOT, sofar), await bench.plan(BOT, sofar)];
      expect([planA.creates.length, planB.creates.length]).toEqual([8, 8]);
      // Two runs of one chatbot at once, past its lease (which would refuse the second): the claims alone must hold.
      const [runA, runB] = await Promise.all([
        enqueueAsSync(bench, planA, { runId: nextRunId(), holdChatbot: false }),
        enqueueAsSync(bench, planB, { runId: nextRunId(), holdChatbot: false }),
      ]);
      const [countsA, countsB] = await Promise.all([
        waitForRun(bench.store, runA, { pollMs: 20 }),
        waitForRun(bench.store, runB, { pollMs: 20 }),
      ]);
      expect(countsA.failed + countsB.failed).toBe(0);
    }
    expect(bench.sim.state.duplicateCreates(BOT)).toEqual([]);
    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    // Every key claimed and released: no claim is left behind.
    expect(await bench.redis.hlen(bench.store.keys.claims(BOT, 'MLSNumber'))).toBe(0);
  }, 60_000);

  it('a job finding its key claimed by a live job waits without using an attempt; an expired or doubtful claim makes it look the key up', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'claims');
    const runId = nextRunId();
    await bench.store.runs.createRun({ id: runId, chatbot: BOT, trigger: 'cli', forced: false, status: 'running', startedAt: Date.now() });
    const target = { chatbot: BOT, keyType: 'MLSNumber' as const, key: 'ML1', runId, jobId: 'job-a', attempt: 'a1' };
    expect(await bench.store.claims.prepareWrite(target)).toMatchObject({ kind: 'go', inDoubt: false, redisRestarted: false });
    const waiting = await bench.store.claims.prepareWrite({ ...target, jobId: 'job-b', attempt: 'b1' });
    expect(waiting).toMatchObject({ kind: 'claimed', byJob: 'job-a', earlierAttempt: false });
    // The same start probing again (a probe re-sent after a reconnect) keeps its claim.
    expect(await bench.store.claims.prepareWrite(target)).toMatchObject({ kind: 'go', inDoubt: false });
    // An expired claim of another job: go, but in doubt.
    await bench.store.claims.prepareWrite({ ...target, key: 'ML2' }, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await bench.store.claims.prepareWrite({ ...target, key: 'ML2', jobId: 'job-c', attempt: 'c1' })).toMatchObject({
      kind: 'go',
      inDoubt: true,
    });
    // A final failure leaves its claim as doubt: the next writer looks up first.
    await bench.store.jobFinish.finishJob({
      chatbot: BOT,
      keyType: 'MLSNumber',
      runId,
      jobId: 'job-a',
      outcome: 'failed',
      weight: 1,
      attempt: 3,
      now: Date.now(),
      mode: 'fail',
      failures: [{ key: 'ML1', jobId: 'job-a', runId, code: 'X', message: 'x', attempts: 3, at: 1 }],
    });
    expect(await bench.store.claims.prepareWrite({ ...target, jobId: 'job-d', attempt: 'd1' })).toMatchObject({
      kind: 'go',
      inDoubt: true,
    });
    // A written key releases its claim.
    await bench.store.jobFinish.finishJob({
      chatbot: BOT,
      keyType: 'MLSNumber',
      runId,
      jobId: 'job-d',
      outcome: 'created',
      weight: 1,
      attempt: 1,
      now: Date.now(),
      mode: 'write',
      writes: [{ key: 'ML1', entry: { hash: 'h', runId, writtenAt: 1 } }],
    });
    expect(await bench.redis.hget(bench.store.keys.claims(BOT, 'MLSNumber'), 'ML1')).toBeNull();
  });

  it("a second start of a job (its first start's lock lost in an outage, still running) waits for the first start's send window; past it, takes over and looks up", async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'claims');
    const runId = nextRunId();
    await bench.store.runs.createRun({ id: runId, chatbot: BOT, trigger: 'cli', forced: false, status: 'running', startedAt: Date.now() });
    const first = { chatbot: BOT, keyType: 'MLSNumber' as const, key: 'ML1', runId, jobId: 'job-a', attempt: 'token-1' };
    const second = { ...first, attempt: 'token-2' };
    expect(await bench.store.claims.prepareWrite(first, CLAIM_MS, 60_000)).toMatchObject({ kind: 'go', inDoubt: false });
    const held = await bench.store.claims.prepareWrite(second, CLAIM_MS, 60_000);
    expect(held).toMatchObject({ kind: 'claimed', byJob: 'job-a', earlierAttempt: true });
    expect(held.kind === 'claimed' && held.retryInMs).toBeGreaterThan(55_000);
    // The window counts from the first start's last probe: with a 50 ms window, 60 ms later it is over.
    expect(await bench.store.claims.prepareWrite(first, CLAIM_MS, 50)).toMatchObject({ kind: 'go' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await bench.store.claims.prepareWrite(second, CLAIM_MS, 50)).toMatchObject({ kind: 'go', inDoubt: true });
    // Now the first start is the one that waits: it must not send beside the second.
    expect(await bench.store.claims.prepareWrite(first, CLAIM_MS, 60_000)).toMatchObject({ kind: 'claimed', earlierAttempt: true });
  });

  it('two starts of one create job running at once (a lock lost while the first is sending): one create reaches the service, the other start adopts it', async () => {
    const bench = await openBench({ chatbots: [BOT], faults: { latencyMs: 60 } }, 'claims');
    const [listing] = feedOf(BOT, 0, 1);
    const plan = await bench.plan(BOT, [listing as NonNullable<typeof listing>]);
    const runId = nextRunId();
    await bench.store.runs.createRun({ id: runId, chatbot: BOT, trigger: 'cli', forced: false, status: 'running', startedAt: Date.now() });
    const [spec] = listingJobSpecs(plan, runId);
    const data = createListingDataSchema.parse(spec?.data);
    const deps = { api: bench.api, retryTable: DEFAULT_RETRY_TABLE, store: bench.store, logger: silentLogger(), now: () => Date.now() };
    const start = (attemptToken: string, attemptsStarted: number) =>
      createListingJob.process(
        { id: 'job-1', name: 'create-listing', data, attemptsMade: 0, attemptsStarted, attemptToken, runId, log: () => undefined },
        deps,
      );
    const firstStart = start('token-1', 1);
    await until(() => bench.sim.state.inFlight() > 0); // the first start's create is on its way
    // The second start (BullMQ re-ran the job) is told to wait, not to create beside it.
    await expect(start('token-2', 2)).rejects.toMatchObject({ code: ErrorCode.KEY_CLAIMED });
    await expect(firstStart).resolves.toMatchObject({ outcome: 'created' });
    // Once the first start recorded its write, the second looks up and adopts what it created.
    await expect(start('token-2', 2)).resolves.toMatchObject({ outcome: 'created', note: 'found by lookup' });
    expect(bench.sim.state.callCounts().createListing).toBe(1);
    expect(bench.sim.state.duplicateCreates(BOT)).toEqual([]);
  });

  it('a create that could not be sent within its fence after the probe (a slow lookup) confirms its claim again, then sends once', async () => {
    const bench = await openBench({ chatbots: [BOT], faults: { latencyMs: SEND_FENCE_MS + 200 } }, 'claims');
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 1));
    const runId = nextRunId();
    await bench.store.runs.createRun({ id: runId, chatbot: BOT, trigger: 'cli', forced: false, status: 'running', startedAt: Date.now() });
    const data = createListingDataSchema.parse([...listingJobSpecs(plan, runId)][0]?.data);
    const deps = { api: bench.api, retryTable: DEFAULT_RETRY_TABLE, store: bench.store, logger: silentLogger(), now: () => Date.now() };
    const lines: string[] = [];
    // A second start: it looks the key up first, which takes longer than the fence.
    const ctx = {
      id: 'job-1',
      name: 'create-listing',
      data,
      attemptsMade: 1,
      attemptsStarted: 2,
      attemptToken: 't2',
      runId,
      log: (line: string) => lines.push(line),
    };
    await expect(createListingJob.process(ctx, deps)).resolves.toMatchObject({ outcome: 'created' });
    expect(lines.filter((line) => line.includes('confirming it again'))).toHaveLength(1);
    expect(bench.sim.state.callCounts().createListing).toBe(1);
  }, 20_000);

  it('after a Redis restart (the run_id stored on the run differs), creates look up first: a listing whose create reached the service but whose record was lost is adopted, not created again', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'claims');
    const feed = feedOf(BOT, 0, 5);
    const plan = await bench.plan(BOT, feed);
    // As if the first two creates reached the service and Redis then lost their outcomes.
    bench.sim.state.seed(BOT, feed.slice(0, 2));
    const runId = await bench.enqueue(plan);
    // The run was planned on a Redis whose run_id is not the one answering now.
    await bench.redis.hset(bench.store.keys.run(BOT, runId), 'server', 'a-redis-that-is-gone');
    await bench.work({ concurrency: 4 });
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    expect(counts).toMatchObject({ created: 5, failed: 0 });
    expect(bench.sim.state.duplicateCreates(BOT)).toEqual([]);
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
  });
});

describe('the reconciler', () => {
  it('ends a run whose job was removed by hand: the lost job is recorded as failed and the run ends failed, its chatbot freed', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'claims');
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 4));
    const runId = await bench.enqueue(plan);
    await bench.store.leases.acquire(BOT, runId, 'test');
    const [removed] = await bench.store.runs.jobsOfRun(runId);
    expect(await bench.queues.writes.remove(removed ?? '')).toBe(1);
    await bench.work({ concurrency: 4 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await bench.store.runs.getRun(runId))?.status).toBe('running');

    const result = await reconcileRun(bench.store, bench.queues.writes, runId, Date.now(), {
      staleLeaseMs: 30_000,
      inspectAfterMs: 0,
      stuckAfterMs: 60_000,
    });
    expect(result).toMatchObject({ status: 'failed', recorded: 1, remaining: 0 });
    expect((await bench.store.runs.getRun(runId))?.counts).toMatchObject({ created: 3, failedJobs: 1, finishedJobs: 4 });
    expect(await bench.store.leases.holder(BOT)).toBeUndefined();
    expect(await bench.store.runs.openRuns()).not.toContain(runId);
  });

  it('seals an enqueuing run whose enqueuer died (its lease stale): the jobs it listed but never added are lost, the others run', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'claims');
    const runId = nextRunId();
    await bench.store.runs.createRun({
      id: runId,
      chatbot: BOT,
      trigger: 'cli',
      forced: false,
      status: 'enqueuing',
      startedAt: Date.now(),
    });
    await bench.store.runs.addRunJobs(runId, BOT, ['never-added-1', 'never-added-2']);
    await bench.store.leases.acquire(BOT, runId, 'a process that died');
    const live = await reconcileRun(bench.store, bench.queues.writes, runId, Date.now());
    expect(live.status).toBe('enqueuing');
    await bench.store.leases.markIdle(BOT, runId);
    const sealed = await reconcileRun(bench.store, bench.queues.writes, runId, Date.now());
    expect(sealed).toMatchObject({ status: 'failed', recorded: 2 });
    expect((await bench.store.runs.getRun(runId))?.counts).toMatchObject({ totalJobs: 2, finishedJobs: 2, failedJobs: 2 });
  });

  it('marks a run stuck when its jobs make no progress and none is being worked on, and it still ends when they finish', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'claims');
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 3));
    const runId = await bench.enqueue(plan);
    const options = { staleLeaseMs: 30_000, inspectAfterMs: 0, stuckAfterMs: 0 };
    const stuck = await reconcileRun(bench.store, bench.queues.writes, runId, Date.now() + 1, options);
    expect(stuck).toMatchObject({ status: 'stuck', remaining: 3 });
    expect((await bench.store.runs.getRun(runId))?.stuckReason).toMatch(/3 job\(s\) without progress/);
    await bench.work({ concurrency: 4 });
    for (let i = 0; i < 100 && (await bench.store.runs.getRun(runId))?.status !== 'done'; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const run = await bench.store.runs.getRun(runId);
    expect(run?.status).toBe('done');
    expect(run?.counts.created).toBe(3);
  });
});
