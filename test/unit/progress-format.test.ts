/**
 * What the progress display says: counts in rows/listings/jobs (bytes only in MB), the rate, the
 * elapsed time and an ETA; a finished stage frozen; an empty chatbot's remote read done at once.
 */
import { describe, expect, it, vi } from 'vitest';
import { barLine, clock, figuresOf, fittedBarLines, humanBytes, statusLine, type BarState } from '../../src/cli/output/progress-format.js';
import { withoutShown } from '../../src/cli/output/shown-once.js';
import { count, plural } from '../../src/shared/counts.js';
import { createProgressBars, STATUS_EVERY_MS } from '../../src/cli/output/progress.js';
import { createReleaseStack } from '../../src/cli/wiring/release-stack.js';
import type { CliIo } from '../../src/cli/io.js';
import { wrapText } from '../../src/cli/output/wrap-text.js';
import { humanDuration } from '../../src/domain/human-duration.js';

const T0 = 1_700_000_000_000;

describe('progress figures', () => {
  it('group thousands with commas as en-US writes them, rounded to a whole number', () => {
    expect([0, 7, 999, 1000, 12_345.6, 1_234_567, 1e9, -1234].map(count)).toEqual([
      '0',
      '7',
      '999',
      '1,000',
      '12,346',
      '1,234,567',
      '1,000,000,000',
      '-1,234',
    ]);
  });

  it('agree a noun with its count, the count grouped like every other', () => {
    expect([0, 1, 2, 6000].map((n) => plural(n, 'request'))).toEqual(['0 requests', '1 request', '2 requests', '6,000 requests']);
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(1200, 'entry', 'entries')).toBe('1,200 entries');
  });

  it('say the rate, the elapsed time and the ETA of a running stage', () => {
    const jobs: BarState = { name: 'jobs', unit: 'jobs', value: 400, total: 2000, startedAt: T0 };
    const line = barLine(jobs, T0 + 4000);
    expect(line).toContain('400/2,000 jobs · 20% · 100 jobs/s · elapsed 0:04 · ETA 0:16');
    expect(figuresOf(jobs, T0 + 4000)).toMatchObject({ rate: 100, etaMs: 16_000, elapsedMs: 4000 });
  });

  it('count a feed in rows, with its size in MB, never in raw bytes', () => {
    const feed: BarState = { name: 'feed', unit: 'rows', value: 25_000, bytes: { read: 8_049_500, total: 16_098_863 }, startedAt: T0 };
    const line = barLine(feed, T0 + 5000);
    expect(line).toContain('25,000 rows · 8.0 MB/16 MB · 50% · 5,000 rows/s · elapsed 0:05 · ETA 0:05');
    expect(line).not.toMatch(/16098863|8049431/);
  });

  it('freeze a finished stage: its rate and elapsed time stay as they were when it ended', () => {
    const feed: BarState = {
      name: 'feed',
      unit: 'rows',
      value: 3000,
      bytes: { read: 900_000, total: 900_000 },
      startedAt: T0,
      finishedAt: T0 + 3000,
    };
    const atEnd = barLine(feed, T0 + 3000);
    expect(barLine(feed, T0 + 60_000)).toBe(atEnd);
    expect(atEnd).toContain('3,000 rows (900 kB), done · 1,000 rows/s · in 0:03');
    expect(atEnd).not.toContain('ETA');
  });

  it('say an empty chatbot is read: 0 listings, done (not 0/1 0%)', async () => {
    let err = '';
    const io = {
      env: {},
      stdout: { write: () => true },
      stderr: { isTTY: false, write: (chunk: string) => ((err += chunk), true) },
      onShutdown: () => undefined,
      releases: createReleaseStack(),
    } as unknown as CliIo;
    vi.useFakeTimers({ now: T0 });
    try {
      const bars = createProgressBars(io, true, undefined, () => Date.now());
      bars.update('remote', 0, 0);
      vi.advanceTimersByTime(STATUS_EVERY_MS);
      expect(err).toBe('progress, elapsed 0:05: remote 0 listings, done\n');
      expect(err).not.toContain('0/1');
      bars.update('jobs', 0, 0);
      expect(barLine({ name: 'jobs', unit: 'jobs', value: 0, startedAt: Date.now() }, Date.now())).toBe(' jobs    0 jobs · elapsed 0:00');
      bars.update('jobs', 10, 100);
      vi.advanceTimersByTime(STATUS_EVERY_MS);
      // The finished remote stage stays as it was; the jobs stage has its own rate and ETA.
      expect(err.split('\n')[1]).toBe('progress, elapsed 0:10: remote 0 listings, done; jobs 10/100 jobs · 10% · 2 jobs/s · ETA 0:45');
      await bars.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('read as clocks, bytes and durations people read', () => {
    expect(clock(65_000)).toBe('1:05');
    expect(clock(3_723_000)).toBe('1:02:03');
    expect(humanBytes(512)).toBe('512 B');
    expect(humanBytes(16_098_863)).toBe('16 MB');
    expect(humanDuration(45_000)).toBe('45 s');
    expect(humanDuration(200_000)).toBe('3 min 20 s');
    expect(humanDuration(7_500_000)).toBe('2 h 05 min');
    expect(humanDuration(1_795_784_992_000)).toBe('20784 d 13 h');
  });
});

describe('bars on a narrow terminal', () => {
  const feed: BarState = {
    name: 'feed',
    unit: 'rows',
    value: 1200,
    bytes: { read: 304_000, total: 304_000 },
    startedAt: T0,
    finishedAt: T0 + 400,
  };
  const remote: BarState = { name: 'remote', unit: 'listings', value: 0, total: 0, startedAt: T0, finishedAt: T0 + 10 };
  const big = (value: number, total: number): BarState => ({ name: 'jobs', unit: 'jobs', value, total, startedAt: T0 });

  it.each([80, 60])('keep the bar, the rate and the ETA at %i columns, and never wrap', (columns) => {
    for (const jobs of [big(1071, 1200), big(12_345, 100_000), big(654_321, 1_000_000)]) {
      const lines = fittedBarLines([feed, remote, jobs], T0 + 3000, columns);
      for (const line of lines) expect(line.length, line).toBeLessThan(columns);
      const jobsLine = lines[2] ?? '';
      expect(jobsLine, jobsLine).toMatch(/\[#+-*\] /);
      expect(jobsLine).toMatch(/ jobs\/s · ETA \d+:\d\d/);
      // The bars line up: the same graphic width on every line.
      const widths = lines.map((line) => /\[([#-]+)\]/.exec(line)?.[1]?.length);
      expect(new Set(widths).size, lines.join('\n')).toBe(1);
    }
  });

  it('leave a wide terminal the whole line', () => {
    expect(fittedBarLines([big(400, 2000)], T0 + 4000, 200)).toEqual([barLine(big(400, 2000), T0 + 4000)]);
    expect(barLine(big(400, 2000), T0 + 4000)).toContain(
      '[####----------------] 400/2,000 jobs · 20% · 100 jobs/s · elapsed 0:04 · ETA 0:16',
    );
  });

  it('shorten the label before the bar goes', () => {
    const lines = fittedBarLines([{ ...big(654_321, 1_000_000), name: 'remote', unit: 'listings' }], T0 + 3000, 60);
    expect(lines[0]).toMatch(/^ rem \[#+-+\] /);
  });
});

describe('the line a non-terminal gets', () => {
  it("holds one elapsed value: the command's", () => {
    const line = statusLine(
      [
        { name: 'feed', unit: 'rows', value: 10, startedAt: T0, finishedAt: T0 + 2000 },
        { name: 'jobs', unit: 'jobs', value: 10, total: 100, startedAt: T0 + 2000 },
      ],
      T0,
      T0 + 12_000,
    );
    expect(line).toBe('progress, elapsed 0:12: feed 10 rows, done · 5 rows/s; jobs 10/100 jobs · 10% · 1 jobs/s · ETA 1:30');
    expect(line.match(/elapsed|\bin \d/g)).toHaveLength(1);
  });
});

describe('a result after the progress display', () => {
  it('leaves out the lines already shown, and only when they are all there in order', () => {
    const text = 'run r\nfeed 1\nplan    create 1\nguard   ok\nresult  created 1\n';
    expect(withoutShown(text, ['plan    create 1', 'guard   ok'])).toBe('run r\nfeed 1\nresult  created 1\n');
    expect(withoutShown(text, ['plan    create 2', 'guard   ok'])).toBe(text);
    expect(withoutShown(text, [])).toBe(text);
  });
});

describe('wrapped messages', () => {
  it('wrap at the width and keep a quoted command whole', () => {
    const text =
      'interrupted: run run-00mwz9t6h0-8613dd16 goes on in the queue; ' +
      'finish it with `listing-sync runs resume run-00mwz9t6h0-8613dd16 --work` ' +
      'or stop it with `listing-sync runs cancel run-00mwz9t6h0-8613dd16`';
    const lines = wrapText(text, 80, '    ').split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines.some((line) => line.includes('`listing-sync runs resume run-00mwz9t6h0-8613dd16 --work`'))).toBe(true);
    expect(lines.some((line) => line.includes('`listing-sync runs cancel run-00mwz9t6h0-8613dd16`'))).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(text);
    expect(wrapText(text, undefined)).toBe(text);
  });
});
