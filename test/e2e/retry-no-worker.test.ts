/**
 * Retrying failed jobs when no worker runs (the built CLI): `jobs retry --run R` says what it
 * re-queued, that no worker runs on the prefix and the command that starts one (exit 0: the jobs
 * are safely queued); `runs resume R --work` then works them and exits 0 with the run's result;
 * `jobs retry --run R --work` does both in one command. With a worker running, no notice.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedOf, openQueueBench, type QueueBench } from '../helpers/queue.js';
import { CLI_ENTRY } from '../helpers/run-cli.js';

const url = inject('redisUrl');
const BOT = 'bot-retry';

let bench: QueueBench | undefined;
let passed = false;

afterEach(async () => {
  await bench?.close(passed);
  bench = undefined;
  passed = false;
});

async function cli(b: QueueBench, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH,
    REDIS_URL: url,
    LISTING_SYNC_PREFIX: b.prefix,
    API_BASE_URL: b.sim.baseUrl,
    SITE_URL: b.sim.siteUrl,
    API_SECRET_KEY: b.sim.credentials.secretKey,
    API_SESSION_KEY: b.sim.credentials.sessionKey,
    PROJECT_AUTH_TOKEN: b.sim.credentials.projectAuthToken,
    LISTING_SYNC_BACKOFF_MS: '5',
    LISTING_SYNC_BACKOFF_MAX_MS: '50',
  };
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((ok) => child.once('close', ok));
  return { code, stdout, stderr };
}

/** A run of two creates that failed for good (their chatbot did not exist), its workers closed, then the chatbot added. */
async function failedRun(label: string): Promise<{ b: QueueBench; runId: string }> {
  const b = await openQueueBench(url, { chatbots: ['someone-else'] }, label);
  bench = b;
  const runId = await b.enqueue(await b.plan(BOT, feedOf(BOT, 0, 2)));
  const workers = await b.work();
  expect(await waitForRun(b.store, runId, { pollMs: 50 })).toMatchObject({ failedJobs: 2 });
  await workers.close();
  expect((await b.store.runs.getRun(runId))?.status).toBe('failed');
  b.sim.state.addChatbot(BOT);
  return { b, runId };
}

describe('jobs retry without a worker', () => {
  it('says no worker runs and how to start one (exit 0); runs resume --work then finishes the run and exits 0', async () => {
    const { b, runId } = await failedRun('retrynow');
    const retried = await cli(b, ['jobs', 'retry', '--run', runId]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain('re-queued 2 jobs');
    expect(retried.stdout).toContain(`no worker is running on prefix ${b.prefix}`);
    expect(retried.stdout).toContain(`npx listing-sync worker --prefix ${b.prefix}`);
    expect(retried.stdout).toContain(`runs resume ${runId} --work`);
    expect(b.sim.state.listings(BOT)).toHaveLength(0);

    const resumed = await cli(b, ['runs', 'resume', runId, '--work']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toContain('nothing to resume');
    expect(resumed.stdout).toContain('created 2, updated 0, deleted 0, failed 0');
    expect((await b.store.runs.getRun(runId))?.status).toBe('done');
    expect(b.sim.state.listings(BOT)).toHaveLength(2);
    passed = true;
  }, 60_000);

  it('jobs retry --run R --work works the retried jobs here and ends with the run done', async () => {
    const { b, runId } = await failedRun('retrywork');
    const run = await cli(b, ['jobs', 'retry', '--run', runId, '--work']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('re-queued 2 jobs');
    expect(run.stdout).toContain('created 2, updated 0, deleted 0, failed 0');
    expect((await b.store.runs.getRun(runId))?.status).toBe('done');
    expect(b.sim.state.listings(BOT)).toHaveLength(2);
    passed = true;
  }, 60_000);

  it('with a worker running on the prefix, the retry prints no notice', async () => {
    const { b, runId } = await failedRun('retryalive');
    await b.work();
    const retried = await cli(b, ['jobs', 'retry', '--run', runId]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain('re-queued 2 jobs');
    expect(retried.stdout).not.toContain('no worker');
    await waitForRun(b.store, runId, { pollMs: 50 });
    passed = true;
  }, 60_000);
});
