/**
 * Only listing-sync's own jobs run, each only against the service it was planned for
 * (src/queue/job-seal.ts, job-gate.ts), with the built CLI, the simulator over HTTP and a real Redis:
 * - a delete job added with a plain BullMQ `Queue.add` beside a running worker deletes nothing: it
 *   fails at once (one attempt) saying it was not enqueued by listing-sync; a forged scheduled sync
 *   naming /etc/passwd reads nothing;
 * - a job whose data was edited in Redis after `sync` enqueued it is refused the same way, and the
 *   run's other jobs are written;
 * - a worker configured for another service (a second simulator) writes nothing there, leaves the
 *   jobs waiting with no attempt used, says once which service they are for (at start, too), `doctor`
 *   names it, and a worker for the right service then completes them.
 */
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { linesSaying, startCli, type CliProcess } from '../helpers/cli-process.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-seal';
const FEED = join(resolve(import.meta.dirname, '../../fixtures/sync'), 'dry-run.csv');
const NOT_OURS = /was not enqueued by listing-sync \(its signature does not match\); it was not run/;
const ELSEWHERE = /are for the service .* this worker is for .*: they are left waiting for a worker of that service/;

let sims: RunningSimulator[] = [];
let workers: CliProcess[] = [];
let redis: Redis | undefined;
let queues: Queue[] = [];
let prefix = '';

afterEach(async (ctx) => {
  await Promise.all(workers.map((w) => w.kill()));
  await Promise.all(queues.map((q) => q.close()));
  await redis?.quit();
  await Promise.all(sims.map((s) => s.close()));
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  workers = [];
  queues = [];
  sims = [];
  redis = undefined;
  prefix = '';
});

async function sim(listings: number[] = []): Promise<RunningSimulator> {
  const s = await startTestSim({ chatbots: [BOT], listings: { [BOT]: listings.map((i) => sampleListing(i)) } });
  sims.push(s);
  return s;
}

function open(): { redis: Redis; queue: (name: string) => Queue } {
  prefix = uniquePrefix('job-seal');
  redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const connection = redis;
  return {
    redis,
    queue: (name) => {
      const queue = new Queue(name, { connection, prefix });
      queues.push(queue);
      return queue;
    },
  };
}

async function worker(s: RunningSimulator, extra: Record<string, string> = {}): Promise<CliProcess> {
  const started = startCli(['worker', '--concurrency', '4'], cliEnv(s, redisUrl, prefix, { LOG_LEVEL: 'info', ...extra }));
  workers.push(started);
  await started.waitFor(/workers started/, 30_000);
  return started;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached in time: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `sync` of the feed for `s` without workers: the run's jobs are enqueued and left for a worker. */
async function enqueueSync(s: RunningSimulator): Promise<string> {
  const env = cliEnv(s, redisUrl, prefix, { LISTING_SYNC_LISTINGS_PER_JOB: '1' });
  const run = await runCli(['sync', '--chatbot', BOT, '--feed', FEED, '--max-rejected', '20%', '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return jsonOf<{ runId: string }>(run).runId;
}

const feedKeys = ['ML100000', 'ML100001', 'ML100002', 'ML100003', 'ML100004', 'ML100010', 'ML100011'];
const keysOn = (s: RunningSimulator): string[] => s.state.listings(BOT).map((l) => l.MLSNumber);

describe('job seals', () => {
  it('a delete job added with a plain Queue.add is never run: failed at once, one attempt, the listing still there', async () => {
    const s = await sim([0]);
    const { queue } = open();
    await worker(s);
    const writes = queue('listing-writes');
    const data = { runId: 'r-forged', chatbot: BOT, keyType: 'MLSNumber', deleteKeyType: 'MLSNumber', keys: ['ML100000'], ledgerKeys: [] };
    await writes.add('delete-listings', data, { jobId: 'delete.forged', attempts: 5 });
    const syncRuns = queue('sync-runs');
    await syncRuns.add(
      'sync-run',
      { chatbot: BOT, feed: { source: '/etc/passwd', profile: 'native' } },
      { jobId: 'sync.forged', attempts: 3 },
    );

    await until(async () => (await writes.getJobState('delete.forged')) === 'failed', 'the forged delete failed');
    const forged = await writes.getJob('delete.forged');
    expect(forged?.failedReason).toMatch(NOT_OURS);
    expect(forged?.failedReason).toContain('job delete.forged (delete-listings)');
    expect(forged?.attemptsMade).toBe(1);
    expect(keysOn(s)).toEqual(['ML100000']);
    expect(s.state.writeCalls()).toBe(0);

    await until(async () => (await syncRuns.getJobState('sync.forged')) === 'failed', 'the forged sync failed');
    const sync = await syncRuns.getJob('sync.forged');
    expect(sync?.failedReason).toMatch(NOT_OURS);
    expect(sync?.failedReason).not.toContain('root:');
    expect(sync?.attemptsMade).toBe(1);
  });

  it('a job whose data was edited in Redis after enqueue is refused; the run’s other jobs are written', async () => {
    const s = await sim();
    const { redis: r, queue } = open();
    await enqueueSync(s);
    const writes = queue('listing-writes');
    const [victim] = await writes.getJobs(['prioritized', 'wait'], 0, 0);
    // A listing's own job: a write-listings batch of one under the listing's id (jobs/write-listings.ts).
    expect(victim?.name).toBe('write-listings');
    const id = victim?.id ?? '';
    const [item] = (victim?.data as { items: Array<{ id: string; data: { key: string } }> }).items;
    expect(item?.id).toBe(id);
    const key = item?.data.key ?? '';
    const edited = { ...(victim?.data as Record<string, unknown>), force: true };
    await r.hset(`${prefix}:listing-writes:${id}`, 'data', JSON.stringify(edited));

    await worker(s);
    await until(async () => (await writes.getJobState(id)) === 'failed', 'the edited job failed');
    const job = await writes.getJob(id);
    expect(job?.failedReason).toMatch(NOT_OURS);
    expect(job?.attemptsMade).toBe(1);
    const others = feedKeys.filter((k) => k !== key);
    await until(() => others.every((k) => keysOn(s).includes(k)), 'the other listings written');
    expect(keysOn(s)).not.toContain(key);
  });

  it('a worker for another service writes nothing there and uses no attempt; one for the right service completes the jobs', async () => {
    const first = await sim();
    const second = await sim();
    const { queue } = open();
    const wrong = await worker(second);
    const runId = await enqueueSync(first);
    await until(() => ELSEWHERE.test(wrong.stderr()), 'the wrong worker said whose jobs they are');
    const writes = queue('listing-writes');
    // Every job met by the wrong worker at least once: each was put back, its attempts unused.
    await until(async () => (await writes.getJobs(['delayed'])).length === feedKeys.length, 'every job left', 60_000);
    const said = linesSaying(wrong.stderr(), ELSEWHERE);
    expect(said).toHaveLength(1);
    expect(String(said[0]?.msg)).toContain(`run ${runId}`);
    expect(String(said[0]?.msg)).toContain(first.baseUrl.replace(/\/+$/, ''));
    expect(second.state.writeCalls()).toBe(0);
    for (const job of await writes.getJobs(['delayed', 'wait', 'prioritized'])) expect(job.attemptsMade).toBe(0);
    await wrong.stop();

    // `doctor` configured like the wrong worker names the service the waiting jobs are for.
    const doctor = await runCli(['doctor'], cliEnv(second, redisUrl, prefix));
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      new RegExp(`waiting job\\(s\\) \\(run ${runId}, …\\) are for ${first.baseUrl.replace(/\/+$/, '')} \\(credentials [0-9a-f]{12}\\)`),
    );
    const right = await runCli(['doctor', '--json'], cliEnv(first, redisUrl, prefix));
    expect(jsonOf<{ warnings: Array<{ code: string }> }>(right).warnings.map((w) => w.code)).not.toContain('JOB_TARGET');

    // A worker started later for the same wrong service says it at start.
    const again = await worker(second);
    await until(() => ELSEWHERE.test(again.stderr()), 'said at start');
    await again.stop();
    expect(second.state.writeCalls()).toBe(0);

    await worker(first);
    await until(() => feedKeys.every((k) => keysOn(first).includes(k)), 'the right worker wrote every listing', 90_000);
    expect(second.state.writeCalls()).toBe(0);
  });
});
