/**
 * `schedule add` says what a schedule will do, through the built CLI: a bad cron pattern or a feed
 * path a worker could not read is refused with exit 2 and one line, nothing stored; a good one
 * prints its next three runs in its time zone; `schedule list` shows the next run in the
 * schedule's zone and in UTC, and --json carries both.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { jsonOf, lines, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const prefix = uniquePrefix('schedule-check');
// A schedule's jobs are sealed with the job key and the service they are for (docs/security-jobs.md).
const env = {
  REDIS_URL: redisUrl,
  LISTING_SYNC_PREFIX: prefix,
  LOG_LEVEL: 'warn',
  LISTING_SYNC_JOB_KEY: 'schedule-check-test-job-key',
  API_BASE_URL: 'http://127.0.0.1:9',
};
let dir = '';
let feed = '';
let passed = true;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ls-schedule-'));
  feed = join(dir, 'acme.csv');
  writeFileSync(feed, 'MLSNumber,Url\nM1,https://x.example/1\n');
});
afterEach((ctx) => {
  // A failed test leaves the prefix's keys to look at.
  if ((ctx.task.result?.errors ?? []).length > 0) passed = false;
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (passed) await cleanPrefix(redisUrl, prefix);
});

const add = (name: string, ...flags: string[]) => runCli(['schedule', 'add', name, '--chatbot', 'acme-bot', ...flags], env);

interface Listed {
  schedules: Array<{ name: string; tz?: string; next?: number; nextUtc?: string; nextLocal?: string }>;
}

describe('schedule add', () => {
  it.each([
    [
      ['--cron', '0 2 * *'],
      /^listing-sync: --cron '0 2 \* \*' is not a cron pattern: it has 4 fields; a cron pattern has 5 .* e\.g\. "0 2 \* \* \*"/,
    ],
    [
      ['--cron', '0 25 * * *'],
      /^listing-sync: --cron '0 25 \* \* \*' is not a cron pattern: got value 25 expected range 0-23; e\.g\. "0 2 \* \* \*"/,
    ],
    [['--cron', '0 2 * * * * *'], /is not a cron pattern: it has 7 fields/],
  ])('refuses the cron pattern %j with exit 2 and one line, storing nothing', async (flags, message) => {
    const run = await add('bad', ...flags, '--feed', feed);
    expect(run.code, run.stderr).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    expect(jsonOf<Listed>(await runCli(['schedule', 'list', '--json'], env)).schedules).toEqual([]);
  });

  it('refuses a relative or missing feed path with exit 2 and one line, storing nothing', async () => {
    const relative = await add('bad', '--cron', '0 2 * * *', '--feed', 'acme.csv');
    expect(relative.code).toBe(2);
    expect(lines(relative.stderr)).toEqual([
      expect.stringMatching(
        /^listing-sync: --feed 'acme\.csv' is relative: a scheduled feed path must be absolute .* and exist now; here it would be \//,
      ),
    ]);
    const missing = await add('bad', '--cron', '0 2 * * *', '--feed', join(dir, 'gone.csv'));
    expect(missing.code).toBe(2);
    expect(lines(missing.stderr)).toEqual([
      `listing-sync: --feed '${join(dir, 'gone.csv')}' does not exist: a scheduled feed path must be absolute (a worker reads it from its own directory) and exist now, or be an http(s) URL`,
    ]);
    expect(jsonOf<Listed>(await runCli(['schedule', 'list', '--json'], env)).schedules).toEqual([]);
  });

  it('prints the next three runs in the time zone, and list shows the next run in the zone and in UTC', async () => {
    const added = await add('nightly', '--cron', '0 2 * * *', '--tz', 'America/Chicago', '--feed', feed);
    expect(added.code, added.stderr).toBe(0);
    const shown = lines(added.stdout);
    expect(shown[0]).toBe('schedule nightly set: 0 2 * * * (America/Chicago), chatbot acme-bot');
    expect(shown[1]).toBe('next runs (America/Chicago):');
    // 02:00 in Chicago is 08:00 UTC (CST) or 07:00 UTC (CDT), whatever the date the test runs.
    expect(shown.slice(2)).toEqual([
      expect.stringMatching(/^ {2}\d{4}-\d\d-\d\d 02:00 {2}\(\d{4}-\d\d-\d\d 0[78]:00 UTC\)$/),
      expect.stringMatching(/^ {2}\d{4}-\d\d-\d\d 02:00 {2}\(\d{4}-\d\d-\d\d 0[78]:00 UTC\)$/),
      expect.stringMatching(/^ {2}\d{4}-\d\d-\d\d 02:00 {2}\(\d{4}-\d\d-\d\d 0[78]:00 UTC\)$/),
    ]);
    const url = await add(
      'mls',
      '--cron',
      '30 1 * * 1-5',
      '--tz',
      'Asia/Kolkata',
      '--feed',
      'https://feeds.example.com/acme.csv',
      '--json',
    );
    expect(url.code, url.stderr).toBe(0);
    const next = jsonOf<{ next: Array<{ utc: string; local: string }> }>(url).next;
    expect(next).toHaveLength(3);
    for (const at of next) {
      expect(at.local).toMatch(/T01:30:00\+05:30$/);
      expect(Date.parse(at.utc)).toBe(Date.parse(at.local));
    }

    const listed = await runCli(['schedule', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      /^nightly {2}0 2 \* \* \* America\/Chicago {2}chatbot acme-bot {2}next \d{4}-\d\d-\d\d 02:00 America\/Chicago \(\d{4}-\d\d-\d\d 0[78]:00 UTC\)$/m,
    );
    expect(listed.stdout).toMatch(
      /^mls {2}30 1 \* \* 1-5 Asia\/Kolkata {2}chatbot acme-bot {2}next \d{4}-\d\d-\d\d 01:30 Asia\/Kolkata \(\d{4}-\d\d-\d\d 20:00 UTC\)$/m,
    );
    const json = jsonOf<Listed>(await runCli(['schedule', 'list', '--json'], env)).schedules;
    const nightly = json.find((schedule) => schedule.name === 'nightly');
    expect(nightly?.nextLocal).toMatch(/T02:00:00-0[56]:00$/);
    expect(Date.parse(nightly?.nextLocal ?? '')).toBe(nightly?.next);
    expect(Date.parse(nightly?.nextUtc ?? '')).toBe(nightly?.next);
    for (const name of ['nightly', 'mls']) expect((await runCli(['schedule', 'remove', name], env)).code).toBe(0);
  });
});
