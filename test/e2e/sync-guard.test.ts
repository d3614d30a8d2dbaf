/**
 * The safety guard through the CLI: every refusal exits 3, says why and how to override, and
 * changes nothing (the simulator sees zero write calls); --force proceeds and says so; a dry run
 * reports the verdict the real run would get.
 */
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { runCli, type CliRun, jsonOf } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-guard';
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/sync');
/** sampleListing(0..8) as a native CSV: 9 rows. */
const NINE = join(FIXTURES, 'listings-0-8.csv');
/** sampleListing(0..2): a third of NINE. */
const THREE = join(FIXTURES, 'listings-0-2.csv');
const HEADER_ONLY = join(FIXTURES, 'header-only.csv');
/** Two native rows, both rejected (Bedrooms "many"). */
const ALL_REJECTED = join(FIXTURES, 'all-rejected.csv');
/** Two RESO records, Withdrawn and Expired: excluded, so the feed lists nothing. */
const ALL_WITHDRAWN = join(FIXTURES, 'reso-all-withdrawn.ndjson');
/** 8 rows, one rejected (12.5%), listings 0..4 and 10..11. */
const ONE_REJECTED = join(FIXTURES, 'dry-run.csv');

let sim: RunningSimulator | undefined;
let prefix = '';

afterEach(async (ctx) => {
  await sim?.close();
  sim = undefined;
  // Kept when the test failed, to look at; never clean an empty prefix (that would match every key).
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

/** A simulator whose chatbot holds sampleListing(0..count-1), and the env pointing the CLI at it. */
async function setup(count: number): Promise<{ s: RunningSimulator; env: Record<string, string> }> {
  prefix = uniquePrefix('sync-guard');
  const s = await startTestSim({ chatbots: [BOT], listings: { [BOT]: Array.from({ length: count }, (_, i) => sampleListing(i)) } });
  sim = s;
  const env = {
    ...simEnv(s),
    REDIS_URL: redisUrl,
    LISTING_SYNC_PREFIX: prefix,
    LISTING_SYNC_BACKOFF_MS: '5',
    LISTING_SYNC_BACKOFF_MAX_MS: '50',
    LOG_LEVEL: 'warn',
  };
  return { s, env };
}

interface Summary {
  runId: string;
  plan: { create: number; update: number; delete: number; unchanged: number };
  guard: { ok: boolean; reasons: string[]; forced: boolean };
  result?: { created: number; updated: number; deleted: number; failed: number };
}

const summaryOf = (run: CliRun): Summary => jsonOf<Summary>(run);

function sync(feed: string, ...flags: string[]): string[] {
  return ['sync', '--chatbot', BOT, '--feed', feed, ...flags];
}

/** A refusal: exit 3, exactly the expected reasons, each naming how to override, and the remote untouched. */
function expectRefused(run: CliRun, s: RunningSimulator, listingsBefore: number, ...reasons: RegExp[]): Summary {
  expect(run.code, run.stderr).toBe(3);
  const summary = summaryOf(run);
  expect(summary.guard.ok).toBe(false);
  expect(summary.guard.forced).toBe(false);
  expect(summary.guard.reasons).toHaveLength(reasons.length);
  reasons.forEach((reason, i) => expect(summary.guard.reasons[i]).toMatch(reason));
  for (const reason of summary.guard.reasons) expect(reason).toMatch(/--force/);
  expect(summary.result).toBeUndefined();
  expect(s.state.writeCalls()).toBe(0);
  expect(s.state.listings(BOT)).toHaveLength(listingsBefore);
  return summary;
}

describe('the guard refuses a real run with exit 3 and changes nothing', () => {
  it('deletes over --max-deletes as a count: the text summary says why and how to override', async () => {
    const { s, env } = await setup(9);
    const run = await runCli(sync(THREE, '--delete-scope', 'all', '--max-deletes', '5', '--work'), env);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toContain('REFUSED: nothing was changed');
    expect(run.stdout).toContain('The plan would delete 6 listings, more than --max-deletes 5; rerun with --max-deletes 6 or --force');
    expect(run.stderr).toMatch(/refused by the safety guard/);
    expect(s.state.writeCalls()).toBe(0);
    expect(s.state.listings(BOT)).toHaveLength(9);
  });

  it('deletes over --max-deletes as a percentage (default 10%)', async () => {
    const { s, env } = await setup(9);
    const run = await runCli(sync(THREE, '--delete-scope', 'all', '--json', '--work'), env);
    expectRefused(run, s, 9, /delete 6 listings of 9 managed \(66\.7%\), more than --max-deletes 10% .*--max-deletes 6 \(or 66\.7%\)/);
  });

  it('more rejected rows than --max-rejected', async () => {
    const { s, env } = await setup(9);
    const run = await runCli(sync(ONE_REJECTED, '--json', '--work'), env);
    expectRefused(run, s, 9, /1 of 8 feed rows were rejected \(12\.5%\), more than --max-rejected 5%.*--max-rejected 13%/);
  });

  it('a remote snapshot that keeps changing while it is paged (incomplete)', async () => {
    const { s, env } = await setup(9);
    s.state.setFaults({ driftRate: 1, seed: 1 });
    const run = await runCli(sync(NINE, '--json', '--page-size', '3', '--work'), env);
    expect(run.code, run.stderr).toBe(3);
    const summary = summaryOf(run);
    expect(summary.guard.reasons.some((reason) => /could not be read completely.*retry later, or rerun with --force/.test(reason))).toBe(
      true,
    );
    // Drift changes the chatbot's listings behind the service's back; the sync itself wrote nothing.
    expect(s.state.writeCalls()).toBe(0);
  });

  it('an empty (header-only) feed stops before planning: exit 2, one line naming the file, nothing written', async () => {
    const { s, env } = await setup(9);
    const run = await runCli(sync(HEADER_ONLY, '--json', '--work'), env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(HEADER_ONLY);
    expect(run.stdout).toBe('');
    expect(s.state.writeCalls()).toBe(0);
    expect(s.state.listings(BOT)).toHaveLength(9);
  });

  it('a feed without a valid row against a chatbot with listings (scope managed, new chatbot)', async () => {
    const { s, env } = await setup(9);
    const run = await runCli(sync(ALL_REJECTED, '--max-rejected', '100%', '--json', '--work'), env);
    expectRefused(run, s, 9, /no valid rows while the chatbot holds 9 listings.*--force/);
  });

  it('a feed without a valid row, once listing-sync manages the chatbot', async () => {
    const { s, env } = await setup(0);
    expect((await runCli(sync(THREE, '--json', '--work'), env)).code).toBe(0);
    s.state.resetCounters();
    const run = await runCli(sync(ALL_REJECTED, '--max-rejected', '100%', '--mode', 'upsert', '--json', '--work'), env);
    expectRefused(run, s, 3, /no valid rows while the chatbot holds 3 listings.*--force/);
  });

  it('a RESO feed whose every listing is excluded (withdrawn) counts as empty', async () => {
    const { s, env } = await setup(9);
    const run = await runCli(
      sync(ALL_WITHDRAWN, '--profile', 'reso', '--delete-scope', 'all', '--max-deletes', '100%', '--dry-run', '--json'),
      env,
    );
    expectRefused(run, s, 9, /no valid rows while the chatbot holds 9 listings/);
  });

  it('after a real run: a feed with a third of the rows, and a feed without a valid row', async () => {
    const { s, env } = await setup(0);
    const first = await runCli(sync(NINE, '--json', '--work'), env);
    expect(first.code, first.stderr).toBe(0);
    expect(summaryOf(first).result).toMatchObject({ created: 9, failed: 0 });
    s.state.resetCounters();

    // --mode upsert: no deletes, so the shrink itself is the only reason.
    const shrunk = await runCli(sync(THREE, '--mode', 'upsert', '--json', '--work'), env);
    expectRefused(shrunk, s, 9, /3 rows, fewer than half of the 9 rows of the last successful run; it may be truncated/);

    // Every row rejected: the empty-feed, mass-delete, rejected-rows and shrink rules all refuse.
    // The two rejected keys (ML100000, ML100001) are held, not deleted: 7 of the 9 would go.
    const empty = await runCli(sync(ALL_REJECTED, '--json', '--work'), env);
    const summary = expectRefused(
      empty,
      s,
      9,
      /no valid rows while the chatbot holds 9 listings/,
      /delete 7 listings of 9 managed/,
      /2 of 2 feed rows were rejected/,
      /2 rows, fewer than half of the 9 rows/,
    );
    expect(summary.plan).toMatchObject({ create: 0, update: 0, delete: 7 });
  });
});

describe('--force and dry runs', () => {
  it('--force proceeds past a refusal and the summary says it was forced', async () => {
    const { s, env } = await setup(9);
    const run = await runCli(sync(THREE, '--delete-scope', 'all', '--force', '--json', '--work'), env);
    expect(run.code, run.stderr).toBe(0);
    const summary = summaryOf(run);
    expect(summary.guard.ok).toBe(true);
    expect(summary.guard.forced).toBe(true);
    expect(summary.guard.reasons).toHaveLength(1);
    expect(summary.result).toMatchObject({ created: 0, updated: 0, deleted: 6, failed: 0 });
    expect(
      s.state
        .listings(BOT)
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual(['ML100000', 'ML100001', 'ML100002']);
  });

  it('a dry run exits 3 when the real run would be refused, and 0 with --force, writing nothing', async () => {
    const { s, env } = await setup(9);
    const refused = await runCli(sync(THREE, '--delete-scope', 'all', '--dry-run', '--json'), env);
    expectRefused(refused, s, 9, /delete 6 listings of 9 managed/);

    const forced = await runCli(sync(THREE, '--delete-scope', 'all', '--dry-run', '--force', '--json'), env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(summaryOf(forced).guard).toMatchObject({ ok: true, forced: true });
    expect(s.state.writeCalls()).toBe(0);
    expect(s.state.listings(BOT)).toHaveLength(9);
  });
});
