/** The checks `schedule add` makes before storing (src/queue/cron.ts, src/sync/schedule-check.ts). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronProblem, nextOccurrences } from '../../src/queue/cron.js';
import { cronLineProblem, scheduledFeedProblem } from '../../src/sync/schedule-check.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schedule-check-'));
  await writeFile(join(dir, 'feed.csv'), 'MLSNumber\nM1\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cron patterns', () => {
  it.each(['0 2 * * *', '30 1 * * 1-5', '0 2 * * MON-FRI', '* * * * * *', '@daily', '0 2 L * *'])('accepts %s', (pattern) => {
    expect(cronProblem(pattern, 'America/Chicago')).toBeUndefined();
  });

  it.each([
    ['0 2 * *', 'it has 4 fields; a cron pattern has 5 (minute hour day-of-month month day-of-week), or 6 with seconds first'],
    ['0 0 2 * * * *', 'it has 7 fields; a cron pattern has 5 (minute hour day-of-month month day-of-week), or 6 with seconds first'],
    ['', 'it is empty'],
    ['61 2 * * *', 'got value 61 expected range 0-59'],
    ['0 2 31 2 *', 'Invalid explicit day of month definition'],
    [
      '@nightly',
      "'@nightly' is not an alias; the aliases are @yearly, @annually, @monthly, @weekly, @daily, @hourly, @minutely, @secondly, @weekdays, @weekends",
    ],
  ])('refuses %j: %s', (pattern, problem) => {
    expect(cronProblem(pattern, undefined)).toBe(problem);
  });

  it('says what is wrong and gives an example in one line', () => {
    expect(cronLineProblem('0 2 * *', undefined)).toBe(
      `--cron '0 2 * *' is not a cron pattern: it has 4 fields; a cron pattern has 5 (minute hour day-of-month month day-of-week), or 6 with seconds first; e.g. "0 2 * * *" (02:00 every day) or "30 1 * * 1-5" (01:30 Monday to Friday)`,
    );
  });

  it('gives the next occurrences in the time zone, across a change of offset', () => {
    // 2026-03-07 12:00 UTC; US daylight saving time starts on 2026-03-08.
    const from = Date.UTC(2026, 2, 7, 12);
    expect(nextOccurrences('0 2 * * *', 'America/Chicago', from, 3).map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-03-08T08:00:00.000Z',
      '2026-03-09T07:00:00.000Z',
      '2026-03-10T07:00:00.000Z',
    ]);
  });
});

describe('a scheduled feed', () => {
  it('is an absolute path to a file that exists now, or an http(s) URL', async () => {
    expect(await scheduledFeedProblem(join(dir, 'feed.csv'))).toBeUndefined();
    expect(await scheduledFeedProblem('https://feeds.example.com/acme.csv')).toBeUndefined();
    expect(await scheduledFeedProblem('feed.csv')).toMatch(/^--feed 'feed\.csv' is relative: a scheduled feed path must be absolute/);
    expect(await scheduledFeedProblem(join(dir, 'gone.csv'))).toMatch(/does not exist: a scheduled feed path must be absolute/);
    expect(await scheduledFeedProblem(dir)).toMatch(/is not a file: /);
    expect(await scheduledFeedProblem('https://')).toBe(
      '--feed https:// is not a valid http(s) URL (e.g. https://feeds.example.com/acme.csv)',
    );
  });
});
