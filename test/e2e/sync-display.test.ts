/**
 * MLS display rules through the built CLI. Against the RESO simulator (`--replicate`): each flag on
 * a first sync and on held listings whose flag changes (address blanks that pass the wipe guard,
 * forbidden records deleted by status through the delete guard), MlgCanUse with and without IDX,
 * the default attribution, nothing restricted ever sent. From a feed file with `--display-policy`:
 * a policy's template, an attribution that compares equal on the next run, a dated rule crossing
 * its date on a clock the test sets (LISTING_SYNC_NOW), and a bad policy file refused in one line.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { releaseScene } from '../helpers/feed-scenario.js';
import { uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { after, resoFixtures } from '../helpers/reso-fixture.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-display';
const start = resoFixtures();

interface Shown {
  runId: string;
  plan: { create: number; update: number; delete: number; unchanged: number };
  guard: { ok: boolean; reasons: string[] };
  wipes?: { fields: Array<{ field: string }> };
  display: {
    withheld: Record<string, Record<string, number>>;
    notPublished: Record<string, number>;
    attributed: number;
    blanked: Array<{ field: string; count: number }>;
    coming?: string[];
  };
  replication?: { watermark?: string };
}

type Listing = Record<string, unknown> & { MLSNumber: string; ExtensionColumn?: Array<{ Key: string; value: string }> };
const attributionOf = (listing: Listing | undefined): string | undefined =>
  listing?.ExtensionColumn?.find((entry) => entry.Key === 'Attribution')?.value;

describe('display rules on a replicated MLS', () => {
  it('honours each flag on a first sync and when it changes on held listings', async () => {
    const f = await start({ chatbots: [BOT], records: 12, reso: { maxTop: 50 } });
    const { reso: r, sim: s } = f;
    const keys = r.state.records.list().map((record) => String(record.property.ListingKey));
    const key = (i: number): string => keys[i] ?? '';
    const id = (i: number): string => f.listingIdOf(key(i));
    for (const [i] of keys.entries())
      r.state.records.modify({
        keys: [key(i)],
        changes: { ListOfficeName: `Office ${i}`, PrivateRemarks: 'SECRET-remarks', ShowingInstructions: 'SECRET-lockbox' },
      });
    r.state.records.modify({ keys: [key(1)], changes: { InternetAddressDisplayYN: false } });
    r.state.records.modify({ keys: [key(2)], changes: { InternetEntireListingDisplayYN: false } });
    r.state.records.modify({ keys: [key(3)], changes: { MlgCanUse: ['VOW'] } });
    r.state.records.modify({ keys: [key(4)], changes: { MlgCanUse: ['IDX', 'VOW'] } });

    const first = await f.replicate(BOT);
    expect(first.code, first.stderr).toBe(0);
    const summary = jsonOf<Shown>(first);
    expect(f.mlsNumbers(BOT)).toHaveLength(10);
    expect(f.mlsNumbers(BOT)).not.toContain(id(2));
    expect(f.mlsNumbers(BOT)).not.toContain(id(3));
    expect(f.mlsNumbers(BOT)).toContain(id(4));
    const held = (i: number): Listing | undefined => s.state.listings(BOT).find((listing) => listing.MLSNumber === id(i));
    expect(held(1)?.Address).toBeUndefined();
    expect(held(1)?.Latitude).toBeUndefined();
    expect(held(0)?.Address).toBeTruthy();
    expect(attributionOf(held(0))).toBe('Listing courtesy of Office 0');
    expect(JSON.stringify(s.state.listings(BOT))).not.toContain('SECRET-');
    expect(summary.display.notPublished).toEqual({ 'InternetEntireListingDisplayYN false': 1, 'MlgCanUse without IDX': 1 });
    expect(summary.display.withheld.PrivateRemarks).toEqual({ 'restricted from public view': 10 });
    expect(summary.display.withheld.Address).toEqual({ 'InternetAddressDisplayYN false': 1 });
    expect(summary.display.attributed).toBe(10);

    // Held listings: six lose their address (more than --max-wipes allows a feed), one opts out, one loses IDX.
    const watermark = summary.replication?.watermark ?? '';
    [5, 6, 7, 8, 9, 10].forEach((i, n) =>
      r.state.records.modify({ keys: [key(i)], changes: { InternetAddressDisplayYN: false }, timestamp: after(watermark, n + 1) }),
    );
    r.state.records.modify({ keys: [key(0)], changes: { InternetEntireListingDisplayYN: false }, timestamp: after(watermark, 10) });
    r.state.records.modify({ keys: [key(4)], changes: { MlgCanUse: ['BO'] }, timestamp: after(watermark, 11) });
    const second = await f.replicate(BOT, { extra: ['--max-deletes', '2'] });
    expect(second.code, second.stderr).toBe(0);
    const changed = jsonOf<Shown>(second);
    expect(changed.guard.ok).toBe(true);
    expect(changed.wipes?.fields ?? []).toEqual([]);
    expect(changed.plan).toMatchObject({ update: 6, delete: 2 });
    expect(changed.display.blanked.map((blank) => [blank.field, blank.count])).toEqual([
      ['Address', 6],
      ['Latitude', 6],
      ['Longitude', 6],
    ]);
    expect(f.mlsNumbers(BOT)).toHaveLength(8);
    expect(f.mlsNumbers(BOT)).not.toContain(id(0));
    expect(f.mlsNumbers(BOT)).not.toContain(id(4));
    for (const i of [5, 6, 7, 8, 9, 10]) expect(held(i)?.Address).toBeUndefined();
    expect(s.state.duplicateCreates(BOT)).toEqual([]);

    // A refused delete: the guard counts what the display rules delete like any delete.
    r.state.records.modify({ keys: [key(5), key(6)], changes: { InternetEntireListingDisplayYN: false }, timestamp: after(watermark, 20) });
    const refused = await f.replicate(BOT, { extra: ['--max-deletes', '1'] });
    expect(refused.code, refused.stderr).toBe(3);
    expect(f.mlsNumbers(BOT)).toHaveLength(8);

    // A policy announcing a dated rule: `sources show` names the coming change.
    const policy = join(mkdtempSync(join(tmpdir(), 'ls-display-rule-')), 'policy.yaml');
    writeFileSync(policy, 'rules:\n  - from: 2099-01-01\n    withhold: [ListAgentEmail]\n');
    const announced = await f.replicate(BOT, { extra: ['--max-deletes', '2', '--display-policy', policy] });
    expect(announced.code, announced.stderr).toBe(0);
    const shown = await runCli(['sources', 'show', '--chatbot', BOT, '--feed', r.propertyUrl, '--json'], f.env());
    expect(shown.code, shown.stderr).toBe(0);
    expect(jsonOf<{ displayComing?: string[] }>(shown).displayComing).toEqual(['from 2099-01-01: withhold ListAgentEmail']);
    const text = await runCli(['sources', 'show', '--chatbot', BOT, '--feed', r.propertyUrl], f.env());
    expect(text.stdout).toContain('display rule coming from 2099-01-01: withhold ListAgentEmail');
  });
});

let sim: RunningSimulator | undefined;
let prefix = '';
let dir = '';
afterEach(async (ctx) => {
  await releaseScene({ sim, dir, redisUrl, prefix, passed: (ctx.task.result?.errors ?? []).length === 0 });
  sim = undefined;
  dir = '';
  prefix = '';
});

describe('display rules from a feed file with --display-policy', () => {
  it('attributes by the policy template, stays equal next run, and applies a dated rule once its date passes', async () => {
    prefix = uniquePrefix('display');
    dir = mkdtempSync(join(tmpdir(), 'ls-display-'));
    const s = await startTestSim({ chatbots: [BOT] });
    sim = s;
    const feed = join(dir, 'feed.ndjson');
    copyFileSync('fixtures/display/feed.ndjson', feed);
    const policy = join(dir, 'policy.yaml');
    writeFileSync(
      policy,
      'attribution: "Courtesy of {ListOfficeName} ({ListOfficePhone})"\nrules:\n  - from: 2027-01-15\n    withhold: [ListAgentEmail]\n',
    );
    const env = (now: string): Record<string, string> => ({
      ...simEnv(s),
      REDIS_URL: redisUrl,
      LISTING_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      LISTING_SYNC_NOW: now,
    });
    const sync = async (now: string, ...extra: string[]): Promise<Shown> => {
      const args = ['sync', '--chatbot', BOT, '--feed', feed, '--profile', 'reso', '--mapping', 'fixtures/display/mapping.json'];
      const run = await runCli([...args, '--display-policy', policy, '--work', '--json', ...extra], env(now), 60_000);
      expect(run.code, run.stderr).toBe(0);
      return jsonOf<Shown>(run);
    };
    const byId = (mls: string): Listing | undefined => s.state.listings(BOT).find((listing) => listing.MLSNumber === mls);
    const email = (mls: string): string | undefined => byId(mls)?.ExtensionColumn?.find((entry) => entry.Key === 'ListAgentEmail')?.value;

    const first = await sync('2027-01-10T00:00:00Z');
    expect(first.plan).toMatchObject({ create: 4 });
    expect(attributionOf(byId('D1'))).toBe('Courtesy of Acme Realty (555-0100)');
    // A field the template names is missing and attribution is not required: published without one.
    expect(attributionOf(byId('D2'))).toBeUndefined();
    expect(email('D1')).toBe('agent@acme.example');
    expect(first.display.coming).toEqual(['from 2027-01-15: withhold ListAgentEmail']);
    expect(JSON.stringify(s.state.listings(BOT))).not.toMatch(/motivated|Lockbox|Pat/);

    const again = await sync('2027-01-11T00:00:00Z');
    expect(again.plan).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 4 });

    const crossed = await sync('2027-01-16T00:00:00Z');
    expect(crossed.plan).toMatchObject({ create: 0, update: 2, delete: 0 });
    expect(crossed.display.withheld.ListAgentEmail).toEqual({ 'rule from 2027-01-15': 2 });
    expect(crossed.display.coming).toBeUndefined();
    expect(email('D1')).toBeUndefined();
    expect(email('D2')).toBeUndefined();
    expect(attributionOf(byId('D1'))).toBe('Courtesy of Acme Realty (555-0100)');
    expect((await sync('2027-01-17T00:00:00Z')).plan).toMatchObject({ update: 0, unchanged: 4 });
  });

  it('refuses a policy with an unknown key in one line with its place, exit 2, nothing sent', async () => {
    prefix = uniquePrefix('display-bad');
    dir = mkdtempSync(join(tmpdir(), 'ls-display-bad-'));
    const s = await startTestSim({ chatbots: [BOT] });
    sim = s;
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'requireAttribution: true\nwithold: [ListAgentEmail]\n');
    const run = await runCli(
      ['sync', '--chatbot', BOT, '--feed', 'fixtures/display/feed.ndjson', '--profile', 'reso', '--display-policy', policy],
      { ...simEnv(s), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' },
    );
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^listing-sync: ${policy}:2:1: withold: unknown key 'withold' \\(did you mean withhold\\?\\)`)),
    ]);
    expect(s.state.writeCalls()).toBe(0);
  });
});
