/**
 * `sync --work` with its stages overlapped (workers warm before the plan is done, the plan
 * enqueued in chunks while they already write): the guard still judges the WHOLE plan before
 * anything is sent. A refused run of a large feed sends no write at all, and a truncated feed
 * (its last row cut off mid-line) plans no delete however many listings it lacks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ListingWrite } from '../../src/domain/listing.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const BOT = 'bot-stages';
const bench = useSyncBench('sync-stages');

interface Summary {
  plan: { create: number; update: number; delete: number };
  guard: { ok: boolean; reasons: string[] };
  jobs?: number;
  result?: { created: number; deleted: number; failed: number };
}

const listings = (from: number, to: number): ListingWrite[] => Array.from({ length: to - from }, (_, i) => sampleListing(from + i));

describe('sync --work with overlapped stages', () => {
  it('a refused run of a large feed sends nothing: 0 write requests although workers were running', async () => {
    // 600 listings held, a feed of 1500 new ones and none of the held: 600 deletes over --max-deletes 10.
    const { sim, env, dir } = await bench.open({ chatbots: [BOT], listings: { [BOT]: listings(0, 600) }, faults: { latencyMs: 5 } });
    const feed = writeNativeCsv(dir, 'feed.csv', listings(1000, 2500).map(nativeCsvRow));
    const run = await runCli(
      ['sync', '--chatbot', BOT, '--feed', feed, '--delete-scope', 'all', '--max-deletes', '10', '--work', '--concurrency', '16', '--json'],
      env,
      120_000,
    );
    expect(run.code, run.stderr).toBe(3);
    const summary = jsonOf<Summary>(run);
    expect(summary.guard.ok).toBe(false);
    expect(summary.plan).toMatchObject({ create: 1500, delete: 600 });
    expect(summary.jobs).toBeUndefined();
    expect(sim.state.writeCalls()).toBe(0);
    expect(sim.state.callCounts()).toMatchObject({ createListing: 0, updateListing: 0, deleteListings: 0 });
    expect(sim.state.listings(BOT)).toHaveLength(600);
  }, 150_000);

  it('a truncated feed plans no delete: JSON cut mid-record sends nothing at all, a CSV row cut inside its key holds every listing', async () => {
    // The chatbot holds 0..799, written by a first run (so the ledger manages them); each feed has
    // 0..199 and 1000..1599 and is cut after them: 600 listings it lacks.
    const { sim, env, dir } = await bench.open({ chatbots: [BOT], faults: { latencyMs: 2 } });
    const first = writeNativeCsv(dir, 'first.csv', listings(0, 800).map(nativeCsvRow));
    const seeded = await runCli(['sync', '--chatbot', BOT, '--feed', first, '--work', '--concurrency', '16', '--json'], env, 120_000);
    expect(seeded.code, seeded.stderr).toBe(0);
    const before = sim.state.callCounts();
    const kept = [...listings(0, 200), ...listings(1000, 1600)];
    const flags = ['--delete-scope', 'all', '--max-deletes', '100%', '--max-rejected', '100%', '--work', '--concurrency', '16', '--json'];

    // JSON: the rows before the cut are read and planned as they stream in, then the feed fails.
    const records = kept.map(({ SerialNumber: _serial, ...fields }) => JSON.stringify(fields));
    const cutJson = join(dir, 'cut.json');
    writeFileSync(cutJson, `[\n${records.join(',\n')},\n${JSON.stringify(sampleListing(1600)).slice(0, 40)}`);
    const unreadable = await runCli(['sync', '--chatbot', BOT, '--feed', cutJson, ...flags], env, 120_000);
    expect(unreadable.code, unreadable.stderr).toBe(2);
    expect(unreadable.stderr).toContain('the JSON ends before it is closed');
    const after = sim.state.callCounts();
    expect([after.createListing, after.updateListing, after.deleteListings]).toEqual([before.createListing, before.updateListing, 0]);
    expect(sim.state.listings(BOT)).toHaveLength(800);

    // CSV: the last row stops inside its MLS number, so its key cannot be trusted: no deletes at all.
    const cutKey = nativeCsvRow(sampleListing(1600)).slice(0, 5);
    const cutCsv = writeNativeCsv(dir, 'cut.csv', [...kept.map(nativeCsvRow), cutKey], false);
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', cutCsv, ...flags], env, 120_000);
    expect(run.code, run.stderr).toBe(0);
    const summary = jsonOf<Summary>(run);
    expect(summary.plan).toMatchObject({ create: 600, delete: 0 });
    expect(summary.result).toMatchObject({ created: 600, deleted: 0 });
    expect(sim.state.callCounts().deleteListings).toBe(0);
    expect(sim.state.listings(BOT)).toHaveLength(1400);
    expect(sim.state.duplicateCreates(BOT)).toEqual([]);
  }, 250_000);
});
