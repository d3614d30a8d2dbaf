/**
 * `sync --work` spools the creates and updates of a plan too large to keep in memory to an
 * unlinked file in the temp directory (src/sync/plan-spool.ts): a run with TMPDIR pointing at a
 * fresh directory converges, writes its whole --report, and leaves that directory empty; a TMPDIR
 * that cannot hold the file stops the sync with one line and exit 1 before a single request
 * reaches the service.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ListingWrite } from '../../src/domain/listing.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { IN_MEMORY_WRITES } from '../../src/sync/plan-spool.js';
import { jsonOf, lines, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const BOT = 'bot-spool';
const bench = useSyncBench('sync-spool');

interface Summary {
  plan: { create: number; update: number; delete: number };
  guard: { ok: boolean };
  jobs?: number;
  result?: { created: number; updated: number; failed: number };
}

interface Report {
  plan: { creates: Array<{ key: string; listing: ListingWrite }>; updates: Array<{ key: string; changes: Array<{ field: string }> }> };
}

const listings = (from: number, to: number, city?: string): ListingWrite[] =>
  Array.from({ length: to - from }, (_, i) => sampleListing(from + i, city === undefined ? {} : { City: city }));

describe('sync --work spools its plan to the temp directory', () => {
  it('converges, reports every create and update, and leaves nothing in TMPDIR', async () => {
    // 50 held, 40 of them changed in the feed, plus more new ones than a plan keeps in memory.
    const fresh = IN_MEMORY_WRITES + 600;
    const { sim, env, dir } = await bench.open({ chatbots: [BOT], listings: { [BOT]: listings(0, 50) } });
    const spoolDir = join(dir, 'tmp');
    mkdirSync(spoolDir);
    const feed = writeNativeCsv(
      dir,
      'feed.csv',
      [...listings(0, 40, 'Elsewhere'), ...listings(40, 50), ...listings(1000, 1000 + fresh)].map(nativeCsvRow),
    );
    const report = join(dir, 'report.json');
    const run = await runCli(
      ['sync', '--chatbot', BOT, '--feed', feed, '--work', '--concurrency', '16', '--json', '--report', report],
      { ...env, TMPDIR: spoolDir },
      120_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const summary = jsonOf<Summary>(run);
    expect(summary.plan).toMatchObject({ create: fresh, update: 40, delete: 0 });
    expect(summary.result).toMatchObject({ created: fresh, updated: 40, failed: 0 });
    expect(sim.state.listings(BOT)).toHaveLength(50 + fresh);
    expect(sim.state.duplicateCreates(BOT)).toEqual([]);
    // Exactly the minimal calls: one list page read, one request per write.
    expect(sim.state.writeCalls()).toBe(fresh + 40);

    const written = JSON.parse(readFileSync(report, 'utf8')) as Report;
    const createKeys = listings(1000, 1000 + fresh).map((l) => l.MLSNumber);
    expect(written.plan.creates.map((c) => c.key)).toEqual([...createKeys].sort());
    expect(written.plan.creates[0]?.listing.City).toBe(listings(1000, 1001)[0]?.City);
    expect(written.plan.updates).toHaveLength(40);
    for (const update of written.plan.updates) expect(update.changes.map((c) => c.field)).toContain('City');

    expect(readdirSync(spoolDir)).toEqual([]);
  }, 150_000);

  it('a TMPDIR that cannot hold the spool: exit 1, one line saying where and to set TMPDIR, nothing sent', async () => {
    const { sim, env, dir } = await bench.open({ chatbots: [BOT], listings: { [BOT]: listings(0, 5) } });
    const feed = writeNativeCsv(dir, 'feed.csv', listings(0, 20).map(nativeCsvRow));
    // A regular file where the directory should be (running as root, a read-only mode would not stop a write).
    const notADir = join(dir, 'not-a-dir');
    writeFileSync(notADir, '');
    const run = await runCli(
      ['sync', '--chatbot', BOT, '--feed', feed, '--work', '--concurrency', '4'],
      { ...env, TMPDIR: notADir },
      60_000,
    );
    expect(run.code, run.stderr).toBe(1);
    const stderr = lines(run.stderr);
    expect(stderr, run.stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^listing-sync: cannot create the plan's spool file in .*not-a-dir .*set TMPDIR to a writable directory/);
    expect(run.stdout).toBe('');
    expect(sim.state.writeCalls()).toBe(0);
    expect(Object.values(sim.state.callCounts()).reduce((a, b) => a + b, 0)).toBe(0);
    expect(sim.state.listings(BOT)).toHaveLength(5);
  }, 90_000);
});
