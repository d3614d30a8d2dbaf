/**
 * What a person at an 80-column terminal sees of a `sync --work` they stop with Ctrl-C: the way
 * to finish the run (`runs resume ID --work`) and to stop it (`runs cancel ID`) shown whole,
 * the message wrapped at the terminal's width and never cut; the bars say rows, rate and ETA.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { startOnTerminal, terminalText, type TerminalProcess } from '../helpers/terminal-process.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const BOT = 'bot-terminal';
const ROWS = 1500;
const COLUMNS = 80;
const bench = useSyncBench('terminal-width');
let terminal: TerminalProcess | undefined;

afterEach(() => {
  terminal?.kill();
  terminal = undefined;
});

describe('sync --work on an 80-column terminal', () => {
  it('after Ctrl-C shows the resume and cancel commands whole, wrapped at the width and never cut', async () => {
    const { sim, env, dir } = await bench.open({ chatbots: [BOT], faults: { latencyMs: 20 } });
    const feed = writeNativeCsv(
      dir,
      'feed.csv',
      Array.from({ length: ROWS }, (_, i) => nativeCsvRow(sampleListing(i))),
    );
    terminal = startOnTerminal(['sync', '--chatbot', BOT, '--feed', feed, '--work', '--concurrency', '2'], env, COLUMNS);
    // The plan is shown while the run goes on, and the jobs bar counts jobs with a rate.
    await terminal.waitFor(/plan {4}create 1,?500, update 0, delete 0/, 60_000);
    await terminal.waitFor(/jobs .*\d+\/1,500 jobs .*jobs\/s/, 60_000);
    const until = Date.now() + 30_000;
    while (sim.state.listings(BOT).length < 50 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    terminal.interrupt();
    await terminal.waitFor(/runs cancel/, 30_000);
    expect(await terminal.exited()).toBe(1);

    const raw = terminal.raw();
    const text = terminalText(raw);
    const runId = /runs resume (run-[0-9a-z-]+) --work/.exec(text)?.[1] ?? '';
    expect(runId, text).not.toBe('');
    const shown = text.split('\n');
    expect(shown.some((line) => line.includes(`\`listing-sync runs resume ${runId} --work\``))).toBe(true);
    expect(shown.some((line) => line.includes(`\`listing-sync runs cancel ${runId}\``))).toBe(true);
    // Wrapped at the width: every line shown fits (the bars too), so the terminal never has to cut or break one.
    // (A leading ^C is the terminal's echo of the key, not the CLI's.)
    for (const shownLine of shown) expect(shownLine.replace(/^\^C/, '').length, shownLine).toBeLessThanOrEqual(COLUMNS);
    // Line wrapping is never switched off (a switched-off terminal cuts what runs past its edge).
    expect(raw).not.toContain('\u001b[?7l');
    // The chatbot started empty: its read is done at once (not "0/1 0%"); the feed's rows are counted, its size in kB.
    expect(text).toMatch(/^ remote .*0 listings, done · in \d+:\d\d$/m);
    expect(text).toMatch(/^ feed .*1,500 rows \([\d.]+ kB\), done/m);
    // The bars count rows and listings, never bytes.
    expect(text).not.toMatch(/\b\d{5,}\/\d{5,}\b/);
  }, 120_000);
});
