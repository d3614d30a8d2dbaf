/**
 * `sync --work` whose queued jobs vanish from Redis mid-run (deleted by hand, or lost with a
 * master that failed over to a replica that had not received them): the command still ends, by
 * itself and within seconds, long before a reconcile interval (the jobs' "gone" errors make the
 * reconciler hurry: it records the vanished jobs as failed and ends the run), exit 1,
 * with one line about the vanished jobs instead of a raw error per job and move, no stack
 * trace, and nothing created twice; the next sync of the same feed creates the rest, still
 * without a duplicate create.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { linesSaying, stackTraceLines, startCli } from '../helpers/cli-process.js';
import { expectConverged } from '../helpers/converged.js';
import { feedScenarioPerTest } from '../helpers/feed-scenario.js';
import { cliEnv } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const BOT = 'bot-queue-lost';
const ROWS = 200;
const scenarios = feedScenarioPerTest('queue-lost');

/** Deletes every key of the writes queue under `prefix` (its jobs, lists and counters), keeping the tool's own records. */
async function deleteWritesQueue(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*listing-writes*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

interface Summary {
  status?: string;
  jobs?: number;
  result?: { created: number; failed: number };
}

describe('sync --work whose queued jobs vanish from Redis mid-run', () => {
  it('ends by itself as failed with one line about it, nothing created twice; the next sync creates the rest', async () => {
    const { sim: s, redisUrl, prefix, feed } = await scenarios.start({ chatbot: BOT, rows: ROWS, seed: 7, latencyMs: 40 });
    // A reconcile interval of ten minutes: the run can end within this test only through the
    // hurry that the vanished jobs' errors start, whatever this machine's speed.
    const env = cliEnv(s, redisUrl, prefix, { LISTING_SYNC_CONCURRENCY: '4', LISTING_SYNC_RECONCILE_MS: '600000' });

    const sync = scenarios.track(startCli(['sync', '--chatbot', BOT, '--feed', feed, '--work', '--json'], env));
    const end = Date.now() + 30_000;
    while (s.state.listings(BOT).length < 30 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await deleteWritesQueue(redisUrl, prefix), 'queue keys deleted').toBeGreaterThan(0);

    const code = await sync.exited(90_000);
    const stderr = sync.stderr();
    expect(code, stderr).toBe(1);
    const summary = jsonOf<Summary>({ code: 1, stdout: sync.stdout(), stderr });
    expect(summary.status).toBe('failed');
    const created = s.state.listings(BOT).length;
    expect(created, 'killed mid-run').toBeLessThan(ROWS);
    expect(summary.result?.created).toBeLessThanOrEqual(created);
    expect((summary.result?.created ?? 0) + (summary.result?.failed ?? 0)).toBe(ROWS);
    expect(s.state.duplicateCreates(BOT)).toEqual([]);

    expect(stackTraceLines(stderr), stderr).toEqual([]);
    expect(stderr, 'no raw BullMQ error per job').not.toMatch(/"worker error"/);
    expect(linesSaying(stderr, /gone from the queue/).length, stderr).toBeGreaterThanOrEqual(1);
    expect(linesSaying(stderr, /gone from the queue/).length, stderr).toBeLessThanOrEqual(2);
    expect(linesSaying(stderr, /left the queue without finishing; recorded as failed/), stderr).toHaveLength(1);

    const next = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--work', '--json'], env, 60_000);
    expect(next.code, next.stderr).toBe(0);
    await expectConverged(s, BOT, ROWS, feed, env);
  }, 180_000);
});
