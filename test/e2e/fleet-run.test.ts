/**
 * `fleet run SOURCE` as a process against the RESO simulator (the MLS), the service simulator (the
 * chatbots) and a real Redis: one replicated source fanned out to three chatbots with different
 * `where`s is pulled once, each chatbot ends holding exactly its filter's records, and an
 * incremental pull (a listing moved to another city, a price changed, one withdrawn) fetches only
 * what changed and moves each listing to the chatbots it now belongs to. A `where` on a field the
 * records never carry refuses that chatbot's run, naming the field, and deletes nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResoProperty } from '../../src/sim/reso/types.js';
import { after, expectNoFeedSecret, resoFixtures, type ResoFixture } from '../helpers/reso-fixture.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';
import { startCli, stackTraceLines } from '../helpers/cli-process.js';
import { fixture } from '../helpers/feed.js';

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const start = resoFixtures();
let dir = '';
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'ls-fleet-run-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records of the simulator; pages of 10, so the minimal pull of N records is ceil(N / 10) requests. */
const RECORDS = 60;
const PAGE = 10;

const WHERE = {
  'west-bot': { City: ['Boulder', 'Denver'] },
  'austin-bot': { City: 'Austin' },
  'rich-bot': { ListPrice: { gte: 500000 } },
} as const;

type Chatbot = keyof typeof WHERE;

function matches(chatbot: Chatbot, p: ResoProperty): boolean {
  if (p.StandardStatus !== 'Active' && p.StandardStatus !== 'Pending') return false;
  if (chatbot === 'west-bot') return p.City === 'Boulder' || p.City === 'Denver';
  if (chatbot === 'austin-bot') return p.City === 'Austin';
  return p.ListPrice >= 500000;
}

interface FleetRunJson {
  source: string;
  pull: { requests: number; records: number; bytes: number; since?: string } | null;
  chatbots: Array<{
    chatbot: string;
    exitCode: number;
    runId?: string;
    summary?: { source?: string; plan: { create: number; update: number; delete: number }; guard: { ok: boolean; reasons: string[] } };
    error?: string;
  }>;
  exitCode: number;
}

function fleetFile(f: ResoFixture, chatbots: Readonly<Record<string, string>>, settings = '', sourceSettings = ''): string {
  const path = join(dir, `fleet-${f.prefix}.yaml`);
  writeFileSync(
    path,
    `sources:
  mls:
    feed: ${f.reso.propertyUrl}
    profile: reso
    replicate: true
    overlap: 0s
${sourceSettings}chatbots:
${Object.entries(chatbots)
  .map(([name, where]) => `  ${name}:\n    source: mls\n    where: ${where}\n${settings}`)
  .join('')}`,
  );
  return path;
}

async function cli(f: ResoFixture, args: string[]): Promise<CliRun> {
  const run = await runCli(args, f.env({ LOG_LEVEL: 'warn' }), 120_000);
  expectNoFeedSecret(run.stdout);
  expectNoFeedSecret(run.stderr);
  return run;
}

const expected = (f: ResoFixture, chatbot: Chatbot): string[] =>
  f.reso.state.records
    .list()
    .filter((record) => matches(chatbot, record.property))
    .map((record) => record.property.ListingId)
    .sort();

function expectEachExact(f: ResoFixture): void {
  for (const chatbot of Object.keys(WHERE) as Chatbot[]) {
    expect(f.mlsNumbers(chatbot), chatbot).toEqual(expected(f, chatbot));
    expect(f.sim.state.duplicateCreates(chatbot), chatbot).toEqual([]);
  }
}

describe('fleet run', () => {
  it('pulls a replicated source once for three chatbots, each holding exactly its where; then only what changed moves', async () => {
    const f = await start({ chatbots: Object.keys(WHERE), records: RECORDS, reso: { maxTop: PAGE }, label: 'fleet-run' });
    const wheres = Object.fromEntries(Object.entries(WHERE).map(([name, where]) => [name, JSON.stringify(where)]));
    // Why 2: each chatbot loses at most two listings below, more than the default 10% of so few.
    const file = fleetFile(f, wheres, '    maxDeletes: 2\n');
    const applied = await cli(f, ['fleet', 'apply', file]);
    expect(applied.code, applied.stderr).toBe(0);

    const first = await cli(f, ['fleet', 'run', 'mls', '--work', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const out = jsonOf<FleetRunJson>(first);
    const minimal = Math.ceil(RECORDS / PAGE);
    // One pull for three chatbots: what the MLS served is one full pull's pages.
    expect(f.reso.state.counters().recordsServed).toBe(RECORDS);
    expect(f.reso.state.counters().requests).toBeLessThanOrEqual(minimal + 2);
    expect(out.pull).toMatchObject({ records: RECORDS });
    expect(out.chatbots.map((c) => [c.chatbot, c.exitCode, c.summary?.source])).toEqual([
      ['austin-bot', 0, 'mls'],
      ['rich-bot', 0, 'mls'],
      ['west-bot', 0, 'mls'],
    ]);
    expectEachExact(f);
    for (const chatbot of Object.keys(WHERE) as Chatbot[]) expect(expected(f, chatbot).length, chatbot).toBeGreaterThan(0);

    // The changes: one west listing moves to Austin, one rich listing's price drops below the filter, one listing is withdrawn.
    const records = f.reso.state.records.list().map((record) => record.property);
    const watermark =
      records
        .map((p) => p.ModificationTimestamp)
        .sort()
        .at(-1) ?? '';
    const moved = records.find((p) => p.City === 'Boulder' && p.ListPrice < 500000);
    const cheaper = records.find((p) => p.ListPrice >= 500000 && p !== moved);
    const withdrawn = records.find((p) => p.City === 'Austin' && p !== cheaper);
    if (moved === undefined || cheaper === undefined || withdrawn === undefined) throw new Error('the seeded records lack a case');
    f.reso.state.records.modify({ keys: [moved.ListingKey], timestamp: after(watermark, 1), changes: { City: 'Austin' } });
    f.reso.state.records.modify({ keys: [cheaper.ListingKey], timestamp: after(watermark, 2), changes: { ListPrice: 400000 } });
    f.reso.state.records.setStatus({ keys: [withdrawn.ListingKey], status: 'Withdrawn', timestamp: after(watermark, 3) });
    f.reso.state.reset();

    const second = await cli(f, ['fleet', 'run', 'mls', '--work', '--json']);
    expect(second.code, second.stderr).toBe(0);
    // Only the three changed records and the one stamped at the watermark (the pull asks `ge`).
    expect(f.reso.state.counters().recordsServed).toBeLessThanOrEqual(4);
    expect(jsonOf<FleetRunJson>(second).pull?.since).toBe(watermark);
    expectEachExact(f);
    expect(f.mlsNumbers('austin-bot')).toContain(moved.ListingId);
    expect(f.mlsNumbers('west-bot')).not.toContain(moved.ListingId);
    expect(f.mlsNumbers('rich-bot')).not.toContain(cheaper.ListingId);
    expect(f.mlsNumbers('austin-bot')).not.toContain(withdrawn.ListingId);
  });

  it('refuses the run of a chatbot whose where reads a field no record carries, naming it; its listings stay, the others sync', async () => {
    const f = await start({ chatbots: ['west-bot', 'typo-bot'], records: 20, reso: { maxTop: PAGE }, label: 'fleet-run-typo' });
    const good = fleetFile(f, { 'west-bot': '{ City: [Boulder, Denver] }', 'typo-bot': '{ City: [Austin, Seattle] }' });
    expect((await cli(f, ['fleet', 'apply', good])).code).toBe(0);
    const first = await cli(f, ['fleet', 'run', 'mls', '--work']);
    expect(first.code, first.stderr).toBe(0);
    const held = f.mlsNumbers('typo-bot');
    expect(held.length).toBeGreaterThan(0);

    // The field misspelt (RESO's is City): matching nothing must not read as "every listing is gone".
    const typo = fleetFile(f, { 'west-bot': '{ City: [Boulder, Denver] }', 'typo-bot': '{ Cty: [Austin, Seattle] }' });
    expect((await cli(f, ['fleet', 'apply', typo])).code).toBe(0);
    const keys = f.keys();
    // Every record changed: the incremental pull carries them all, and none carries Cty.
    f.reso.state.records.modify({ keys, timestamp: after(new Date().toISOString(), 5) });
    const refused = await cli(f, ['fleet', 'run', 'mls', '--work', '--json']);
    expect(refused.code, refused.stderr).toBe(3);
    const out = jsonOf<FleetRunJson>(refused);
    const typoBot = out.chatbots.find((c) => c.chatbot === 'typo-bot');
    expect(typoBot?.exitCode).toBe(3);
    expect(typoBot?.summary?.guard.reasons.join('\n')).toMatch(/'Cty' \(did you mean City\?\)/);
    expect(out.chatbots.find((c) => c.chatbot === 'west-bot')?.exitCode).toBe(0);
    expect(f.mlsNumbers('typo-bot')).toEqual(held);
    expect(f.mlsNumbers('west-bot')).toEqual(
      f.reso.state.records
        .list()
        .filter((r) => r.property.City === 'Boulder' || r.property.City === 'Denver')
        .map((r) => r.property.ListingId)
        .sort(),
    );
    const text = await cli(f, ['fleet', 'run', 'mls', '--dry-run']);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/typo-bot: REFUSED/);
    expect(text.stdout).toMatch(/west-bot: ok/);
  });

  it("runs the source's one schedule in a worker: each occurrence pulls once and gives each chatbot its where", async () => {
    const f = await start({ chatbots: ['west-bot', 'austin-bot'], records: 20, reso: { maxTop: PAGE }, label: 'fleet-run-schedule' });
    const file = fleetFile(
      f,
      { 'west-bot': '{ City: [Boulder, Denver] }', 'austin-bot': '{ City: Austin }' },
      '    maxDeletes: 2\n',
      '    schedule: { cron: "* * * * * *" }\n',
    );
    const applied = await cli(f, ['fleet', 'apply', file]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('+ schedule fleet@mls');
    const view = (chatbot: Chatbot): string[] => expected(f, chatbot);
    const holdsItsView = (): boolean =>
      (['west-bot', 'austin-bot'] as const).every((chatbot) => JSON.stringify(f.mlsNumbers(chatbot)) === JSON.stringify(view(chatbot)));

    const worker = startCli(['worker', '--concurrency', '4'], f.env({ LOG_LEVEL: 'info' }));
    try {
      await until(holdsItsView, 60_000, 'the scheduled fan-out to give each chatbot its view');
      const moved = f.reso.state.records.list().find((record) => record.property.City === 'Boulder')?.property;
      if (moved === undefined) throw new Error('no Boulder record seeded');
      f.reso.state.records.modify({
        keys: [moved.ListingKey],
        timestamp: after(new Date().toISOString(), 60),
        changes: { City: 'Austin' },
      });
      await until(
        () => f.mlsNumbers('austin-bot').includes(moved.ListingId) && !f.mlsNumbers('west-bot').includes(moved.ListingId),
        60_000,
        'a later occurrence to move the listing from west-bot to austin-bot',
      );
      expect((await cli(f, ['schedule', 'remove', 'fleet@mls'])).code).toBe(0);
    } finally {
      const stopped = await worker.stop('SIGTERM');
      expect(stopped.code, worker.stderr()).toBe(0);
    }
    expect(stackTraceLines(worker.stdout() + worker.stderr())).toEqual([]);
    expectNoFeedSecret(worker.stdout() + worker.stderr());
    for (const chatbot of ['west-bot', 'austin-bot'] as const) {
      expect(f.sim.state.duplicateCreates(chatbot), chatbot).toEqual([]);
      const runs = jsonOf<{ runs: Array<{ trigger: string }> }>(await cli(f, ['runs', 'list', '--chatbot', chatbot, '--json']));
      expect(runs.runs.length, chatbot).toBeGreaterThanOrEqual(2);
      expect(runs.runs.every((run) => run.trigger === 'schedule')).toBe(true);
    }
  });

  it('reads a file source for each chatbot over its where (a CSV column, any case): the views split the file', async () => {
    const chatbots = ['cheap-bot', 'dear-bot', 'all-bot'];
    const f = await start({ chatbots, label: 'fleet-run-file' });
    const path = join(dir, `fleet-file-${f.prefix}.yaml`);
    writeFileSync(
      path,
      `sources:
  homes:
    feed: ${fixture('redfin.csv')}
    profile: redfin
chatbots:
  cheap-bot: { source: homes, where: { price: { lt: 500000 } } }
  dear-bot: { source: homes, where: { PRICE: { gte: 500000 } } }
  all-bot: { source: homes }
`,
    );
    expect((await cli(f, ['fleet', 'apply', path])).code).toBe(0);
    const ran = await cli(f, ['fleet', 'run', 'homes', '--work', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(jsonOf<FleetRunJson>(ran).pull).toBeNull();
    const [cheap, dear, all] = chatbots.map((chatbot) => f.mlsNumbers(chatbot));
    expect(cheap?.length).toBeGreaterThan(0);
    expect(dear?.length).toBeGreaterThan(0);
    expect([...(cheap ?? []), ...(dear ?? [])].sort()).toEqual(all);
  });

  it('fetches a URL source once per run for all its chatbots, each over its where', async () => {
    const chatbots = ['cheap-bot', 'dear-bot', 'all-bot'];
    const f = await start({ chatbots, label: 'fleet-run-url' });
    const csv = readFileSync(fixture('redfin.csv'));
    let gets = 0;
    const server = createServer((request, response) => {
      gets += 1;
      response.writeHead(200, { 'content-type': 'text/csv' }).end(csv);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const path = join(dir, `fleet-url-${f.prefix}.yaml`);
      writeFileSync(
        path,
        `sources:
  homes:
    feed: http://127.0.0.1:${port}/homes.csv
    profile: redfin
chatbots:
  cheap-bot: { source: homes, where: { PRICE: { lt: 500000 } } }
  dear-bot: { source: homes, where: { PRICE: { gte: 500000 } } }
  all-bot: { source: homes }
`,
      );
      expect((await cli(f, ['fleet', 'apply', path])).code).toBe(0);
      const ran = await cli(f, ['fleet', 'run', 'homes', '--work', '--json']);
      expect(ran.code, ran.stderr).toBe(0);
      expect(gets, 'GETs of the feed URL for three chatbots').toBe(1);
      const [cheap, dear, all] = chatbots.map((chatbot) => f.mlsNumbers(chatbot));
      expect(cheap?.length).toBeGreaterThan(0);
      expect(dear?.length).toBeGreaterThan(0);
      expect([...(cheap ?? []), ...(dear ?? [])].sort()).toEqual(all);
      for (const chatbot of chatbots) expect(f.sim.state.duplicateCreates(chatbot), chatbot).toEqual([]);
      // The copy lives for one run: the next run reads the feed as it is then.
      expect((await cli(f, ['fleet', 'run', 'homes', '--work'])).code).toBe(0);
      expect(gets).toBe(2);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
