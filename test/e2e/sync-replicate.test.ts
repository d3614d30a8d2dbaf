/**
 * `listing-sync sync --replicate` as a process against the RESO simulator (the MLS) and the
 * service simulator (the chatbot), with real Redis: a first full pull through short-lived tokens,
 * incremental pulls that fetch and apply only what changed, off-market records deleted and absent
 * ones kept, sweeps that delete vanished keys only when complete, and no secret in any output.
 */
import { describe, expect, it } from 'vitest';
import {
  after,
  FEED_SECRET as SECRET,
  fetchAccessToken,
  resoFixtures,
  WITHOUT_OAUTH,
  type ResoFixture,
  type Replicated,
} from '../helpers/reso-fixture.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';

const BOT = 'bot-reso';
const start = resoFixtures();

async function setUp(records: number): Promise<ResoFixture> {
  // Why a 1 s token revoked after 300 ms: a long pull renews its token mid-way.
  return await start({
    chatbots: [BOT],
    records,
    reso: { maxTop: 10, tokenTtlSeconds: 1, faults: { tokenRevokeAfterMs: 300 } },
  });
}

const replicate = async (f: ResoFixture, extra: string[] = []): Promise<CliRun> => await f.replicate(BOT, { extra });

describe('sync --replicate', () => {
  it('pulls everything once, then only what changed (a change at the watermark included), and deletes only off-market records', async () => {
    const f = await setUp(25);
    const { sim: s, reso: r } = f;
    // The first request (the source's first run reads $metadata first) is answered 401 as if its
    // token had ended early: the client renews it and goes on. (A token revoked after 300 ms may
    // cost another 401 later in the pull, on a slow machine.)
    r.state.configure({ faults: { tokenRevokeAfterMs: 300, nextStatuses: [401] } });
    const first = await replicate(f);
    expect(first.code, first.stderr).toBe(0);
    expect(
      r.state
        .requests()
        .slice(0, 2)
        .map((entry) => [entry.url, entry.status]),
    ).toEqual([
      ['/odata/$metadata', 401],
      ['/odata/$metadata', 200],
    ]);
    expect(r.state.counters().unauthorized).toBeGreaterThanOrEqual(1);
    expect(r.state.counters().tokensIssued).toBeGreaterThanOrEqual(2);
    const firstOut = jsonOf<Replicated>(first);
    expect(firstOut.replication).toMatchObject({ status: 'done', recordsPulled: 25 });
    expect(s.state.listings(BOT)).toHaveLength(25);
    const watermark = firstOut.replication.watermark ?? '';
    expect(watermark).not.toBe('');

    const keys = r.state.records.list().map((record) => String(record.property.ListingKey));
    const changed = [keys[2] ?? '', keys[9] ?? '', keys[20] ?? ''];
    changed.forEach((key, i) => r.state.records.modify({ keys: [key], timestamp: after(watermark, i + 1) }));
    r.state.reset();
    const second = await replicate(f);
    expect(second.code, second.stderr).toBe(0);
    const secondOut = jsonOf<Replicated>(second);
    // The 3 changed records and the one stamped at the watermark (ge), which is unchanged.
    expect(r.state.counters().recordsServed).toBe(4);
    expect(secondOut.plan).toMatchObject({ create: 0, update: 3, delete: 0 });

    const atMark = secondOut.replication.watermark ?? '';
    r.state.records.modify({ keys: [keys[5] ?? ''], timestamp: atMark });
    const third = await replicate(f);
    expect(jsonOf<Replicated>(third).plan).toMatchObject({ create: 0, update: 1, delete: 0 });

    const [withdrawn = '', removed = ''] = [keys[7], keys[11]];
    r.state.records.setStatus({ keys: [withdrawn], status: 'Withdrawn', timestamp: after(atMark, 10) });
    const removedId = f.listingIdOf(removed);
    r.state.records.remove({ keys: [removed] });
    const fourth = await replicate(f, ['--max-deletes', '1']);
    expect(fourth.code, fourth.stderr).toBe(0);
    expect(jsonOf<Replicated>(fourth).plan).toMatchObject({ delete: 1 });
    expect(f.mlsNumbers(BOT)).not.toContain(f.listingIdOf(withdrawn));
    expect(f.mlsNumbers(BOT)).toContain(removedId);

    const sweep = await replicate(f, ['--sweep', '--max-deletes', '1']);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(jsonOf<Replicated>(sweep).replication.sweep).toEqual({ complete: true, deleted: 1 });
    expect(f.mlsNumbers(BOT)).not.toContain(removedId);
    expect(s.state.listings(BOT)).toHaveLength(23);
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
  });

  it('deletes nothing when the sweep is cut short by the budget, after a dry run that advanced nothing, and exits 1', async () => {
    const f = await setUp(25);
    const { sim: s, reso: r } = f;
    const dry = await runCli(
      ['sync', '--chatbot', BOT, '--feed', r.propertyUrl, '--profile', 'reso', '--replicate', '--dry-run', '--json'],
      f.env(),
      60_000,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(s.state.listings(BOT)).toHaveLength(0);
    // A dry run never advances the watermark: the real run still pulls everything.
    const full = await replicate(f);
    expect(full.code).toBe(0);
    expect(jsonOf<Replicated>(full).replication).toMatchObject({ status: 'done', recordsPulled: 25 });
    const keys = r.state.records.list().map((record) => String(record.property.ListingKey));
    const removedId = f.listingIdOf(keys[4] ?? '');
    r.state.records.remove({ keys: [keys[4] ?? ''] });
    const cut = await replicate(f, ['--sweep', '--feed-budget', '2/d']);
    expect(cut.code, cut.stderr).toBe(1);
    expect(cut.stderr).toContain('feed request budget exhausted');
    expect(jsonOf<Replicated>(cut).replication).toMatchObject({ status: 'budget-exhausted', sweep: { complete: false, deleted: 0 } });
    expect(f.mlsNumbers(BOT)).toContain(removedId);
    expect(s.state.listings(BOT)).toHaveLength(25);
  });

  it('halts after repeated 429s with one clear line and exit 1; the source shows the failed run and the watermark it kept', async () => {
    const f = await setUp(5);
    const { reso: r } = f;
    expect((await replicate(f)).code).toBe(0);
    r.state.configure({ faults: { retryAfterSeconds: 0, nextStatuses: [429, 429, 429, 429] } });
    const limited = await replicate(f);
    expect(limited.code).toBe(1);
    expect(limited.stderr).toMatch(/^listing-sync: .*429/m);
    const shown = await runCli(['sources', 'show', '--chatbot', BOT, '--feed', r.propertyUrl, '--json'], f.env());
    expect(shown.code, shown.stderr).toBe(0);
    expect(jsonOf<{ lastRun: { status: string }; totals: { runs: number }; watermark?: string }>(shown)).toMatchObject({
      lastRun: { status: 'failed' },
      totals: { runs: 2 },
      watermark: expect.any(String) as unknown,
    });
    expect(shown.stdout).not.toContain(SECRET);
  });

  it('applies the prefix a budget-halted first pull received, advances the watermark to it, and the next run resumes there', async () => {
    const f = await setUp(25);
    const { sim: s, reso: r } = f;
    // The source's first run reads $metadata (1 request), then two pages of 10 (the server caps
    // $top at 10), and the daily budget of 3 requests is spent.
    // Why no token revocation here: a revoked token costs a refused request against the budget of 3,
    // and whether it lands between the two pages depends on how fast this machine is that moment.
    r.state.configure({ tokenTtlSeconds: 3600, faults: {} });
    const halted = await replicate(f, ['--feed-budget', '3/d']);
    expect(halted.code, halted.stderr).toBe(1);
    const out = jsonOf<Replicated>(halted);
    expect(out.replication).toMatchObject({ status: 'budget-exhausted', recordsPulled: 20 });
    expect(s.state.listings(BOT)).toHaveLength(20);
    const order = r.state.records
      .list()
      .map((record) => String(record.property.ModificationTimestamp))
      .sort();
    expect(out.replication.watermark).toBe(order[19]);

    r.state.reset();
    const resumed = await replicate(f);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(jsonOf<Replicated>(resumed).replication).toMatchObject({ status: 'done', recordsPulled: 6 });
    expect(s.state.listings(BOT)).toHaveLength(25);
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
  });

  it('pulls with a static FEED_TOKEN instead of client credentials, and never prints it', async () => {
    const f = await setUp(5);
    const { sim: s, reso: r } = f;
    r.state.configure({ tokenTtlSeconds: 3600, faults: {} });
    const token = await fetchAccessToken(r);
    const args = ['sync', '--chatbot', BOT, '--feed', r.propertyUrl, '--profile', 'reso', '--replicate', '--work', '--json'];
    const run = await runCli(args, f.env({ ...WITHOUT_OAUTH, FEED_TOKEN: token }), 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(s.state.listings(BOT)).toHaveLength(5);
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  it('counts off-market deletes against --max-deletes: a refused run changes nothing and keeps the watermark', async () => {
    const f = await setUp(10);
    const { sim: s, reso: r } = f;
    const first = jsonOf<Replicated>(await replicate(f));
    const keys = r.state.records.list().map((record) => String(record.property.ListingKey));
    r.state.records.setStatus({
      keys: [keys[1] ?? '', keys[2] ?? ''],
      status: 'Expired',
      timestamp: after(first.replication.watermark ?? '', 5),
    });
    const refused = await replicate(f, ['--max-deletes', '1']);
    expect(refused.code, refused.stderr).toBe(3);
    expect(jsonOf<Replicated>(refused)).toMatchObject({
      plan: { delete: 2 },
      replication: { status: 'refused', watermark: first.replication.watermark },
    });
    expect(s.state.listings(BOT)).toHaveLength(10);
    const allowed = await replicate(f, ['--max-deletes', '2']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(s.state.listings(BOT)).toHaveLength(8);
  });

  it('refuses a pull whose records stopped carrying a field (the wipe guard): nothing changed, the watermark kept; --allow-wipe applies it', async () => {
    const f = await setUp(12);
    const { sim: s, reso: r } = f;
    const first = jsonOf<Replicated>(await replicate(f));
    expect(s.state.listings(BOT).every((listing) => listing.Description !== undefined)).toBe(true);
    // The server stops sending PublicRemarks (the listings' Description) on every record it changes.
    r.state.records.modify({ keys: f.keys(), drop: ['PublicRemarks'], timestamp: after(first.replication.watermark ?? '', 5) });
    s.state.resetCounters();
    const refused = await replicate(f);
    expect(refused.code, refused.stderr).toBe(3);
    const out = jsonOf<
      Replicated & { guard: { reasons: string[] }; wipes: { fields: Array<{ field: string; count: number; verdict: string }> } }
    >(refused);
    expect(out.guard.reasons).toHaveLength(1);
    expect(out.guard.reasons[0]).toMatch(
      /^The plan would empty Description on 12 listings of the 12 that hold it \(100%\).*--allow-wipe Description or --force/,
    );
    expect(out.wipes.fields).toMatchObject([{ field: 'Description', count: 12, verdict: 'refused' }]);
    expect(out.replication).toMatchObject({ status: 'refused', watermark: first.replication.watermark });
    expect(s.state.writeCalls()).toBe(0);
    expect(s.state.listings(BOT).every((listing) => listing.Description !== undefined)).toBe(true);

    const allowed = await replicate(f, ['--allow-wipe', 'Description']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(jsonOf<Replicated>(allowed).plan).toMatchObject({ update: 12 });
    expect(s.state.listings(BOT).filter((listing) => listing.Description !== undefined)).toEqual([]);
  });
});
