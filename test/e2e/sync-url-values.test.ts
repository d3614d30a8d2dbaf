/**
 * A Url or an image that is not http(s) (`javascript:`, `data:`) rejects its row with its line
 * and reason, through the built CLI against the simulator; the other rows are synced and the
 * dangerous values reach the service nowhere.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ListingWrite } from '../../src/domain/listing.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const BOT = 'bot-url-values';
const bench = useSyncBench('sync-url-values');

interface Summary {
  feed: { rows: number; valid: number; rejected: number };
  result?: { created: number; failed: number };
}

describe('Url and Images take http and https only', () => {
  it('a javascript: Url and a data: image reject their rows; the rest are synced', async () => {
    const { sim, env, dir } = await bench.open({ chatbots: [BOT] });
    const listings: ListingWrite[] = Array.from({ length: 6 }, (_, i) => sampleListing(i));
    const script = 'javascript:alert(document.domain)//';
    const dataImage = 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==';
    listings[1] = { ...(listings[1] as ListingWrite), Url: script };
    listings[3] = { ...(listings[3] as ListingWrite), Images: ['IMAGES'] };
    listings[4] = { ...(listings[4] as ListingWrite), Url: 'HTTPS://homes.example/upper-case-scheme' };
    // The data: URL holds a comma: its cell is quoted, as a real CSV writer would.
    const rows = listings.map(nativeCsvRow).map((row) => row.replace('IMAGES', `"https://img.example/ok.jpg|${dataImage}"`));
    const feed = writeNativeCsv(dir, 'values.csv', rows);

    const run = await runCli(
      ['sync', '--chatbot', BOT, '--feed', feed, '--json', '--work', '--max-rejected', '50%', '--report', `${dir}/r.json`],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const summary = jsonOf<Summary>(run);
    expect(summary.feed).toMatchObject({ rows: 6, valid: 4, rejected: 2 });
    expect(summary.result).toMatchObject({ created: 4, failed: 0 });

    const report = JSON.parse(readFileSync(`${dir}/r.json`, 'utf8')) as {
      rejected: Array<{ line: number; field: string; reason: string }>;
    };
    expect(report.rejected.map(({ line, field, reason }) => ({ line, field, reason }))).toEqual([
      { line: 3, field: 'Url', reason: `Url: expected an http:// or https:// URL, got '${script}'` },
      {
        line: 5,
        field: 'Images',
        reason: `Images: expected an http:// or https:// URL, got 'https://img.example/ok.jpg|${dataImage}'`,
      },
    ]);
    const held = sim.state.listings(BOT);
    expect(held.map((listing) => listing.MLSNumber).sort()).toEqual(['ML100000', 'ML100002', 'ML100004', 'ML100005']);
    const sent = JSON.stringify(held);
    expect(sent).not.toContain('javascript:');
    expect(sent).not.toContain('data:');
  });
});
