/**
 * Jobs the previous release queued under the single-listing names (`create-listing`,
 * `update-listing`, with their old payloads) still run, each as the write-listings batch of one it
 * now is (jobs/legacy-listing-jobs.ts), and the seal still refuses one listing-sync did not enqueue.
 */
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedContent, feedOf, queueBenchPerTest, simContent, type QueueBench } from '../helpers/queue.js';

const BOT = 'bot-legacy';
const openBench = queueBenchPerTest();

interface Batch {
  items: Array<{ id: string; name: string; data: Record<string, unknown> }>;
}

/** Replaces the waiting batch of one `id` by the job the previous release queued for it: its old name and payload, added by `queue`. */
async function asPreviousRelease(bench: QueueBench, id: string, queue: Pick<Queue, 'add'>): Promise<string> {
  const job = await bench.queues.writes.getJob(id);
  expect(job?.name).toBe('write-listings');
  const [item] = (job?.data as Batch).items;
  if (item === undefined) throw new Error(`job ${id} holds no listing`);
  await job?.remove();
  await queue.add(item.name, item.data, { jobId: id, attempts: 3 });
  return item.name;
}

describe('jobs queued under the previous release’s names', () => {
  it('a create-listing and an update-listing job already in Redis run as their listings’ own jobs: exact counts, no duplicate', async () => {
    const bench = await openBench({ chatbots: [BOT], listings: { [BOT]: feedOf(BOT, 0, 3) } }, 'legacy');
    const feed = [...feedOf(BOT, 0, 3, (i) => ({ Description: `changed ${i}` })), ...feedOf(BOT, 3, 6)];
    const plan = await bench.plan(BOT, feed);
    const runId = await bench.enqueue(plan);
    const listed = (await bench.store.runs.listedJobs(runId)).map((job) => job.id);
    const create = listed.find((id) => id.startsWith('create.')) ?? '';
    const update = listed.find((id) => id.startsWith('update.')) ?? '';
    expect(await asPreviousRelease(bench, create, bench.queues.writes)).toBe('create-listing');
    expect(await asPreviousRelease(bench, update, bench.queues.writes)).toBe('update-listing');

    await bench.work();
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    expect(counts).toMatchObject({ created: 3, updated: 3, failed: 0, totalJobs: 6, finishedJobs: 6 });
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    expect(await bench.store.runs.recordedOutcome(create)).toBe('created');
    expect(await bench.store.runs.recordedOutcome(update)).toBe('updated');
  }, 60_000);

  it('an old-name job added without listing-sync’s seal is refused: failed at once, nothing written for its key', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'legacy-unsealed');
    const feed = feedOf(BOT, 0, 3);
    const runId = await bench.enqueue(await bench.plan(BOT, feed));
    const [forged] = (await bench.store.runs.listedJobs(runId)).map((job) => job.id);
    const plain = new Queue('listing-writes', { connection: bench.redis, prefix: bench.prefix });
    try {
      await asPreviousRelease(bench, forged ?? '', plain);
      await bench.work();
      const end = Date.now() + 30_000;
      while ((await plain.getJobState(forged ?? '')) !== 'failed' && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      const job = await plain.getJob(forged ?? '');
      expect(job?.failedReason).toMatch(/was not enqueued by listing-sync/);
      expect(job?.attemptsMade).toBe(1);
      const forgedKey = (job?.data as { key: string }).key;
      const others = feed.filter((listing) => listing.MLSNumber !== forgedKey);
      while (bench.sim.state.listings(BOT).length < others.length && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(simContent(bench, BOT)).toEqual(feedContent(others));
    } finally {
      await plain.close();
    }
  }, 60_000);
});
