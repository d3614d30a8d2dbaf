/**
 * The base of a percentage --max-deletes, through the built CLI: ledger entries for listings the
 * chatbot no longer holds must not dilute it. listing-sync wrote 200 listings; 100 were then
 * deleted by hand; a feed that leaves out 18 of the 100 still there deletes 18% of them, which
 * the default 10% refuses (counting the whole ledger it would be 9%, and pass).
 */
import { expect, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const BOT = 'bot-guard-base';
const bench = useSyncBench('sync-guard-base');

it('ledger entries of listings deleted by hand do not dilute --max-deletes 10%', async () => {
  const { sim, env, dir } = await bench.open({ chatbots: [BOT] });
  const all = Array.from({ length: 200 }, (_, i) => i);
  const feedOf = (name: string, indexes: readonly number[]): string =>
    writeNativeCsv(
      dir,
      name,
      indexes.map((i) => nativeCsvRow(sampleListing(i))),
    );

  const first = await runCli(['sync', '--chatbot', BOT, '--feed', feedOf('all.csv', all), '--json', '--work'], env, 60_000);
  expect(first.code, first.stderr).toBe(0);
  expect(sim.state.listings(BOT)).toHaveLength(200);
  // Someone deletes listings 100..199 in the platform's own UI: the ledger still remembers them.
  expect(sim.state.remove(BOT, (listing) => Number(String(listing.MLSNumber).slice(2)) >= 100100)).toBe(100);
  sim.state.resetCounters();

  // The feed still lists 100..199 (they would be created again) and drops 82..99: 18 deletes.
  const feed = feedOf(
    'drops-18.csv',
    all.filter((i) => i < 82 || i >= 100),
  );
  const run = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--json', '--work'], env, 60_000);
  expect(run.code, run.stderr).toBe(3);
  const summary = jsonOf<{ plan: { delete: number; create: number }; guard: { ok: boolean; reasons: string[] } }>(run);
  expect(summary.plan).toMatchObject({ delete: 18, create: 100 });
  expect(summary.guard.reasons).toEqual([
    expect.stringMatching(/^The plan would delete 18 listings of 100 managed \(18%\), more than --max-deletes 10% \(10\)/),
  ]);
  expect(sim.state.writeCalls()).toBe(0);
  expect(sim.state.listings(BOT)).toHaveLength(100);
});

it('a --key-type URL run does not dilute the MLSNumber guard (its own ledger per key type, and a base of listings the chatbot holds)', async () => {
  const { sim, env, dir } = await bench.open({ chatbots: [BOT] });
  const all = Array.from({ length: 100 }, (_, i) => i);
  const feedOf = (name: string, indexes: readonly number[]): string =>
    writeNativeCsv(
      dir,
      name,
      indexes.map((i) => nativeCsvRow(sampleListing(i))),
    );
  const sync = (feed: string, ...flags: string[]): Promise<Awaited<ReturnType<typeof runCli>>> =>
    runCli(['sync', '--chatbot', BOT, '--feed', feed, '--json', '--work', ...flags], env, 60_000);

  expect((await sync(feedOf('all.csv', all))).code).toBe(0);
  // The same listings synced once by URL: the URL run adopts all 100 into its own ledger.
  const byUrl = await sync(feedOf('all.csv', all), '--key-type', 'URL');
  expect(byUrl.code, byUrl.stderr).toBe(0);
  expect(jsonOf<{ plan: { unchanged: number; adopted: number } }>(byUrl).plan).toMatchObject({ unchanged: 100, adopted: 100 });
  sim.state.resetCounters();

  // Dropping 18 is 18% of the 100 MLSNumber-managed listings (one shared ledger made it 18 of 200, 9%).
  const run = await sync(feedOf('drops-18.csv', all.slice(0, 82)));
  expect(run.code, run.stderr).toBe(3);
  expect(jsonOf<{ guard: { reasons: string[] } }>(run).guard.reasons).toEqual([
    expect.stringMatching(/^The plan would delete 18 listings of 100 managed \(18%\)/),
  ]);
  expect(sim.state.writeCalls()).toBe(0);
  expect(sim.state.listings(BOT)).toHaveLength(100);
});
