/**
 * `fleet run SOURCE` of an `events: true` source (RESO RCP-027 EntityEvent), as a process against
 * the RESO simulator in its EntityEvent mode, the service simulator and a real Redis: the source's
 * event log is read once for three chatbots. A first run resyncs in full; 5 changes and 2 removals
 * then cost at most 3 Property requests for the whole fleet, reach every chatbot, and the removals
 * are deleted through each chatbot's guard; a purged history forces a resync that deletes nothing
 * before it completed; the one read keeps to --feed-timeout; a chatbot its guard refuses holds the
 * source's sequence back, so the next run reads its events again; `sources show` and `fleet show`
 * name the sequence. No duplicate create.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResoProperty } from '../../src/sim/reso/types.js';
import { expectNoFeedSecret, resoFixtures, type ResoFixture } from '../helpers/reso-fixture.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';
import { startCli, stackTraceLines } from '../helpers/cli-process.js';

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const start = resoFixtures();
let dir = '';
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'ls-fleet-events-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RECORDS = 50;
/** Two chatbots see the whole source, one only its Boulder and Denver records. */
const WHERE: Readonly<Record<string, string | undefined>> = {
  'all-a': undefined,
  'all-b': undefined,
  'west-bot': '{ City: [Boulder, Denver] }',
};
const CHATBOTS = Object.keys(WHERE);

interface FleetRunJson {
  pull: {
    requests: number;
    records: number;
    events?: { mode: string; reason?: string; after?: number; events?: number; listings?: number; gone?: number };
  } | null;
  chatbots: Array<{
    chatbot: string;
    exitCode: number;
    summary?: { plan: { create: number; update: number; delete: number } };
    replication?: { status: string; sweep?: { complete: boolean; deleted: number }; events?: { mode: string; sequence?: number } };
  }>;
  exitCode: number;
}

function inView(chatbot: string, p: ResoProperty): boolean {
  return chatbot !== 'west-bot' || p.City === 'Boulder' || p.City === 'Denver';
}

function fleetFile(f: ResoFixture, sourceSettings = '', maxDeletes: Readonly<Record<string, number>> = {}): string {
  const path = join(dir, `fleet-${f.prefix}.yaml`);
  const chatbots = Object.entries(WHERE)
    .map(
      ([name, where]) =>
        `  ${name}:\n    source: mls\n    maxDeletes: ${maxDeletes[name] ?? 5}\n${where === undefined ? '' : `    where: ${where}\n`}`,
    )
    .join('');
  writeFileSync(
    path,
    `sources:\n  mls:\n    feed: ${f.reso.propertyUrl}\n    profile: reso\n    replicate: true\n    events: true\n    overlap: 0s\n${sourceSettings}chatbots:\n${chatbots}`,
  );
  return path;
}

async function cli(f: ResoFixture, args: string[]): Promise<CliRun> {
  const run = await runCli(args, f.env({ LOG_LEVEL: 'warn' }), 120_000);
  expectNoFeedSecret(run.stdout);
  expectNoFeedSecret(run.stderr);
  return run;
}

async function fleetRun(f: ResoFixture, extra: string[] = []): Promise<{ run: CliRun; out: FleetRunJson }> {
  const run = await cli(f, ['fleet', 'run', 'mls', '--work', '--json', ...extra]);
  return { run, out: jsonOf<FleetRunJson>(run) };
}

const propertyRequests = (f: ResoFixture): number =>
  f.reso.state.requests().filter((entry) => entry.url.startsWith('/odata/Property')).length;

/** Each chatbot holds exactly the Active records of its view, and never created one twice. */
function expectEachExact(f: ResoFixture): void {
  for (const chatbot of CHATBOTS) {
    const view = f.reso.state.records
      .list()
      .filter((record) => record.property.StandardStatus === 'Active' && inView(chatbot, record.property))
      .map((record) => record.property.ListingId)
      .sort();
    expect(f.mlsNumbers(chatbot), chatbot).toEqual(view);
    expect(f.sim.state.duplicateCreates(chatbot), chatbot).toEqual([]);
  }
}

const setUp = async (): Promise<ResoFixture> => {
  const f = await start({ chatbots: CHATBOTS, records: RECORDS, photos: 1, reso: { maxTop: 1000 }, label: 'fleet-events' });
  const applied = await cli(f, ['fleet', 'apply', fleetFile(f)]);
  expect(applied.code, applied.stderr).toBe(0);
  return f;
};

describe('fleet run of an events: true source', () => {
  it('resyncs once for all, then reads 5 changes and 2 removals once for the fleet (≤ 3 Property requests), each deleted through its guard', async () => {
    const f = await setUp();
    const first = await fleetRun(f);
    expect(first.run.code, first.run.stderr).toBe(0);
    expect(first.out.pull?.events).toMatchObject({ mode: 'resync', reason: 'first run' });
    expect(first.out.pull?.records).toBe(RECORDS);
    // One resync for three chatbots: the MLS served each record once to the key sweep and once to the pull.
    expect(f.reso.state.counters().recordsServed).toBe(2 * RECORDS);
    for (const line of first.out.chatbots)
      expect(line.replication?.events, line.chatbot).toMatchObject({ mode: 'resync', sequence: f.reso.state.records.events.lastSequence });
    expectEachExact(f);
    const westHeld = f.mlsNumbers('west-bot').length;
    expect(westHeld).toBeGreaterThan(0);

    const keys = f.keys();
    const west = f.reso.state.records
      .list()
      .filter((record) => inView('west-bot', record.property))
      .map((r) => r.property.ListingKey);
    const changed = [...west.slice(0, 2), ...keys.filter((key) => !west.includes(key)).slice(0, 3)];
    const removed = [west[2] ?? '', keys.filter((key) => !west.includes(key) && !changed.includes(key))[0] ?? ''];
    const removedIds = removed.map((key) => f.listingIdOf(key));
    f.reso.state.records.modify({ keys: changed });
    f.reso.state.records.modify({ keys: changed.slice(0, 2) }); // two events for one record: read once
    f.reso.state.records.remove({ keys: removed });
    f.reso.state.reset();

    const second = await fleetRun(f);
    expect(second.run.code, second.run.stderr).toBe(0);
    expect(second.out.pull?.events).toMatchObject({ mode: 'events', listings: 7, gone: 2 });
    // At most 3 Property requests in all (the listings named, one key sweep), not per chatbot.
    expect(propertyRequests(f)).toBeLessThanOrEqual(3);
    const plans = Object.fromEntries(second.out.chatbots.map((line) => [line.chatbot, line.summary?.plan]));
    expect(plans['all-a']).toEqual(expect.objectContaining({ create: 0, update: 5, delete: 2 }));
    expect(plans['all-b']).toEqual(expect.objectContaining({ create: 0, update: 5, delete: 2 }));
    expect(plans['west-bot']).toEqual(expect.objectContaining({ create: 0, update: 2, delete: 1 }));
    for (const line of second.out.chatbots)
      expect(line.replication?.events, line.chatbot).toMatchObject({ mode: 'events', sequence: f.reso.state.records.events.lastSequence });
    expectEachExact(f);
    for (const chatbot of CHATBOTS) {
      for (const id of removedIds) expect(f.mlsNumbers(chatbot), chatbot).not.toContain(id);
      const held = new Map(f.sim.state.listings(chatbot).map((listing) => [String(listing.MLSNumber), listing]));
      for (const key of changed.filter((k) => chatbot !== 'west-bot' || west.includes(k))) {
        const price = String(f.reso.state.records.get(key)?.property.ListPrice);
        expect(JSON.stringify(held.get(f.listingIdOf(key))), `${chatbot} ${key}`).toContain(price);
      }
    }
    expect(f.mlsNumbers('west-bot')).toHaveLength(westHeld - 1);

    const shown = await cli(f, ['sources', 'show', '--chatbot', 'west-bot', '--feed', f.reso.propertyUrl]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`events: sequence ${f.reso.state.records.events.lastSequence}`);
    expect(shown.stdout).toContain(
      `fleet source mls: EntityEvent, its next run reads the events after sequence ${f.reso.state.records.events.lastSequence}`,
    );
    const fleetShow = await cli(f, ['fleet', 'show']);
    expect(fleetShow.stdout).toMatch(/events: true/);
    expect(fleetShow.stdout).toContain(
      `# fleet source mls: EntityEvent, its next run reads the events after sequence ${f.reso.state.records.events.lastSequence}`,
    );

    const quiet = await fleetRun(f);
    expect(quiet.run.code, quiet.run.stderr).toBe(0);
    expect(quiet.out.pull?.events).toMatchObject({ mode: 'events', listings: 0, gone: 0 });
    const text = await cli(f, ['fleet', 'run', 'mls', '--dry-run']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(
        `^source mls: EntityEvent, read once after sequence ${f.reso.state.records.events.lastSequence}: 0 events naming 0 listings, 0 gone: 0 records, 3 requests`,
      ),
    );
    for (const line of quiet.out.chatbots)
      expect(line.summary?.plan, line.chatbot).toEqual(expect.objectContaining({ create: 0, update: 0, delete: 0 }));
    expectEachExact(f);
  });

  it('a purged history forces one resync for the source, and nothing is deleted before it completed', async () => {
    const f = await setUp();
    const first = await fleetRun(f);
    expect(first.run.code, first.run.stderr).toBe(0);
    const stored = f.reso.state.records.events.lastSequence;
    const west = f.reso.state.records
      .list()
      .filter((record) => inView('west-bot', record.property))
      .map((r) => r.property.ListingKey);
    const removed = [west[0] ?? '', f.keys().find((key) => !west.includes(key)) ?? ''];
    const removedIds = removed.map((key) => f.listingIdOf(key));
    f.reso.state.records.modify({ keys: f.keys().slice(5, 8) });
    f.reso.state.records.remove({ keys: removed });
    // Retention dropped the events right after the stored sequence: what they named is unknown.
    f.reso.state.records.events.purge(f.reso.state.records.events.lastSequence);

    // The resync cut short by the budget (2 bounds + 5 sweep pages + 2 of 5 pull pages): no chatbot deletes, none stores.
    const cutFile = fleetFile(f, '    feedPageSize: 10\n    budget: 9/d\n');
    expect((await cli(f, ['fleet', 'apply', cutFile])).code).toBe(0);
    f.reso.state.reset();
    const cut = await fleetRun(f);
    expect(cut.run.code, cut.run.stderr).toBe(1);
    expect(cut.out.pull?.events).toMatchObject({ mode: 'resync', reason: 'retention gap', after: stored });
    expect(f.reso.state.counters().requests).toBeLessThanOrEqual(10);
    for (const line of cut.out.chatbots) {
      expect(line.replication?.status, line.chatbot).toBe('budget-exhausted');
      expect(line.summary?.plan.delete, line.chatbot).toBe(0);
      expect(line.replication?.events?.sequence, line.chatbot).toBe(stored);
    }
    for (const chatbot of ['all-a', 'all-b']) for (const id of removedIds) expect(f.mlsNumbers(chatbot), chatbot).toContain(id);
    expect(f.mlsNumbers('west-bot')).toContain(removedIds[0]);

    expect((await cli(f, ['fleet', 'apply', fleetFile(f)])).code).toBe(0);
    const whole = await fleetRun(f);
    expect(whole.run.code, whole.run.stderr).toBe(0);
    expect(whole.out.pull?.events).toMatchObject({ mode: 'resync', reason: 'retention gap', after: stored });
    const deleted = Object.fromEntries(whole.out.chatbots.map((line) => [line.chatbot, line.replication?.sweep]));
    expect(deleted).toEqual({
      'all-a': { complete: true, deleted: 2 },
      'all-b': { complete: true, deleted: 2 },
      'west-bot': { complete: true, deleted: 1 },
    });
    expectEachExact(f);

    const after = await fleetRun(f);
    expect(after.run.code, after.run.stderr).toBe(0);
    expect(after.out.pull?.events).toMatchObject({ mode: 'events', listings: 0 });
    expectEachExact(f);
  });

  it('the one event read keeps to --feed-timeout: every chatbot fails naming it, no sequence moves, the next run reads the events', async () => {
    const f = await setUp();
    const first = await fleetRun(f);
    expect(first.run.code, first.run.stderr).toBe(0);
    const stored = f.reso.state.records.events.lastSequence;
    f.reso.state.records.modify({ keys: f.keys().slice(0, 2) });
    // The first event request is answered 429 with a Retry-After far past the deadline.
    f.reso.state.configure({ faults: { nextStatuses: [200, 200, 429], retryAfterSeconds: 120 } });
    const slow = await cli(f, ['fleet', 'run', 'mls', '--work', '--feed-timeout', '2s']);
    expect(slow.code, slow.stderr).toBe(2);
    for (const chatbot of CHATBOTS)
      expect(slow.stderr).toContain(
        `listing-sync: ${chatbot}: Feed ${f.reso.propertyUrl} (fleet source mls) is unreadable: it was still being read after 2 s, the most --feed-timeout allows`,
      );
    const shown = await cli(f, ['sources', 'show', '--chatbot', 'all-a', '--feed', f.reso.propertyUrl]);
    expect(shown.stdout).toContain(`events: sequence ${stored}`);
    expect(shown.stdout).toMatch(/last run: \S+ .* failed/);

    f.reso.state.configure({ faults: {} });
    const next = await fleetRun(f);
    expect(next.run.code, next.run.stderr).toBe(0);
    expect(next.out.pull?.events).toMatchObject({ mode: 'events', after: stored, listings: 2 });
    expectEachExact(f);
  });

  it("a chatbot refused by its delete guard keeps its listings and the source's sequence: the next run reads those events again", async () => {
    const f = await setUp();
    const first = await fleetRun(f);
    expect(first.run.code, first.run.stderr).toBe(0);
    const stored = f.reso.state.records.events.lastSequence;
    const west = f.reso.state.records
      .list()
      .filter((record) => inView('west-bot', record.property))
      .map((r) => r.property.ListingKey);
    const outside = f.keys().filter((key) => !west.includes(key));
    const removedIds = outside.slice(0, 2).map((key) => f.listingIdOf(key));
    f.reso.state.records.remove({ keys: outside.slice(0, 2) });
    f.reso.state.records.modify({ keys: [outside[5] ?? ''] });
    expect((await cli(f, ['fleet', 'apply', fleetFile(f, '', { 'all-b': 1 })])).code).toBe(0);

    const guarded = await fleetRun(f);
    expect(guarded.run.code, guarded.run.stderr).toBe(3);
    const exits = Object.fromEntries(guarded.out.chatbots.map((line) => [line.chatbot, line.exitCode]));
    expect(exits).toEqual({ 'all-a': 0, 'all-b': 3, 'west-bot': 0 });
    for (const id of removedIds) {
      expect(f.mlsNumbers('all-a')).not.toContain(id);
      expect(f.mlsNumbers('all-b')).toContain(id);
    }
    const sequenceOf = async (chatbot: string): Promise<string> =>
      (await cli(f, ['sources', 'show', '--chatbot', chatbot, '--feed', f.reso.propertyUrl])).stdout;
    expect(await sequenceOf('all-a')).toContain(`events: sequence ${f.reso.state.records.events.lastSequence}`);
    expect(await sequenceOf('all-b')).toContain(`events: sequence ${stored}`);
    expect(await sequenceOf('all-a')).toContain(`fleet source mls: EntityEvent, its next run reads the events after sequence ${stored}`);

    expect((await cli(f, ['fleet', 'apply', fleetFile(f)])).code).toBe(0);
    const again = await fleetRun(f);
    expect(again.run.code, again.run.stderr).toBe(0);
    expect(again.out.pull?.events).toMatchObject({ mode: 'events', after: stored, listings: 3, gone: 2 });
    const plans = Object.fromEntries(again.out.chatbots.map((line) => [line.chatbot, line.summary?.plan]));
    expect(plans['all-b']).toEqual(expect.objectContaining({ create: 0, update: 1, delete: 2 }));
    expect(plans['all-a']).toEqual(expect.objectContaining({ create: 0, update: 0, delete: 0 }));
    expectEachExact(f);
  });

  it("runs the source's one schedule in a worker: each occurrence reads the events once and every chatbot gets them", async () => {
    const f = await setUp();
    const applied = await cli(f, ['fleet', 'apply', fleetFile(f, '    schedule: { cron: "* * * * * *" }\n')]);
    expect(applied.code, applied.stderr).toBe(0);
    const holdsItsView = (): boolean =>
      CHATBOTS.every((chatbot) => {
        const view = f.reso.state.records
          .list()
          .filter((record) => inView(chatbot, record.property))
          .map((record) => record.property.ListingId)
          .sort();
        return JSON.stringify(f.mlsNumbers(chatbot)) === JSON.stringify(view);
      });
    const worker = startCli(['worker', '--concurrency', '4'], f.env({ LOG_LEVEL: 'info' }));
    try {
      await until(holdsItsView, 60_000, 'the scheduled resync to give each chatbot its view');
      const west = f.reso.state.records.list().find((record) => inView('west-bot', record.property))?.property;
      if (west === undefined) throw new Error('no Boulder or Denver record seeded');
      f.reso.state.records.remove({ keys: [west.ListingKey] });
      await until(
        () => CHATBOTS.every((chatbot) => !f.mlsNumbers(chatbot).includes(west.ListingId)),
        60_000,
        'a later occurrence to delete the removed listing from every chatbot',
      );
      expect((await cli(f, ['schedule', 'remove', 'fleet@mls'])).code).toBe(0);
    } finally {
      const stopped = await worker.stop('SIGTERM');
      expect(stopped.code, worker.stderr()).toBe(0);
    }
    expect(stackTraceLines(worker.stdout() + worker.stderr())).toEqual([]);
    expectNoFeedSecret(worker.stdout() + worker.stderr());
    expectEachExact(f);
  });
});
