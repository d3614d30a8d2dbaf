/**
 * What a person at a terminal reads of `sync --work`, and of the lists after it, through the built
 * CLI on a pseudo-terminal of 80 and of 60 columns: the plan, its changes and the guard's verdict
 * once (shown while the run goes on, not again in the result); a jobs bar that keeps its graphic,
 * rate and ETA and never wraps; every count grouped the same way. `runs list` and `jobs failed`
 * have a header and the next step, their --json unchanged.
 */
import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { startOnTerminal, terminalText } from '../helpers/terminal-process.js';
import { CLI_ENTRY, jsonOf, lines, runCli } from '../helpers/run-cli.js';
import { resoFixtures } from '../helpers/reso-fixture.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const BOT = 'bot-once';
/** At ~100 writes/s (two in flight, 20 ms each) a run lasts several seconds: the bars get a rate and an ETA. */
const ROWS = 1500;
const bench = useSyncBench('terminal-once');
const resoFixture = resoFixtures();

/** Runs `sync --work` on a terminal of `columns` to its end; what it showed, as text lines. */
async function syncOnTerminal(env: Record<string, string>, feed: string, columns: number): Promise<string[]> {
  const terminal = startOnTerminal(['sync', '--chatbot', BOT, '--feed', feed, '--work', '--concurrency', '2'], env, columns);
  try {
    const code = await terminal.exited();
    const text = terminalText(terminal.raw());
    expect(code, text).toBe(0);
    return text.split('\n');
  } finally {
    terminal.kill();
  }
}

const startingWith = (shown: readonly string[], head: string): string[] => shown.filter((line) => line.startsWith(head));

/** The bars' lines (every redraw is one), by the stage names they may be shortened to. */
const barLines = (shown: readonly string[]): string[] => shown.filter((line) => /^ (feed|fee|remote|rem|jobs|job) /.test(line));

describe('sync --work on a terminal', () => {
  it('shows the plan, changes and guard once, and bars that fit 80 and 60 columns with their rate and ETA', async () => {
    const { sim, env, dir } = await bench.open({ chatbots: [BOT], faults: { latencyMs: 20 } });
    const created = writeNativeCsv(
      dir,
      'feed.csv',
      Array.from({ length: ROWS }, (_, i) => nativeCsvRow(sampleListing(i))),
    );
    const edited = writeNativeCsv(
      dir,
      'edited.csv',
      Array.from({ length: ROWS }, (_, i) => nativeCsvRow({ ...sampleListing(i), Description: `Renovated ${i}` })),
    );

    for (const [columns, feed] of [
      [80, created],
      [60, edited],
    ] as const) {
      const shown = await syncOnTerminal(env, feed, columns);
      const text = shown.join('\n');
      // Once each: shown as soon as the plan exists, and not again in the result.
      expect(startingWith(shown, 'plan    '), text).toHaveLength(1);
      expect(startingWith(shown, 'guard   '), text).toEqual(['guard   ok']);
      expect(startingWith(shown, 'changes '), text).toHaveLength(feed === edited ? 1 : 0);
      expect(startingWith(shown, 'result  '), text).toHaveLength(1);
      // Every count grouped the same way, in the plan, the bars and the result alike.
      // (A run id's random part may be all digits: ids are left out of this look.)
      expect(text.replace(/\brun-[0-9a-z-]+/g, 'run-ID')).not.toMatch(/\b\d{4,}\b/);
      const plan =
        feed === created
          ? 'plan    create 1,500, update 0, delete 0, unchanged 0'
          : 'plan    create 0, update 1,500, delete 0, unchanged 0';
      expect(shown).toContain(plan);
      expect(shown).toContain('jobs    1,500 enqueued');
      if (feed === edited)
        expect(startingWith(shown, 'changes ')[0]).toMatch(/^changes Description: 1,500 listings, e\.g\. .*\(and 1,497 more\)$/);

      // The bars never wrap, and the running jobs bar keeps its graphic with the rate and the ETA.
      const bars = barLines(shown);
      for (const line of bars) expect(line.length, line).toBeLessThan(columns);
      expect(
        bars.filter((line) => /^ jobs? +\[[#-]+\] [\d,]+\/1,500.* [\d,]+ jobs\/s · ETA \d+:\d\d$/.test(line)).length,
        text,
      ).toBeGreaterThan(0);
    }
    expect(sim.state.listings(BOT)).toHaveLength(ROWS);
  }, 180_000);
});

describe('sync --replicate --work on a terminal', () => {
  it('shows the plan and the guard once, and the replication line', async () => {
    const f = await resoFixture({ chatbots: [BOT], records: 1200, photos: 0, label: 'terminal-once-reso' });
    const args = ['sync', '--chatbot', BOT, '--feed', f.reso.propertyUrl, '--profile', 'reso', '--replicate', '--overlap', '0s', '--work'];
    const terminal = startOnTerminal(args, f.env({ LOG_LEVEL: 'warn' }), 80);
    try {
      const code = await terminal.exited();
      const shown = terminalText(terminal.raw()).split('\n');
      const text = shown.join('\n');
      expect(code, text).toBe(0);
      expect(startingWith(shown, 'plan    '), text).toEqual(['plan    create 1,200, update 0, delete 0, unchanged 0']);
      expect(startingWith(shown, 'guard   '), text).toEqual(['guard   ok']);
      expect(startingWith(shown, 'replication '), text).toHaveLength(1);
      expect(text).toContain('result  created 1,200, updated 0, deleted 0, failed 0');
      for (const line of barLines(shown)) expect(line.length, line).toBeLessThan(80);
    } finally {
      terminal.kill();
    }
    expect(f.sim.state.listings(BOT)).toHaveLength(1200);
  }, 120_000);
});

describe('sync --work into one log file (2>&1)', () => {
  it('writes the plan once: with the progress lines when the run outlasts the first one, not again in the result', async () => {
    const { env, dir } = await bench.open({ chatbots: [BOT], faults: { latencyMs: 20 } });
    const feed = writeNativeCsv(
      dir,
      'feed.csv',
      Array.from({ length: ROWS }, (_, i) => nativeCsvRow(sampleListing(i))),
    );
    const log = join(dir, 'sync.log');
    const fd = openSync(log, 'w');
    const child = spawn(process.execPath, [CLI_ENTRY, 'sync', '--chatbot', BOT, '--feed', feed, '--work', '--concurrency', '2'], {
      env: { PATH: process.env.PATH ?? '', ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', fd, fd],
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const text = readFileSync(log, 'utf8');
    expect(code, text).toBe(0);
    // The run outlasted the first progress line (so the plan was written while it went on) ...
    expect(text).toMatch(/progress, elapsed/);
    // ... and the plan and the guard's verdict are in the file once.
    expect(text.match(/plan {4}create 1,500, update 0, delete 0, unchanged 0/g), text).toHaveLength(1);
    expect(text.match(/guard {3}ok/g), text).toHaveLength(1);
    expect(text).toContain('result  created 1,500, updated 0, deleted 0, failed 0');
  }, 120_000);
});

describe('the lists', () => {
  it('runs list and jobs failed: a header row and the next step; --json unchanged', async () => {
    const { sim, env, dir } = await bench.open({ chatbots: [BOT] });
    const feed = writeNativeCsv(
      dir,
      'feed.csv',
      Array.from({ length: 3 }, (_, i) => nativeCsvRow(sampleListing(i))),
    );
    sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
    const synced = await runCli(
      ['sync', '--chatbot', BOT, '--feed', feed, '--work', '--json'],
      { ...env, LISTING_SYNC_ATTEMPTS: '1' },
      60_000,
    );
    expect(synced.code, synced.stderr).toBe(1);
    const runId = jsonOf<{ runId: string }>(synced).runId;

    const runs = await runCli(['runs', 'list'], env);
    expect(runs.code, runs.stderr).toBe(0);
    expect(lines(runs.stdout)).toEqual([
      expect.stringMatching(/^RUN +CHATBOT +STATUS +TRIGGER +STARTED \(UTC\) +CREATED +UPDATED +DELETED +FAILED +JOBS$/),
      expect.stringMatching(new RegExp(`^${runId} +${BOT} +failed +cli +\\S+Z +0 +0 +0 +3 +3/3$`)),
      `see one run: listing-sync runs show ${runId}`,
    ]);
    const runsJson = await runCli(['runs', 'list', '--json'], env);
    expect(jsonOf<{ runs: Array<{ id: string }> }>(runsJson).runs.map((run) => run.id)).toEqual([runId]);
    expect(runsJson.stdout).not.toContain('see one run');

    const failed = await runCli(['jobs', 'failed'], env);
    expect(failed.code, failed.stderr).toBe(1);
    const shown = lines(failed.stdout);
    expect(shown[0]).toMatch(/^JOB +RUN +CHATBOT +KEY +ATTEMPTS +CODE: MESSAGE$/);
    expect(
      shown
        .slice(1, 4)
        .map((line) => line.split(/ {2,}/)[3])
        .sort(),
    ).toEqual(['ML100000', 'ML100001', 'ML100002']);
    expect(shown.slice(1, 4).every((line) => line.includes(` ${runId} `) && / 1 +ENVELOPE_FAILURE 500: /.test(line))).toBe(true);
    expect(shown.slice(4)).toEqual([`retry: listing-sync jobs retry --run ${runId} [--work]`]);
    const failedJson = await runCli(['jobs', 'failed', '--json'], env);
    expect(Object.keys(JSON.parse(failedJson.stdout) as object)).toEqual(['failed']);
    expect(failedJson.stdout).not.toContain('retry:');
  }, 120_000);
});
