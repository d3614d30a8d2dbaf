/**
 * One sync per chatbot, as processes: two `sync --work` of one chatbot started together (the
 * nightly schedule firing during a manual run) under dropped-connection faults; a second sync that
 * waits for the lock; an interrupted `sync --work` finished with `runs resume`; `runs cancel`.
 * Judged by the simulator: every listing once, and zero duplicate creates (a create of a key the
 * chatbot already held, counted even if healed later).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import type { SimFaults } from '../../src/sim/types.js';
import { uniquePrefix } from '../helpers/redis.js';
import { releaseScene } from '../helpers/feed-scenario.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { CLI_ENTRY, jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-overlap';
const ROWS = 400;

let sim: RunningSimulator | undefined;
let prefix = '';
let dir = '';
const children: ChildProcess[] = [];

afterEach(async (ctx) => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    }
  }
  await releaseScene({ sim, dir, redisUrl, prefix, passed: (ctx.task.result?.errors ?? []).length === 0 });
  sim = undefined;
  dir = '';
  prefix = '';
});

function feedFile(rows: number): string {
  const listings = Array.from({ length: rows }, (_, i) => {
    const { SerialNumber: _serial, ...fields } = sampleListing(i);
    return fields;
  });
  const path = join(dir, 'feed.json');
  writeFileSync(path, JSON.stringify(listings));
  return path;
}

async function setup(faults: SimFaults = {}): Promise<{ s: RunningSimulator; env: Record<string, string>; feed: string }> {
  prefix = uniquePrefix('overlap');
  dir = mkdtempSync(join(tmpdir(), 'ls-overlap-'));
  const s = await startTestSim({ chatbots: [BOT], faults });
  sim = s;
  const env = {
    ...simEnv(s),
    REDIS_URL: redisUrl,
    LISTING_SYNC_PREFIX: prefix,
    LISTING_SYNC_BACKOFF_MS: '5',
    LISTING_SYNC_BACKOFF_MAX_MS: '50',
    LISTING_SYNC_ATTEMPTS: '25',
    LOG_LEVEL: 'warn',
  };
  return { s, env, feed: feedFile(ROWS) };
}

/**
 * Removes the queue job that holds the run's first listing, as ops would in bull-board; returns
 * how many of the run's listings it took. It carries the run's first few (jobs/support/listing-batches.ts):
 * the run's job list names it beside each of them (`listing>carrier`).
 */
async function removeFirstCarrier(runId: string): Promise<number> {
  const redis = new Redis(redisUrl);
  const writes = new Queue('listing-writes', { connection: redis, prefix });
  try {
    const listed = await redis.lrange(`${prefix}:ls:run:${runId}:jobs`, 0, -1);
    const carrier = listed[0]?.split('>')[1] ?? '';
    expect(await writes.remove(carrier)).toBe(1);
    return listed.filter((entry) => entry.endsWith(`>${carrier}`)).length;
  } finally {
    await writes.close();
    await redis.quit();
  }
}

function syncArgs(feed: string, ...flags: string[]): string[] {
  return ['sync', '--chatbot', BOT, '--feed', feed, '--json', ...flags];
}

/** Starts the CLI as a child process and collects its output (for runs the test interrupts). */
function startCli(args: readonly string[], env: Record<string, string>): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliRun>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `sync` without --wait/--work: plans and enqueues, returns the run id. */
async function enqueueRun(feed: string, env: Record<string, string>): Promise<string> {
  const enqueued = await runCli(syncArgs(feed), env);
  expect(enqueued.code, enqueued.stderr).toBe(0);
  return jsonOf<Summary>(enqueued).runId;
}

function expectConverged(s: RunningSimulator): void {
  const keys = s.state.listings(BOT).map((l) => l.MLSNumber);
  expect(new Set(keys).size, 'every listing once').toBe(keys.length);
  expect(keys.length).toBe(ROWS);
  expect(s.state.duplicateCreates(BOT), 'duplicate creates').toEqual([]);
}

interface Summary {
  runId: string;
  status?: string;
  result?: { created: number; failed: number };
}

describe('one sync per chatbot', () => {
  it('two sync --work of one chatbot at once under dropped connections: one runs, the other is refused with exit 3 naming it; zero duplicate creates', async () => {
    const { s, env, feed } = await setup({ seed: 7, commitThenDropRate: 0.05, latencyMs: 2 });
    const [a, b] = await Promise.all([runCli(syncArgs(feed, '--work'), env, 60_000), runCli(syncArgs(feed, '--work'), env, 60_000)]);
    const [ran, refused] = a.code === 0 ? [a, b] : [b, a];
    expect(ran.code, ran.stderr).toBe(0);
    expect(refused.code, refused.stderr).toBe(3);
    const runId = jsonOf<Summary>(ran).runId;
    expect(refused.stderr).toContain(`chatbot ${BOT} is being synced by run ${runId}`);
    expect(refused.stderr).toContain('--wait-for-lock');
    expect(refused.stderr).toContain(`listing-sync runs cancel ${runId}`);
    expect(refused.stdout).toBe('');
    expectConverged(s);
  });

  it('with --wait-for-lock the second waits for the first, then finds nothing to write; zero duplicate creates', async () => {
    const { s, env, feed } = await setup({ seed: 11, commitThenDropRate: 0.05, latencyMs: 2 });
    const [a, b] = await Promise.all([
      runCli(syncArgs(feed, '--work', '--wait-for-lock=60s'), env, 60_000),
      runCli(syncArgs(feed, '--work', '--wait-for-lock'), env, 60_000),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const created = [jsonOf<Summary>(a), jsonOf<Summary>(b)].map((summary) => summary.result?.created ?? 0).sort((x, y) => x - y);
    expect(created).toEqual([0, ROWS]);
    expectConverged(s);
  });

  it('an interrupted sync --work is named in the refusal and finished by `runs resume ID --work`', async () => {
    const { s, env, feed } = await setup({ latencyMs: 40 });
    const first = startCli(syncArgs(feed, '--work', '--concurrency', '2'), env);
    await until(() => s.state.listings(BOT).length >= 20, 30_000, 'the first sync to create some listings');
    first.child.kill('SIGINT');
    const interrupted = await first.done;
    expect(interrupted.code).toBe(1);
    expect(interrupted.stderr, 'a Ctrl-C is no internal error').not.toMatch(/internal error|\n\s+at /);
    expect(interrupted.stderr).toMatch(/interrupted: run run-[0-9a-z-]+ goes on in the queue; finish it with `listing-sync runs resume/);
    const runId = /runs resume (run-[0-9a-z-]+) --work/.exec(interrupted.stderr)?.[1] ?? '';

    const refused = await runCli(syncArgs(feed, '--work'), env);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain(`listing-sync runs resume ${runId} --work`);
    expect(refused.stderr).toContain('interrupted');
    // Which run holds the chatbot, since when its process stopped in words, and how to release it.
    expect(refused.stderr).toMatch(
      /held by run run-[0-9a-z-]+ \(started [0-9TZ:-]+, \d+ s ago by [^)]+\), interrupted with \d+ job\(s\) left/,
    );
    expect(refused.stderr).toMatch(/the process working on it was stopped \d+ s ago/);
    expect(refused.stderr).toContain(`release the chatbot by stopping the run with \`listing-sync runs cancel ${runId}\``);
    expect(refused.stderr, 'no duration counted from 1970').not.toMatch(/\d{6,} s\b|\d{4,} d\b/);

    s.state.setFaults({ latencyMs: 0 });
    const resumed = await runCli(['runs', 'resume', runId, '--work', '--json'], env, 60_000);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = jsonOf<Summary>(resumed);
    expect(summary).toMatchObject({ runId, status: 'done' });
    expectConverged(s);

    const again = await runCli(syncArgs(feed, '--work'), env);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonOf<Summary>(again).result).toMatchObject({ created: 0, failed: 0 });
  });

  it('a scheduled run that fires during a manual sync --work is recorded as skipped, and the manual run converges with zero duplicate creates', async () => {
    const { s, env, feed } = await setup({ latencyMs: 30 });
    const manual = startCli(syncArgs(feed, '--work', '--concurrency', '4'), env);
    await until(() => s.state.listings(BOT).length >= 10, 30_000, 'the manual sync to start writing');
    const added = await runCli(['schedule', 'add', 'nightly', '--cron', '* * * * * *', '--chatbot', BOT, '--feed', feed], env);
    expect(added.code, added.stderr).toBe(0);
    const worker = startCli(['worker', '--concurrency', '2'], env);
    let skipped: Array<{ id: string; trigger: string; status: string }> = [];
    const deadline = Date.now() + 20_000;
    while (skipped.length === 0 && Date.now() < deadline) {
      const listed = jsonOf<{ runs: Array<{ id: string; trigger: string; status: string }> }>(
        await runCli(['runs', 'list', '--chatbot', BOT, '--json'], env),
      );
      skipped = listed.runs.filter((run) => run.status === 'skipped');
      if (skipped.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await runCli(['schedule', 'remove', 'nightly'], env)).code).toBe(0);
    expect(skipped[0]).toMatchObject({ trigger: 'schedule', status: 'skipped' });
    const shown = jsonOf<{ summary: { skipped: string } }>(await runCli(['runs', 'show', skipped[0]?.id ?? '', '--json'], env));
    expect(shown.summary.skipped).toContain(`chatbot ${BOT} is being synced by run`);

    s.state.setFaults({ latencyMs: 0 });
    const finished = await manual.done;
    expect(finished.code, finished.stderr).toBe(0);
    worker.child.kill('SIGTERM');
    await worker.done;
    expect(worker.child.exitCode).toBe(0);
    expectConverged(s);
  });

  it('`runs cancel` removes the waiting jobs, frees the chatbot at once, and the next sync finishes the work', async () => {
    const { s, env, feed } = await setup();
    const runId = await enqueueRun(feed, env);
    expect((await runCli(syncArgs(feed), env)).code).toBe(3);

    const cancelled = await runCli(['runs', 'cancel', runId, '--json'], env);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(jsonOf<{ status: string; removed: number }>(cancelled)).toMatchObject({ status: 'cancelled', removed: ROWS });
    const shown = jsonOf<{ status: string }>(await runCli(['runs', 'show', runId, '--json'], env));
    expect(shown.status).toBe('cancelled');

    const next = await runCli(syncArgs(feed, '--work'), env, 60_000);
    expect(next.code, next.stderr).toBe(0);
    expect(jsonOf<Summary>(next).result).toMatchObject({ created: ROWS, failed: 0 });
    expectConverged(s);
  });

  it("a run whose job was removed by hand ends (failed, the job recorded as lost) through a worker process's reconciler; the next sync finishes the work", async () => {
    const { s, env, feed } = await setup();
    const runId = await enqueueRun(feed, env);
    const lost = await removeFirstCarrier(runId);
    expect(lost).toBeGreaterThan(1);
    const worker = startCli(['worker', '--concurrency', '8'], { ...env, LISTING_SYNC_RECONCILE_MS: '300' });
    let shown: { status: string; counts: { created: number; failedJobs: number } } | undefined;
    const deadline = Date.now() + 15_000;
    while (shown?.status !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      shown = jsonOf<typeof shown>(await runCli(['runs', 'show', runId, '--json'], env));
    }
    expect(shown).toMatchObject({ status: 'failed', counts: { created: ROWS - lost, failedJobs: lost } });
    worker.child.kill('SIGTERM');
    expect((await worker.done).stderr).toContain(
      `run ${runId}: ${lost} job${lost === 1 ? '' : 's'} left the queue without finishing; recorded as failed`,
    );

    const next = await runCli(syncArgs(feed, '--work'), env, 60_000);
    expect(next.code, next.stderr).toBe(0);
    expect(jsonOf<Summary>(next).result).toMatchObject({ created: lost, failed: 0 });
    expectConverged(s);
  });

  it('--wait with nobody working says so once, and --timeout ends the wait with exit 1 while the run stays queued', async () => {
    const { env, feed } = await setup();
    const waited = await runCli(syncArgs(feed, '--wait', '--timeout', '12s'), env, 30_000);
    expect(waited.code, waited.stderr).toBe(1);
    const runId = /run (run-[0-9a-z-]+) has not finished after 12 s \(0 of 400 jobs done\); it goes on in the queue/.exec(
      waited.stderr,
    )?.[1];
    expect(runId, waited.stderr).toBeDefined();
    const notices = waited.stderr.split('\n').filter((line) => line.includes('no worker is working on it'));
    expect(notices, waited.stderr).toHaveLength(1);
    expect(notices[0]).toContain(`listing-sync runs resume ${runId} --work`);
  });
});
