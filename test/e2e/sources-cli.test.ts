/**
 * `listing-sync sources list|show` as a process over real Redis: what replication recorded
 * through the store (watermark, last run, totals, sweep) and the budget's usage, with the feed in
 * its display form only — never a user, password or query string the feed URL carried.
 */
import { describe, expect, it } from 'vitest';
import type { FeedSource } from '../../src/store/feed-sources.js';
import { feedBudgetId, replicationFeedId } from '../../src/sync/replication-ids.js';
import { storePerTest } from '../helpers/store-per-test.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const t = storePerTest('sources-cli');
const FEED = 'https://mls-user:mls-password@mls.example/odata/Property?access_token=query-token-value';
const OTHER = 'https://other.example/odata/Property';

const env = (): Record<string, string> => ({ REDIS_URL: t.url, LISTING_SYNC_PREFIX: t.prefix, LOG_LEVEL: 'warn' });

async function recordTwoSources(): Promise<void> {
  const id = replicationFeedId(FEED);
  await t.store.feedSources.advanceWatermark('bot-a', id, '2024-05-01T12:00:00.5Z');
  await t.store.feedSources.recordRun('bot-a', id, {
    feed: FEED,
    runId: 'run-1',
    status: 'done',
    recordsPulled: 40,
    requests: 3,
    bytes: 9000,
  });
  await t.store.feedSources.recordRun('bot-a', id, {
    feed: FEED,
    runId: 'run-2',
    status: 'budget-exhausted',
    recordsPulled: 5,
    requests: 2,
    bytes: 1000,
    sweep: { complete: false, deleted: 0 },
  });
  await t.store.feedSources.recordRun('bot-b', replicationFeedId(OTHER), {
    feed: OTHER,
    runId: 'run-3',
    status: 'done',
    recordsPulled: 1,
    requests: 1,
    bytes: 10,
  });
  // One request spent against the feed host's budget (no OAuth configured: the host names it).
  await t.store.feedBudget(feedBudgetId(FEED, undefined), { perSecond: 2, perHour: 100 }).acquire({ maxWaitMs: 1000 });
}

function expectNoCredentials(text: string): void {
  for (const secret of ['mls-user', 'mls-password', 'query-token-value', 'access_token']) expect(text).not.toContain(secret);
}

describe('sources', () => {
  it('lists every source with its watermark, last run and totals, as JSON and as text', async () => {
    await recordTwoSources();
    const json = await runCli(['sources', 'list', '--json'], env());
    expect(json.code, json.stderr).toBe(0);
    const { sources } = jsonOf<{ sources: FeedSource[] }>(json);
    expect(sources.map((s) => [s.chatbot, s.feed])).toEqual([
      ['bot-a', 'https://mls.example/odata/Property'],
      ['bot-b', 'https://other.example/odata/Property'],
    ]);
    expect(sources[0]).toMatchObject({
      watermark: '2024-05-01T12:00:00.5Z',
      lastRun: { runId: 'run-2', status: 'budget-exhausted', recordsPulled: 5, requests: 2, bytes: 1000 },
      totals: { runs: 2, recordsPulled: 45, requests: 5, bytes: 10_000 },
      lastSweep: { complete: false, deleted: 0 },
    });
    const text = await runCli(['sources', 'list'], env());
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^bot-a {2}https:\/\/mls\.example\/odata\/Property {2}watermark 2024-05-01T12:00:00\.5Z {2}last run run-2 \S+ budget-exhausted {2}records 45 {2}requests 5 {2}bytes 10,000$/m,
    );
    const withBudget = await runCli(['sources', 'list', '--feed-budget', '2/s,100/h'], env());
    expect(withBudget.code, withBudget.stderr).toBe(0);
    expect(withBudget.stdout).toMatch(/^bot-a .* bytes 10,000 {2}budget: \d+\/2\/s, \d+\/100\/h, 0 bytes this hour$/m);
    expectNoCredentials(json.stdout + json.stderr + text.stdout + text.stderr + withBudget.stdout);
    t.pass();
  });

  it('shows one source found by the feed URL as given to sync, with the budget usage', async () => {
    await recordTwoSources();
    const args = ['sources', 'show', '--chatbot', 'bot-a', '--feed', FEED, '--feed-budget', '2/s,100/h'];
    const json = await runCli([...args, '--json'], env());
    expect(json.code, json.stderr).toBe(0);
    expect(jsonOf<FeedSource & { budget: unknown }>(json)).toMatchObject({
      chatbot: 'bot-a',
      lastRun: { runId: 'run-2' },
      budget: {
        requests: [
          { window: 'perSecond', limit: 2 },
          { window: 'perHour', limit: 100, used: 1 },
        ],
        bytesThisHour: 0,
      },
    });
    const text = await runCli(args, env());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('last run: run-2 ');
    expect(text.stdout).toContain('budget-exhausted: 5 records, 2 requests, 1,000 bytes');
    expect(text.stdout).toContain('totals: 2 runs, 45 records, 5 requests, 10,000 bytes');
    expect(text.stdout).toContain('last sweep: ');
    expect(text.stdout).toMatch(/^budget: \d\/2\/s, 1\/100\/h, 0 bytes this hour$/m);
    expectNoCredentials(json.stdout + json.stderr + text.stdout + text.stderr);

    const missing = await runCli(['sources', 'show', '--chatbot', 'bot-b', '--feed', FEED], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no replication source for chatbot bot-b');
    expectNoCredentials(missing.stderr);
    t.pass();
  });
});
