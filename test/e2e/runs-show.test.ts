/**
 * `runs show` reads as words: the run's counts, plan, guard and replication figures (watermark,
 * records, requests, bytes) as labelled values, never raw JSON; `--json` is the record itself.
 */
import { describe, expect, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { resoFixtures, type Replicated } from '../helpers/reso-fixture.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const BOT = 'bot-show';
const bench = useSyncBench('runs-show');
const startReso = resoFixtures();

/** A labelled line: the label, then its value after the padding. */
const line = (label: string, value: string): RegExp => new RegExp(`^${label} +${value.replace(/[()]/g, '\\$&')}$`, 'm');

describe('runs show', () => {
  it('says a sync run in labelled words, with no JSON; --json stays the record', async () => {
    const { env, dir } = await bench.open({ chatbots: [BOT] });
    const feed = writeNativeCsv(
      dir,
      'feed.csv',
      Array.from({ length: 6 }, (_, i) => nativeCsvRow(sampleListing(i))),
    );
    const synced = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--work', '--json'], env);
    expect(synced.code, synced.stderr).toBe(0);
    const runId = jsonOf<{ runId: string }>(synced).runId;

    const shown = await runCli(['runs', 'show', runId], env);
    expect(shown.code, shown.stderr).toBe(0);
    const text = shown.stdout;
    expect(text).not.toContain('{"');
    expect(text).not.toMatch(/[{}]/);
    expect(text.startsWith(`${runId}  ${BOT}  done`)).toBe(true);
    expect(text).toMatch(line('listings', 'created 6, updated 0, deleted 0, failed 0'));
    expect(text).toMatch(line('jobs', '6 of 6 finished, 0 failed for good'));
    expect(text).toMatch(/^finished +\d{4}-\d\d-\d\dT[\d:.]+Z \(took \d+ s\)$/m);
    expect(text).toMatch(/^feed +6 rows: 6 valid, 0 rejected/m);
    expect(text).toMatch(/^plan +create 6, update 0, delete 0, unchanged 0/m);
    expect(text).toMatch(/^guard +ok$/m);

    const json = await runCli(['runs', 'show', runId, '--json'], env);
    expect(jsonOf<{ id: string; counts: { created: number }; summary: { plan: { create: number } } }>(json)).toMatchObject({
      id: runId,
      counts: { created: 6 },
      summary: { plan: { create: 6 } },
    });
  });

  it('says a replication run with its watermark, records, requests and bytes', async () => {
    const f = await startReso({ chatbots: [BOT], records: 12, reso: { maxTop: 5 } });
    const pulled = await f.replicate(BOT);
    expect(pulled.code, pulled.stderr).toBe(0);
    const out = jsonOf<Replicated>(pulled);
    const shown = await runCli(['runs', 'show', out.runId], f.env());
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).not.toContain('{"');
    expect(shown.stdout).toMatch(line('replication', 'full pull: done'));
    expect(shown.stdout).toContain(`watermark ${out.replication.watermark ?? 'missing'}`);
    expect(shown.stdout).toMatch(/^ +12 records, \d+ requests, [\d.]+ (B|kB|MB) received$/m);
  });
});
