/**
 * `sync --work` and `sync --wait` as processes: a run converges (the simulator's listings equal
 * the feed) and reports its `result`; the same feed again sends zero writes; failed jobs exit 1
 * and are listed with their Code/Message; plain `sync` only enqueues and prints the run id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { CLI_ENTRY, runCli, type CliRun, jsonOf } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-work';
/**
 * 8 rows against the remote below: create ML100010 and ML100011, update ML100002 (RentPrice)
 * and ML100003 (Bedrooms, Description), delete ML100005 and the extra copy of ML100001,
 * ML100012 rejected (Bedrooms '=HYPERLINK("x")').
 */
const FEED = join(resolve(import.meta.dirname, '../../fixtures/sync'), 'dry-run.csv');
/** Under which that plan passes the guard. */
const PASSING = ['--delete-scope', 'all', '--max-deletes', '1', '--max-rejected', '20%'];
const FEED_KEYS = ['ML100000', 'ML100001', 'ML100002', 'ML100003', 'ML100004', 'ML100010', 'ML100011'];

let sim: RunningSimulator | undefined;
let prefix = '';
let worker: ChildProcess | undefined;

afterEach(async (ctx) => {
  if (worker && worker.exitCode === null && worker.signalCode === null) {
    const exited = new Promise((done) => worker?.once('exit', done));
    worker.kill('SIGKILL');
    await exited;
  }
  worker = undefined;
  await sim?.close();
  sim = undefined;
  // Kept when the test failed, to look at; never clean an empty prefix (that would match every key).
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

async function setup(extra: Record<string, string> = {}): Promise<{ s: RunningSimulator; env: Record<string, string> }> {
  prefix = uniquePrefix('sync-work');
  const s = await startTestSim({ chatbots: [BOT], listings: { [BOT]: [0, 1, 2, 3, 4, 5, 1].map((i) => sampleListing(i)) } });
  sim = s;
  return { s, env: cliEnv(s, redisUrl, prefix, extra) };
}

interface Summary {
  runId: string;
  plan: { create: number; update: number; delete: number; unchanged: number };
  guard: { ok: boolean; reasons: string[]; forced: boolean };
  jobs?: number;
  result?: { created: number; updated: number; deleted: number; failed: number };
}

const summaryOf = (run: CliRun): Summary => jsonOf<Summary>(run);

function sync(...flags: string[]): string[] {
  return ['sync', '--chatbot', BOT, '--feed', FEED, ...PASSING, ...flags];
}

function keysOf(s: RunningSimulator): string[] {
  return s.state
    .listings(BOT)
    .map((listing) => listing.MLSNumber)
    .sort();
}

describe('sync --work', () => {
  it('rides out the service rate limit quietly: converges, exit 0, and no warning on stderr at the default log level', async () => {
    const { s, env } = await setup({ LOG_LEVEL: 'info' });
    s.state.setFaults({ rateLimitRate: 0.3, seed: 7 });
    const run = await runCli(sync('--work', '--json'), env, 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(keysOf(s)).toEqual(FEED_KEYS);
    expect(s.state.calls().filter((call) => call.status === 429).length, 'the service did rate-limit the run').toBeGreaterThan(0);
    const loud = run.stderr
      .split('\n')
      .filter((line) => line.trim() !== '')
      .filter((line) => !line.startsWith('{') || (JSON.parse(line) as { level: number }).level >= 40);
    expect(loud, run.stderr).toEqual([]);
    // Nor a line per 429 at the default level: the result's `retried` counts them.
    expect(run.stderr).not.toMatch(/service rate limit/);
  });

  it('converges: the chatbot equals the feed, result counts what was done, exit 0; the same feed again writes nothing', async () => {
    const { s, env } = await setup();
    const run = await runCli(sync('--work', '--json'), env);
    expect(run.code, run.stderr).toBe(0);
    const summary = summaryOf(run);
    expect(summary.plan).toMatchObject({ create: 2, update: 2, delete: 2, unchanged: 3 });
    expect(summary.result).toMatchObject({ created: 2, updated: 2, deleted: 2, failed: 0 });

    expect(keysOf(s)).toEqual(FEED_KEYS);
    const byKey = new Map(s.state.listings(BOT).map((listing) => [listing.MLSNumber, listing]));
    expect(byKey.get('ML100002')?.RentPrice).toBe(1950);
    expect(byKey.get('ML100003')).toMatchObject({ Bedrooms: 5, Description: '=HYPERLINK("x")' });
    expect(byKey.get('ML100010')).toMatchObject({
      City: 'Lakeside',
      SalePrice: 310000,
      Images: ['https://example.test/img/10-1.jpg', 'https://example.test/img/10-2.jpg'],
    });
    expect(byKey.get('ML100011')).toMatchObject({ SaleType: 'for_rent', RentPrice: 2600, DepositFee: 1500 });

    s.state.resetCounters();
    const again = await runCli(sync('--work', '--json'), env);
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again).plan).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 7 });
    expect(summaryOf(again).result).toMatchObject({ created: 0, updated: 0, deleted: 0, failed: 0 });
    expect(s.state.writeCalls()).toBe(0);
    expect(keysOf(s)).toEqual(FEED_KEYS);
  });

  it('exits 1 when jobs fail for good, and `jobs failed --run` lists them with Code and Message', async () => {
    const { s, env } = await setup({ LISTING_SYNC_ATTEMPTS: '1' });
    s.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
    const run = await runCli(sync('--work', '--json'), env);
    expect(run.code, run.stderr).toBe(1);
    const summary = summaryOf(run);
    expect(summary.result).toMatchObject({ created: 0, updated: 2, deleted: 2, failed: 2 });
    expect(keysOf(s)).not.toContain('ML100010');

    const failed = await runCli(['jobs', 'failed', '--run', summary.runId, '--json'], env);
    expect(failed.code, failed.stderr).toBe(1);
    const rows = (
      JSON.parse(failed.stdout) as { failed: Array<{ chatbot: string; key: string; attempts: number; code: string; message: string }> }
    ).failed;
    expect(rows.map((row) => row.key).sort()).toEqual(['ML100010', 'ML100011']);
    for (const row of rows) {
      expect(row).toMatchObject({ chatbot: BOT, attempts: 1 });
      expect(row.code).toContain('500');
      expect(row.message).toContain('Internal error, try again');
    }
  });

  it('exits 3 without writing or waiting when the guard refuses', async () => {
    const { s, env } = await setup();
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', FEED, '--work', '--json'], env);
    expect(run.code, run.stderr).toBe(3);
    expect(summaryOf(run).result).toBeUndefined();
    expect(s.state.writeCalls()).toBe(0);
  });
});

describe('sync without --work', () => {
  it('only enqueues: prints the run id, exits 0, and the jobs wait in the queue', async () => {
    const { s, env } = await setup();
    const run = await runCli(sync(), env);
    expect(run.code, run.stderr).toBe(0);
    const runId = /run (\S+) · chatbot bot-work/.exec(run.stdout)?.[1];
    expect(runId).toBeDefined();
    expect(run.stdout).toContain(`listing-sync runs show ${runId}`);
    expect(run.stdout).toContain('jobs    6 enqueued');
    expect(s.state.writeCalls()).toBe(0);

    const shown = await runCli(['runs', 'show', runId ?? '', '--json'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: runId, chatbot: BOT, counts: { totalJobs: 6, finishedJobs: 0 } });
  });

  it('--wait waits for a separate worker process, then prints the result and exits 0', async () => {
    const { s, env } = await setup();
    const child = spawn(process.execPath, [CLI_ENTRY, 'worker'], {
      env: { PATH: process.env.PATH ?? '', ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    worker = child;
    let log = '';
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`worker did not start:\n${log}`)), 15_000);
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('workers started')) {
          clearTimeout(timer);
          ok();
        }
      });
      child.once('exit', (code) => fail(new Error(`worker exited ${code}:\n${log}`)));
    });

    const run = await runCli(sync('--wait', '--json'), env);
    expect(run.code, run.stderr).toBe(0);
    expect(summaryOf(run).result).toMatchObject({ created: 2, updated: 2, deleted: 2, failed: 0 });
    expect(keysOf(s)).toEqual(FEED_KEYS);

    const exited = new Promise<number | null>((done) => child.once('exit', done));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
