/**
 * A RESO feed whose MLS leaves ListingURL empty, through the built CLI against the simulator:
 * without a mapping every row is rejected with a pointer to "templates"; with
 * `"templates": {"Url": "https://acme.example/homes/{ListingId}"}` it syncs, and each listing the
 * service holds has the pattern's Url with its ListingId URL-encoded.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simScenePerTest } from '../helpers/feed-scenario.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const BOT = 'bot-template';

const scenes = simScenePerTest('url-template');

/** RESO records as an MLS without listing URLs sends them: ListingURL null or absent. */
const KEYS = ['A-17/2', 'B 18', 'C19'];
const records = KEYS.map((key, i) => ({
  ListingKey: `k${i}`,
  ListingId: key,
  StandardStatus: 'Active',
  PropertyType: 'Residential',
  PropertySubType: 'Condominium',
  ListPrice: 400000 + i * 1000,
  BedroomsTotal: 2,
  BathroomsTotalDecimal: 1.5,
  LivingArea: 900,
  UnparsedAddress: `${i + 1} Lake Shore Dr`,
  City: 'Chicago',
  StateOrProvince: 'IL',
  PostalCode: '60611',
  ...(i === 0 ? { ListingURL: null } : {}),
}));

interface Summary {
  feed: { valid: number; rejected: number };
  result?: { created: number; failed: number };
}

describe('a RESO feed without ListingURL', () => {
  it('is rejected row by row pointing to templates, and syncs with a URL template', async () => {
    const { sim: s, env, dir } = await scenes.start({ chatbots: [BOT] });
    const feed = join(dir, 'inventory.json');
    writeFileSync(feed, JSON.stringify({ value: records }));
    const mapping = join(dir, 'reso-url.json');
    writeFileSync(mapping, JSON.stringify({ profile: 'reso', templates: { Url: 'https://acme.example/homes/{ListingId}' } }));
    const sync = ['sync', '--chatbot', BOT, '--feed', feed, '--profile', 'reso'];

    const without = await runCli([...sync, '--dry-run'], env);
    expect(without.code, without.stderr).toBe(3);
    expect(without.stdout).toContain(
      'Url: required, but column \'ListingURL\' is empty; map a column that holds it, or build it from a pattern: "templates"',
    );

    const run = await runCli([...sync, '--mapping', mapping, '--work', '--json'], env, 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf<Summary>(run)).toMatchObject({ feed: { valid: 3, rejected: 0 }, result: { created: 3, failed: 0 } });
    const urls = Object.fromEntries(s.state.listings(BOT).map((listing) => [listing.MLSNumber, listing.Url]));
    expect(urls).toEqual({
      'A-17/2': 'https://acme.example/homes/A-17%2F2',
      'B 18': 'https://acme.example/homes/B%2018',
      C19: 'https://acme.example/homes/C19',
    });
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
  }, 120_000);
});
