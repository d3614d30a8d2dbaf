/**
 * Adoption: a chatbot that held listings before listing-sync managed it. Listings the feed names
 * unchanged are adopted into the ledger by the first real run, so under the default delete scope
 * (managed) they are deleted once they leave the feed, and listings the feed never named are not.
 */
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-adopt';
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/sync');
let sim: RunningSimulator | undefined;
let prefix = '';

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  if (prefix !== '') await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

interface Summary {
  plan: { create: number; update: number; delete: number; unchanged: number; adopted?: number };
  guard: { ok: boolean; reasons: string[]; forced: boolean };
  result?: { deleted: number; failed: number };
}

describe('adopting listings the chatbot already held', () => {
  it('adopts unchanged listings on the first run, then deletes them when they leave the feed (scope managed)', async () => {
    // 0..8 are in the feed fixture; 20 is a listing someone else keeps on this chatbot.
    sim = await startTestSim({
      chatbots: [BOT],
      listings: { [BOT]: [0, 1, 2, 3, 4, 5, 6, 7, 8, 20].map((i) => sampleListing(i, { SerialNumber: BOT })) },
    });
    prefix = uniquePrefix('adopt');
    const env = { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LISTING_SYNC_BACKOFF_MS: '5', LOG_LEVEL: 'warn' };
    const sync = async (feed: string, ...extra: string[]): Promise<{ code: number | null; summary: Summary }> => {
      const run = await runCli(['sync', '--chatbot', BOT, '--feed', join(FIXTURES, feed), '--work', '--json', ...extra], env, 30_000);
      return { code: run.code, summary: jsonOf<Summary>(run) };
    };

    const first = await sync('listings-0-8.csv');
    expect(first.code).toBe(0);
    expect(first.summary.plan).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 9, adopted: 9 });
    expect(
      sim.state
        .calls()
        .filter((c) => c.endpoint !== 'listListings')
        .map((c) => c.endpoint),
    ).toEqual([]);

    // The feed shrinks to 0..2: six adopted listings left it. The guard rightly balks (6 of 9
    // managed, and a third of last run's rows): this test is about what is deleted, so --force.
    const second = await sync('listings-0-2.csv', '--force');
    expect(second.code).toBe(0);
    expect(second.summary.guard).toMatchObject({ ok: true, forced: true });
    expect(second.summary.plan).toMatchObject({ delete: 6, unchanged: 3, adopted: 0 });
    expect(second.summary.result).toMatchObject({ deleted: 6, failed: 0 });
    // Listing 20 was never in the feed, so never adopted: the default scope leaves it alone.
    expect(
      sim.state
        .listings(BOT)
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual(['ML100000', 'ML100001', 'ML100002', 'ML100020']);
  });
});
