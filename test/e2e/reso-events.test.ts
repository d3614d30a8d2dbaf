/**
 * `sync --replicate --events` (RESO RCP-027 EntityEvent) against the RESO simulator, with the
 * built CLI and real Redis: a first run resyncs in full and stores the newest sequence; later
 * runs fetch only the listings the events name (`ListingKey in (...)`), removals included;
 * compaction changes nothing; a purged history forces a resync that deletes nothing before it
 * is complete. No duplicate create throughout.
 */
import { describe, expect, it } from 'vitest';
import { resoFixtures, type ResoFixture, type Replicated } from '../helpers/reso-fixture.js';
import { jsonOf } from '../helpers/run-cli.js';

const BOT = 'bot-events';
const RECORDS = 50;
const start = resoFixtures();

interface EventsOut extends Replicated {
  replication: Replicated['replication'] & {
    events?: { mode: string; reason?: string; sequence?: number; events?: number; listings?: number; gone?: number };
  };
}

const setUp = (): Promise<ResoFixture> =>
  start({ chatbots: [BOT], records: RECORDS, photos: 1, reso: { maxTop: 1000 }, label: 'reso-events' });

async function events(f: ResoFixture, extra: string[] = []): Promise<{ code: number | null; out: EventsOut; stderr: string }> {
  const run = await f.replicate(BOT, { extra: ['--events', '--max-deletes', '5', ...extra] });
  return { code: run.code, out: jsonOf<EventsOut>(run), stderr: run.stderr };
}

const propertyRequests = (f: ResoFixture): number =>
  f.reso.state.requests().filter((entry) => entry.url.startsWith('/odata/Property')).length;

describe('sync --replicate --events', () => {
  it('resyncs first, then applies 5 changes and 2 removals with at most 3 Property requests; compaction changes nothing', async () => {
    const f = await setUp();
    const first = await events(f);
    expect(first.code, first.stderr).toBe(0);
    expect(first.out.replication.events).toMatchObject({
      mode: 'resync',
      reason: 'first run',
      sequence: f.reso.state.records.events.lastSequence,
    });
    expect(f.sim.state.listings(BOT)).toHaveLength(RECORDS);

    const keys = f.keys();
    const changed = keys.slice(3, 8);
    const removed = keys.slice(20, 22);
    const removedIds = removed.map((key) => f.listingIdOf(key));
    f.reso.state.records.modify({ keys: changed });
    f.reso.state.records.modify({ keys: changed.slice(0, 2) }); // two events for one record: read once
    f.reso.state.records.remove({ keys: removed });
    f.reso.state.reset();
    const second = await events(f);
    expect(second.code, second.stderr).toBe(0);
    expect(second.out.plan).toEqual(expect.objectContaining({ create: 0, update: 5, delete: 2 }));
    expect(second.out.replication.events).toMatchObject({
      mode: 'events',
      listings: 7,
      gone: 2,
      sequence: f.reso.state.records.events.lastSequence,
    });
    expect(propertyRequests(f)).toBeLessThanOrEqual(3);
    expect(f.sim.state.listings(BOT)).toHaveLength(RECORDS - 2);
    for (const id of removedIds) expect(f.mlsNumbers(BOT)).not.toContain(id);
    const prices = new Map(f.sim.state.listings(BOT).map((listing) => [String(listing.MLSNumber), listing]));
    for (const key of changed) {
      const record = f.reso.state.records.get(key);
      expect(JSON.stringify(prices.get(f.listingIdOf(key)))).toContain(String(record?.property.ListPrice));
    }

    // Compaction keeps the latest event per record: the next run reads the same changes.
    f.reso.state.records.modify({ keys: [keys[30] ?? ''] });
    f.reso.state.records.modify({ keys: [keys[30] ?? ''] });
    f.reso.state.records.events.compact();
    const third = await events(f);
    expect(third.code, third.stderr).toBe(0);
    expect(third.out.plan).toEqual(expect.objectContaining({ create: 0, update: 1, delete: 0 }));
    expect(third.out.replication.events).toMatchObject({ mode: 'events', listings: 1, gone: 0 });
    const quiet = await events(f);
    expect(quiet.out.plan).toEqual(expect.objectContaining({ create: 0, update: 0, delete: 0 }));
    expect(f.sim.state.duplicateCreates(BOT)).toEqual([]);
  });

  it('a purged history forces a full resync, and removals made during the gap are deleted only once it completed', async () => {
    const f = await setUp();
    const first = await events(f);
    expect(first.code, first.stderr).toBe(0);
    const stored = f.reso.state.records.events.lastSequence;
    const keys = f.keys();
    const removed = keys.slice(10, 12);
    const removedIds = removed.map((key) => f.listingIdOf(key));
    f.reso.state.records.modify({ keys: keys.slice(0, 3) });
    f.reso.state.records.remove({ keys: removed });
    f.reso.state.records.modify({ keys: [keys[40] ?? ''] });
    // Retention dropped the events right after the stored sequence: what they named is unknown.
    f.reso.state.records.events.purge(f.reso.state.records.events.lastSequence);

    // A resync cut short by the budget (2 bounds + 5 sweep pages + 2 of 5 pull pages): nothing deleted, nothing stored.
    const cut = await events(f, ['--feed-page-size', '10', '--feed-budget', '9/d']);
    expect(cut.code, cut.stderr).not.toBe(0);
    expect(cut.out.replication.status).toBe('budget-exhausted');
    expect(cut.out.replication.events).toMatchObject({ mode: 'resync', reason: 'retention gap', sequence: stored });
    expect(cut.out.plan.delete).toBe(0);
    expect(f.sim.state.listings(BOT)).toHaveLength(RECORDS);
    for (const id of removedIds) expect(f.mlsNumbers(BOT)).toContain(id);

    const whole = await events(f);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.out.replication.events).toMatchObject({ mode: 'resync', reason: 'retention gap' });
    expect(whole.out.replication.sweep).toEqual({ complete: true, deleted: 2 });
    expect(f.sim.state.listings(BOT)).toHaveLength(RECORDS - 2);
    for (const id of removedIds) expect(f.mlsNumbers(BOT)).not.toContain(id);

    const after = await events(f);
    expect(after.code, after.stderr).toBe(0);
    expect(after.out.replication.events).toMatchObject({ mode: 'events', listings: 0 });
    expect(after.out.plan).toEqual(expect.objectContaining({ create: 0, update: 0, delete: 0 }));
    expect(f.sim.state.duplicateCreates(BOT)).toEqual([]);
  });
});
