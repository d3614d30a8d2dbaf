/**
 * `sync --work` enqueues its run at the pace its own workers take the jobs (src/queue/enqueue-pace.ts).
 * What a user relies on must not change with it: a Ctrl-C or a --timeout while the run is still
 * going in leaves the whole run in the queue (sealed, every job), which `runs resume --work`
 * then finishes with zero duplicate creates.
 */
import { describe, expect, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { expectConverged } from '../helpers/converged.js';
import { startCli } from '../helpers/cli-process.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';
import { CRASH_RECOVERY_ENV } from '../helpers/sim.js';

const BOT = 'bot-pace';
/** More than the pace keeps ahead (500), so that most of the run is still to go in when it stops. */
const ROWS = 2500;
const bench = useSyncBench('sync-pace');

interface RunShown {
  status: string;
  counts: { totalJobs: number; finishedJobs: number };
}

/** A bench whose chatbot exists, the feed of ROWS new listings, and the flags of a slow `sync --work` (~200 writes/s). */
async function slowRun() {
  const opened = await bench.open({ chatbots: [BOT], faults: { latencyMs: 20 } });
  const { sim, dir } = opened;
  const env = { ...opened.env, ...CRASH_RECOVERY_ENV };
  const feed = writeNativeCsv(
    dir,
    'feed.csv',
    Array.from({ length: ROWS }, (_, i) => nativeCsvRow(sampleListing(i))),
  );
  const args = ['sync', '--chatbot', BOT, '--feed', feed, '--work', '--concurrency', '4', '--json'];
  return { sim, env, feed, args };
}

/** The run as `runs show` prints it. */
async function shown(env: Record<string, string>, runId: string): Promise<RunShown> {
  const run = await runCli(['runs', 'show', runId, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return jsonOf<RunShown>(run);
}

describe('sync --work with its enqueue paced by its workers', () => {
  it('a Ctrl-C while the run still goes in leaves every job in the queue; `runs resume --work` finishes it', async () => {
    const { sim, env, feed, args } = await slowRun();
    const sync = startCli(args, env);
    const until = Date.now() + 30_000;
    while (sim.state.listings(BOT).length < 100 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    // At ~200 writes/s the pace holds all but ~600 of the 2,500 jobs back at this point.
    const { code } = await sync.stop('SIGINT');
    expect(code).toBe(1);
    const runId = /runs resume (run-[0-9a-z-]+) --work/.exec(sync.stderr())?.[1] ?? '';
    expect(runId, sync.stderr()).not.toBe('');
    expect(sync.stderr()).not.toMatch(/internal error|\n\s+at /);
    expect(await shown(env, runId)).toMatchObject({ status: 'running', counts: { totalJobs: ROWS } });

    sim.state.setFaults({ latencyMs: 0 });
    const resumed = await runCli(['runs', 'resume', runId, '--work', '--json'], env, 60_000);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(jsonOf<{ status: string }>(resumed).status).toBe('done');
    await expectConverged(sim, BOT, ROWS, feed, env);
  }, 90_000);

  it('a sync --work killed while its run still goes in: once its lease is stale the chatbot is freed or `runs resume` finishes the run, and the feed converges with zero duplicate creates', async () => {
    const { sim, env, feed, args } = await slowRun();
    const sync = startCli(args, env);
    const until = Date.now() + 30_000;
    while (sim.state.listings(BOT).length < 100 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    await sync.stop('SIGKILL');
    const killedAt = Date.now();
    sim.state.setFaults({ latencyMs: 0 });

    // The dead process's run holds the chatbot until its lease is stale (30 s without a heartbeat).
    // Then the next sync takes over once that run is over, or names `runs resume` while its
    // jobs wait: resumed, they run under their own ids and claims (those the dead process held
    // once their locks expire); the jobs the pace never added were never listed.
    // Why --wait-for-lock: a sync's workers start before it asks for the chatbot, and the jobs
    // they take of the dead run beat its lease; a sync refused at once stops them after a few
    // jobs, so retrying without a wait converged only as fast as this machine started processes.
    const waiting = [...args, '--wait-for-lock', '90s'];
    let next = await runCli(waiting, env, 120_000);
    const resumed: number[] = [];
    while (next.code === 3 && Date.now() < killedAt + 120_000) {
      const interrupted = /runs resume (run-[0-9a-z-]+) --work/.exec(next.stderr)?.[1];
      if (interrupted === undefined) await new Promise((resolve) => setTimeout(resolve, 2000));
      else resumed.push((await runCli(['runs', 'resume', interrupted, '--work', '--json'], env, 90_000)).code ?? -1);
      next = await runCli(waiting, env, 120_000);
    }
    expect(next.code, next.stderr).toBe(0);
    expect(Date.now() - killedAt).toBeGreaterThan(25_000);
    expect(resumed.every((code) => code === 0)).toBe(true);
    await expectConverged(sim, BOT, ROWS, feed, env);
  }, 240_000);

  it('--timeout counts from the first job: the command stops waiting in time, and the run is in the queue whole', async () => {
    const { sim, env, args } = await slowRun();
    // The whole run would take ~13 s at ~200 writes/s: the command gives up waiting long before.
    const run = await runCli([...args, '--timeout', '2s'], env, 60_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/has not finished after 2 s/);
    const runId = /run (run-[0-9a-z-]+) has not finished/.exec(run.stderr)?.[1] ?? '';
    const left = await shown(env, runId);
    expect(left.counts.totalJobs).toBe(ROWS);
    // It stopped waiting while the run still had work: what it wrote is less than the run, and the rest is queued.
    expect(left.counts.finishedJobs).toBeLessThan(ROWS);
    expect(sim.state.listings(BOT).length).toBeLessThan(ROWS);
  }, 120_000);
});
