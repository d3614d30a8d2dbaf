/**
 * `listing-sync sync --dry-run` as a process against the simulator: the JSON summary a script
 * reads, the --report files ops open, bad input answered with one line before any request, and
 * progress bars only on a terminal. A dry run never sends a write request.
 */
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { WORKER_MIN_BYTES } from '../../src/feed/open-feed.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { CLI_ENTRY, lines, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-sync';
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/sync');
/** Hand-checked against the seeded remote below; see the first test for what each row means. */
const DRY_RUN_FEED = join(FIXTURES, 'dry-run.csv');
/** A progress bar as src/cli/output/progress-format.ts draws it. */
const BAR_CHARS = /\[[#-]{20}\]/;

let sim: RunningSimulator | undefined;
/** A simulator run as a process (`listing-sync sim …`), for the flags only the command has. */
let simProcess: CliProcess | undefined;
let prefix = '';
let tmp: string | undefined;

afterEach(async (ctx) => {
  await sim?.close();
  sim = undefined;
  await simProcess?.kill();
  simProcess = undefined;
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
  // Kept when the test failed, to look at; never clean an empty prefix (that would match every key).
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

/**
 * The remote of the dry-run fixture: listings 0..5, a second copy of listing 1 (a remote
 * duplicate) and one listing without an MLS number (unkeyed).
 */
async function seededSim(): Promise<RunningSimulator> {
  prefix = uniquePrefix('sync-cli');
  sim = await startTestSim({ chatbots: [BOT], listings: { [BOT]: [0, 1, 2, 3, 4, 5, 1].map((i) => sampleListing(i)) } });
  sim.state.create({ ...sampleListing(7), MLSNumber: '', SerialNumber: BOT });
  return sim;
}

function cliEnv(s: RunningSimulator, extra: Record<string, string> = {}): Record<string, string> {
  return { ...simEnv(s), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn', ...extra };
}

function secretsOf(s: RunningSimulator): string[] {
  return [s.credentials.secretKey, s.credentials.sessionKey, s.credentials.projectAuthToken];
}

/** Flags under which the fixture's plan passes the guard (1 gone delete, 1 of 8 rows rejected). */
const PASSING = ['--delete-scope', 'all', '--max-deletes', '1', '--max-rejected', '20%'];

function dryRunArgs(...extra: string[]): string[] {
  return ['sync', '--dry-run', '--chatbot', BOT, '--feed', DRY_RUN_FEED, ...extra];
}

function tempDir(): string {
  tmp = mkdtempSync(join(tmpdir(), 'sync-cli-'));
  return tmp;
}

describe('sync --dry-run --json as a process', () => {
  it('prints exactly one JSON summary with hand-checked numbers and sends only list requests', async () => {
    const s = await seededSim();
    const run = await runCli(dryRunArgs('--json', ...PASSING), cliEnv(s, { LOG_LEVEL: 'debug' }));

    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(run.stdout.trimStart().startsWith('{') && run.stdout.trimEnd().endsWith('}')).toBe(true);
    expect(summary.runId).toMatch(/^\S+$/);
    expect(summary.chatbot).toBe(BOT);
    // 8 data rows: ML100012 has Bedrooms '=HYPERLINK("x")' and is rejected.
    expect(summary.feed).toMatchObject({ rows: 8, valid: 7, rejected: 1 });
    // 6 seeded + 1 duplicate of ML100001 + 1 without an MLS number.
    expect(summary.remote).toMatchObject({ listings: 8, complete: true, duplicates: 1, unkeyed: 1 });
    // create ML100010, ML100011; update ML100002 (rent), ML100003 (bedrooms, description);
    // delete ML100005 (gone) and the extra copy of ML100001; unchanged ML100000, ML100001 and
    // ML100004, whose only difference is the volatile DaysOnMarket.
    expect(summary.plan).toMatchObject({ create: 2, update: 2, delete: 2, unchanged: 3 });
    expect(summary.guard).toEqual({ ok: true, reasons: [], forced: false });

    expect(s.state.writeCalls()).toBe(0);
    const endpoints = new Set(s.state.calls().map((call) => call.endpoint));
    expect([...endpoints]).toEqual(['listListings']);
    for (const secret of secretsOf(s)) {
      expect(run.stderr).not.toContain(secret);
      expect(run.stdout).not.toContain(secret);
    }
  });

  it('reads a feed of 8 MiB or more in a worker thread and plans it exactly as the small one', async () => {
    const s = await seededSim();
    const fixture = readFileSync(DRY_RUN_FEED, 'utf8');
    const [header] = fixture.split('\n');
    // The hand-checked fixture plus enough new listings (creates) to pass WORKER_MIN_BYTES.
    const extra = Array.from(
      { length: 45_000 },
      (_, i) =>
        `MLX${i},https://example.test/new/${i},for_sale,Active,$,Condo,2,1,1990,3,0,800,Square Feet,1,350000,,,${i} New St,Springfield,CA,90000,34,-118,New listing ${i} ${'x'.repeat(40)},`,
    );
    const feed = join(tempDir(), 'large.csv');
    writeFileSync(feed, `${fixture.trimEnd()}\n${extra.join('\n')}\n`);
    expect(statSync(feed).size).toBeGreaterThanOrEqual(WORKER_MIN_BYTES);
    expect(header).toMatch(/^MLSNumber,/);

    const run = await runCli(
      ['sync', '--dry-run', '--chatbot', BOT, '--feed', feed, '--json', ...PASSING],
      cliEnv(s, { LOG_LEVEL: 'debug' }),
      60_000,
    );

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('read in a worker thread');
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary.feed).toMatchObject({ rows: 8 + 45_000, valid: 7 + 45_000, rejected: 1 });
    expect(summary.plan).toMatchObject({ create: 2 + 45_000, update: 2, delete: 2, unchanged: 3 });
    expect(s.state.writeCalls()).toBe(0);
  });

  it('reports what it would change in a --report JSON file: per-field old → new, deletes, rejected rows with line and reason', async () => {
    const s = await seededSim();
    const out = join(tempDir(), 'plan.json');
    const run = await runCli(dryRunArgs('--json', ...PASSING, '--report', out), cliEnv(s));
    expect(run.code, run.stderr).toBe(0);

    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      plan: {
        creates: Array<{ key: string }>;
        updates: Array<{ key: string; changes: Array<{ field: string; from: unknown; to: unknown }> }>;
        deletes: Array<{ key: string; reason: string }>;
      };
      rejected: Array<{ line: number; key?: string; field: string; value: unknown; reason: string }>;
    };
    expect(report.plan.creates.map((c) => c.key)).toEqual(['ML100010', 'ML100011']);
    const changes = Object.fromEntries(
      report.plan.updates.map((u) => [u.key, u.changes.map((c) => [c.field, String(c.from), String(c.to)])]),
    );
    expect(changes).toEqual({
      ML100002: [['RentPrice', '1700', '1950']],
      ML100003: [
        ['Bedrooms', '4', '5'],
        ['Description', 'Sample listing 3', '=HYPERLINK("x")'],
      ],
    });
    expect(report.plan.deletes.map((d) => d.reason).sort()).toEqual(['duplicate', 'gone']);
    expect(report.plan.deletes.find((d) => d.reason === 'gone')?.key).toBe('ML100005');
    expect(report.rejected).toHaveLength(1);
    // Line 9 of the file: the header is line 1 and this is the 8th data row.
    expect(report.rejected[0]).toMatchObject({ line: 9, key: 'ML100012', field: 'Bedrooms', value: '=HYPERLINK("x")' });
    expect(report.rejected[0]?.reason).toMatch(/number/i);
    for (const secret of secretsOf(s)) expect(readFileSync(out, 'utf8')).not.toContain(secret);
    expect(s.state.writeCalls()).toBe(0);
  });

  it('writes a CSV report with one line per change, delete and rejection, formula cells defused with a quote', async () => {
    const s = await seededSim();
    const out = join(tempDir(), 'plan.csv');
    const run = await runCli(dryRunArgs(...PASSING, '--report', out), cliEnv(s));
    expect(run.code, run.stderr).toBe(0);

    const csv = readFileSync(out, 'utf8');
    const rows = csv.split('\r\n').filter((line) => line !== '');
    expect(rows[0]).toBe('action,key,key_type,field,from,to,line,reason');
    expect(rows).toContain('update,ML100002,MLSNumber,RentPrice,1700,1950,,');
    expect(rows).toContain('update,ML100003,MLSNumber,Bedrooms,4,5,,');
    // The new Description and the rejected Bedrooms value start with '=': a spreadsheet would run them.
    expect(rows).toContain('update,ML100003,MLSNumber,Description,Sample listing 3,"\'=HYPERLINK(""x"")",,');
    expect(rows).toContain('delete,ML100005,MLSNumber,,,,,gone');
    const rejected = rows.filter((row) => row.startsWith('rejected,'));
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatch(/^rejected,ML100012,MLSNumber,Bedrooms,"'=HYPERLINK\(""x""\)",,9,/);
    expect(rows.filter((row) => row.startsWith('create,')).map((row) => row.split(',')[1])).toEqual(['ML100010', 'ML100011']);
    // No cell anywhere starts a formula: every cell beginning with = + - @ is quoted away.
    expect(csv).not.toMatch(/(^|,)"?[=+@]/m);
    expect(s.state.writeCalls()).toBe(0);
  });
});

describe('sync --dry-run against a service that caps PageSize silently (sim --page-size-cap)', () => {
  it('reads the whole chatbot at the cap: the snapshot is complete, nothing to delete, the guard passes', async () => {
    prefix = uniquePrefix('sync-cli-cap');
    const keys = { API_SECRET_KEY: 'cap-secret', API_SESSION_KEY: 'cap-session', PROJECT_AUTH_TOKEN: 'cap-token' };
    // 60 listings answered 7 a page whatever PageSize asks (the snapshot asks 100).
    simProcess = startCli(['sim', '--page-size-cap', '7', '--seed-listings', '60', '--chatbot', BOT], keys);
    await simProcess.waitFor(/listening on http:\/\/\S+ /);
    const baseUrl = /listening on (http:\/\/\S+) /.exec(simProcess.stdout())?.[1] ?? '';
    // The feed is what the simulator seeded (sample listings 1..60), so the plan changes nothing.
    const feed = join(tempDir(), 'feed.json');
    writeFileSync(feed, JSON.stringify(Array.from({ length: 60 }, (_, i) => sampleListing(i + 1))));
    const env = { ...keys, API_BASE_URL: baseUrl, SITE_URL: baseUrl, REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' };

    const run = await runCli(['sync', '--dry-run', '--json', '--chatbot', BOT, '--feed', feed], env);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary.remote).toMatchObject({ listings: 60, virtualCount: 60, complete: true, incompleteReasons: [], duplicates: 0 });
    expect(summary.plan).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 60 });
    expect(summary.guard).toEqual({ ok: true, reasons: [], forced: false });

    // `listings list --all` pages the same way: every listing, the count equal to VirtualCount.
    const listed = await runCli(['listings', 'list', '--chatbot', BOT, '--all', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ virtualCount: 60, count: 60 });
  });
});

describe('sync with bad input answers with one line and exit 2', () => {
  it('names a missing feed file and writes nothing', async () => {
    const s = await seededSim();
    const missing = join(FIXTURES, 'no-such-feed.csv');
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', missing, '--json'], cliEnv(s));
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toContain(missing);
    expect(run.stdout).toBe('');
    expect(s.state.writeCalls()).toBe(0);
  });

  it('refuses a feed that is not a file, or not a feed, with one line naming it', async () => {
    const s = await seededSim();
    for (const feed of [FIXTURES, CLI_ENTRY]) {
      const run = await runCli(['sync', '--chatbot', BOT, '--feed', feed], cliEnv(s));
      expect(run.code, run.stderr).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain(feed);
      expect(run.stdout).toBe('');
    }
    expect(s.state.writeCalls()).toBe(0);
  });

  it.each([
    [['--mode', 'foo'], '--mode'],
    [['--max-deletes', 'abc'], '--max-deletes'],
    [['--max-rejected', '150%'], '--max-rejected'],
    [['--key-type', 'ID'], '--key-type'],
  ])('rejects %j before any request', async (flags, name) => {
    const s = await seededSim();
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', DRY_RUN_FEED, ...flags], cliEnv(s));
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toContain(name);
    expect(run.stderr).toContain(flags[1]);
    expect(run.stdout).toBe('');
    expect(s.state.calls()).toHaveLength(0);
  });

  it('names --max-deletes once in its error line', async () => {
    const s = await seededSim();
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', DRY_RUN_FEED, '--max-deletes', 'abc'], cliEnv(s));
    expect(run.code).toBe(2);
    expect(run.stderr.match(/--max-deletes/g)).toHaveLength(1);
    expect(run.stderr.match(/abc/g)).toHaveLength(1);
  });
});

describe('progress bars', () => {
  const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

  /** Runs the CLI under util-linux `script`, which gives it a pseudo-terminal; returns what the terminal showed. */
  async function onTerminal(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; screen: string }> {
    const quoted = [process.execPath, CLI_ENTRY, ...args].map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('script', ['-qec', quoted, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once('close', done));
    return { code, screen };
  }

  it.skipIf(!hasScript)('draws feed and remote bars on a terminal (needs util-linux script)', async () => {
    const s = await seededSim();
    const { code, screen } = await onTerminal(dryRunArgs(...PASSING), cliEnv(s));
    expect(code, screen).toBe(0);
    // Rows (the feed's size in kB beside them) and listings, each stage done: never raw byte counts.
    expect(screen).toMatch(/ feed\s+\[#{20}\] 8 rows \([\d.]+ (B|kB)\), done · in \d+:\d\d/);
    expect(screen).toMatch(/ remote\s+\[#{20}\] 8 listings, done · in \d+:\d\d/);
    expect(screen).not.toMatch(/\d+\/\d+ 100%/);
    expect(screen).toContain('plan    create 2, update 2, delete 2, unchanged 3');
  });

  it.skipIf(!hasScript)('draws no bar on a terminal with --json: the screen is the JSON object', async () => {
    const s = await seededSim();
    const { code, screen } = await onTerminal(dryRunArgs('--json', ...PASSING), cliEnv(s));
    expect(code, screen).toBe(0);
    expect(screen).not.toMatch(BAR_CHARS);
    expect(JSON.parse(screen)).toMatchObject({ chatbot: BOT, plan: { create: 2 } });
  });

  it('draws no bar without a terminal, and stdout stays clean JSON', async () => {
    const s = await seededSim();
    for (const json of [true, false]) {
      const run = await runCli(dryRunArgs(...(json ? ['--json'] : []), ...PASSING), cliEnv(s, { LOG_LEVEL: 'info' }));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(BAR_CHARS);
      expect(run.stdout).not.toMatch(BAR_CHARS);
      if (json) expect(JSON.parse(run.stdout)).toMatchObject({ chatbot: BOT });
      else expect(run.stdout).toContain('plan    create 2, update 2, delete 2, unchanged 3');
    }
  });
});

describe('sync --dry-run with a configured retry table (LISTING_SYNC_RETRY_*)', () => {
  it('reaches the snapshot: one list request when the table leaves envelope 500 out, five by default', async () => {
    const s = await seededSim();
    s.state.setFaults({ envelopeFailureRate: 1, endpoints: ['listListings'] });

    const configured = await runCli(dryRunArgs('--json'), cliEnv(s, { LISTING_SYNC_RETRY_ENVELOPE_CODES: '429' }));
    expect(configured.code, configured.stderr).not.toBe(0);
    expect(configured.stderr).toMatch(/ENVELOPE_FAILURE|Internal error/);
    expect(s.state.callCounts().listListings).toBe(1);

    const byDefault = await runCli(dryRunArgs('--json'), cliEnv(s));
    expect(byDefault.code, byDefault.stderr).not.toBe(0);
    // The snapshot's read schedule: 5 attempts of page 1 (SNAPSHOT_READ_RETRY).
    expect(s.state.callCounts().listListings).toBe(1 + 5);
  });
});
