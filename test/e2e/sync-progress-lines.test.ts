/**
 * A long `sync --work --json` run by a scheduler (stderr not a terminal) is never silent: a
 * progress line at least every 10 s on stderr, each with the elapsed time, the stage, its rate
 * and ETA; the plan as soon as it exists; and stdout holds only the one JSON result.
 */
import { describe, expect, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const BOT = 'bot-progress';
/** At ~100 writes/s (two in flight, 20 ms each) the run lasts well over 10 s. */
const ROWS = 1500;
const bench = useSyncBench('sync-progress');

interface LogLine {
  msg: string;
  elapsedSeconds?: number;
  stage?: string;
  perSecond?: number;
  etaSeconds?: number;
}

describe('sync --work without a terminal', () => {
  it('prints a progress line at least every 10 s on stderr, the plan before the run ends, and only the result on stdout', async () => {
    const { sim, env, dir } = await bench.open({ chatbots: [BOT], faults: { latencyMs: 20 } });
    const feed = writeNativeCsv(
      dir,
      'feed.csv',
      Array.from({ length: ROWS }, (_, i) => nativeCsvRow(sampleListing(i))),
    );
    const args = ['sync', '--chatbot', BOT, '--feed', feed, '--work', '--concurrency', '2', '--json'];
    const run = await runCli(args, { ...env, LOG_LEVEL: 'info' }, 180_000);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf<{ result: { created: number } }>(run).result.created).toBe(ROWS);
    expect(sim.state.listings(BOT)).toHaveLength(ROWS);

    const logged = run.stderr
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
    const progress = logged.filter((line) => line.msg.startsWith('progress'));
    const elapsed = progress.map((line) => line.elapsedSeconds ?? Number.NaN);
    // The run lasted more than 10 s (it has a line past 10 s), and no gap between lines passed 10 s.
    expect(elapsed.at(-1), run.stderr).toBeGreaterThan(10);
    expect(elapsed[0]).toBeLessThanOrEqual(10);
    for (let i = 1; i < elapsed.length; i += 1) expect((elapsed[i] ?? 0) - (elapsed[i - 1] ?? 0)).toBeLessThanOrEqual(10);
    // One elapsed value per line: the command's (a stage's own elapsed time would be a second one).
    for (const line of progress) expect(line.msg.match(/elapsed \d|\bin \d+:\d\d/g), line.msg).toHaveLength(1);
    // While the jobs run, a line says how many, how fast and how long is left.
    const working = progress.filter((line) => line.stage === 'jobs' && line.etaSeconds !== undefined);
    expect(working.length, run.stderr).toBeGreaterThan(0);
    expect(working[0]?.msg).toMatch(/jobs \d[\d,]*\/1,500 jobs · \d+% · \d[\d,]* jobs\/s · ETA \d+:\d\d/);
    expect(working[0]?.perSecond).toBeGreaterThan(0);
    // The plan comes while the run goes on, before its last progress line.
    const plan = logged.findIndex((line) => line.msg.startsWith('plan    create 1,500'));
    expect(plan, run.stderr).toBeGreaterThanOrEqual(0);
    expect(plan).toBeLessThan(logged.lastIndexOf(progress.at(-1) as LogLine));
    // Never raw byte counts.
    expect(run.stderr).not.toMatch(/\b\d{5,}\/\d{5,}\b/);
  }, 200_000);
});
