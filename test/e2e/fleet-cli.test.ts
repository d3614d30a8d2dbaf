/**
 * `fleet diff|apply|show` through the built CLI against a real Redis: applying a fleet.yaml makes
 * the schedules and alerts it declares, a second apply changes nothing, `show` round-trips through
 * `diff`; a bad file is refused whole (exit 2, each problem at its line and column) and changes
 * nothing; what the file no longer names is kept unless --prune, and pruning never touches a listing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { startTestSim } from '../helpers/sim.js';
import { jsonOf, lines, runCli, type CliRun } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const prefix = uniquePrefix('fleet-cli');
const WEBHOOK = 'https://hooks.example.com/services/T000/B000/fleet-secret-token';
// The job key and the service seal the schedules' jobs (docs/security-jobs.md): `fleet apply` needs them as any enqueuer does.
const env = {
  REDIS_URL: redisUrl,
  LISTING_SYNC_PREFIX: prefix,
  LOG_LEVEL: 'warn',
  OPS_WEBHOOK_URL: WEBHOOK,
  LISTING_SYNC_JOB_KEY: 'fleet-cli-test-job-key',
  API_BASE_URL: 'http://127.0.0.1:9',
};
let dir = '';
let sim: RunningSimulator | undefined;
let passed = true;

const ACME_FILE = `  acme-file:
    feed: acme.csv            # relative to this file
    profile: redfin
    schedule: { cron: "0 2 * * *", tz: America/New_York }
`;

const fleetYaml = (withGamma: boolean): string => `sources:
  mred:
    feed: https://mls.example/odata/Property
    profile: reso
    replicate: true
    budget: mls-grid
    schedule: { cron: "*/30 * * * *", tz: America/Chicago }
${withGamma ? ACME_FILE : ''}chatbots:
  acme-bot:
    source: mred
    where: { ListOfficeMlsId: [ACME1, ACME2] }
  delta-bot:
    source: mred
    maxDeletes: 25
${withGamma ? '  gamma-bot:\n    source: acme-file\n    maxDeletes: 5%\n' : ''}alerts:
  ops: { webhookEnv: OPS_WEBHOOK_URL, format: slack }
`;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const fleet = (...args: string[]): Promise<CliRun> => runCli(['fleet', ...args], env);

interface Schedules {
  schedules: Array<{ name: string; cron: string; tz?: string; request: Record<string, unknown> }>;
}
const schedules = async (): Promise<Schedules['schedules']> =>
  jsonOf<Schedules>(await runCli(['schedule', 'list', '--json'], env)).schedules;
const scheduleNames = async (): Promise<string[]> => (await schedules()).map((s) => s.name).sort();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ls-fleet-'));
  file('acme.csv', 'MLSNumber,Url\nM1,https://x.example/1\n');
  sim = await startTestSim({ chatbots: ['gamma-bot'], listings: { 'gamma-bot': [0, 1, 2].map((i) => sampleListing(i)) } });
});
afterEach((ctx) => {
  // A failed test leaves the prefix's keys to look at.
  if ((ctx.task.result?.errors ?? []).length > 0) passed = false;
});
afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
  if (passed) await cleanPrefix(redisUrl, prefix);
});

describe('fleet apply, diff, show', () => {
  it('applies, then diff finds no changes, then a second apply changes nothing', async () => {
    const path = file('fleet.yaml', fleetYaml(true));
    const preview = await fleet('diff', path, '--json');
    expect(preview.code, preview.stderr).toBe(0);
    const planned = jsonOf<{ changes: Array<{ kind: string; name: string; action: string }> }>(preview).changes;
    expect(planned).toContainEqual({ kind: 'schedule', name: 'fleet@acme-file', action: 'add' });
    expect(planned).toContainEqual({ kind: 'alert', name: 'ops', action: 'add' });
    expect(await scheduleNames()).toEqual([]);

    const applied = await fleet('apply', path);
    expect(applied.code, applied.stderr).toBe(0);
    expect(lines(applied.stdout)).toEqual(
      expect.arrayContaining([
        '+ source mred',
        '+ chatbot gamma-bot',
        '+ schedule fleet@acme-file',
        '+ schedule fleet@mred',
        '+ alert ops',
        'fleet applied: 8 added, 0 changed, 0 removed',
      ]),
    );
    // One schedule per source, running its fan-out; each chatbot's request is the one `schedule add`
    // would make with the same flags (a relative feed is the file's), with its where and its source.
    const made = await schedules();
    expect(made.map((s) => s.name).sort()).toEqual(['fleet@acme-file', 'fleet@mred']);
    const acmeFile = made.find((s) => s.name === 'fleet@acme-file');
    expect(acmeFile).toMatchObject({ cron: '0 2 * * *', tz: 'America/New_York' });
    expect(acmeFile?.request).toMatchObject({
      chatbot: 'gamma-bot',
      fleetRun: {
        source: 'acme-file',
        requests: [{ chatbot: 'gamma-bot', maxDeletes: '5%', mode: 'mirror', feed: { source: join(dir, 'acme.csv'), profile: 'redfin' } }],
      },
    });
    const mred = made.find((s) => s.name === 'fleet@mred');
    expect(mred?.request).toMatchObject({
      chatbot: 'acme-bot,delta-bot',
      fleetRun: {
        source: 'mred',
        requests: [
          { chatbot: 'acme-bot', feed: { where: { ListOfficeMlsId: ['ACME1', 'ACME2'] } } },
          { chatbot: 'delta-bot', maxDeletes: '25', mode: 'upsert', replicate: { budget: 'mls-grid', sweep: false } },
        ],
      },
    });
    const alerts = await runCli(['alerts', 'list'], env);
    expect(alerts.stdout).toMatch(/^ops {2}slack {2}https:\/\/hooks\.example\.com\/\S*\*/m);

    const diff = await fleet('diff', path, '--json');
    expect(diff.code, diff.stderr).toBe(0);
    expect(jsonOf<{ changes: unknown[]; kept: unknown[] }>(diff)).toMatchObject({ changes: [], kept: [] });
    const again = await fleet('apply', path);
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout)[0]).toBe(`nothing changed: the installation already matches ${path}`);
    for (const run of [preview, applied, diff, again, alerts]) expect(run.stdout + run.stderr).not.toContain('fleet-secret-token');
  });

  it('show prints the applied fleet as a file that diff reads back as no changes', async () => {
    const shown = await fleet('show');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('webhookEnv: OPS_WEBHOOK_URL');
    expect(shown.stdout).not.toContain('fleet-secret-token');
    const diff = await fleet('diff', file('shown.yaml', shown.stdout));
    expect(diff.code, diff.stderr).toBe(0);
    expect(lines(diff.stdout)[0]).toMatch(/^no changes: the installation matches /);
  });

  it.each([
    ['a YAML syntax error', 'sources:\n  mred: { feed: x.csv\nchatbots: {}\n', /fleet-bad\.yaml:3:1: YAML syntax: /],
    [
      'an unknown source name',
      fleetYaml(true).replace('source: acme-file', 'source: acme-fil'),
      /fleet-bad\.yaml:20:13: chatbots\.gamma-bot\.source: unknown source 'acme-fil' \(did you mean acme-file\?\)/,
    ],
    [
      'an unknown setting',
      fleetYaml(true).replace('maxDeletes: 5%', 'maxDelete: 5%'),
      /fleet-bad\.yaml:21:5: chatbots\.gamma-bot\.maxDelete: unknown chatbot setting 'maxDelete' \(did you mean maxDeletes\?\)/,
    ],
    [
      'a bad cron pattern',
      fleetYaml(true).replace('"0 2 * * *"', '"0 2 * *"'),
      /fleet-bad\.yaml:11:23: sources\.acme-file\.schedule\.cron: '0 2 \* \*' is not a cron pattern: it has 4 fields/,
    ],
  ])('refuses %s with exit 2, naming its line and column, and changes nothing', async (_what, text, problem) => {
    const before = [await fleet('show', '--json'), await schedules()];
    const path = file('fleet-bad.yaml', text.replace('maxDeletes: 25', 'maxDeletes: 30'));
    for (const command of ['diff', 'apply']) {
      const run = await fleet(command, path);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(lines(run.stderr)[0]).toMatch(/^listing-sync: .*fleet-bad\.yaml has (a problem|\d+ problems); nothing was changed:$/);
      expect(run.stderr).toMatch(problem);
    }
    expect([await fleet('show', '--json'), await schedules()]).toEqual(before);
  });

  it('keeps what the file no longer names unless --prune, and pruning never touches a listing', async () => {
    const handMade = await runCli(
      ['schedule', 'add', 'nightly', '--chatbot', 'gamma-bot', '--feed', join(dir, 'acme.csv'), '--cron', '0 3 * * *'],
      env,
    );
    expect(handMade.code, handMade.stderr).toBe(0);
    const listingsBefore = sim?.state.listings('gamma-bot').length;
    const path = file('fleet-smaller.yaml', fleetYaml(false));

    const kept = await fleet('apply', path);
    expect(kept.code, kept.stderr).toBe(0);
    expect(lines(kept.stdout)).toEqual(
      expect.arrayContaining([
        'kept source acme-file: the file no longer names it (fleet apply --prune removes it; listings are never touched)',
        'kept chatbot gamma-bot: the file no longer names it (fleet apply --prune removes it; listings are never touched)',
        'kept schedule fleet@acme-file: the file no longer names it (fleet apply --prune removes it; listings are never touched)',
      ]),
    );
    expect(await scheduleNames()).toEqual(['fleet@acme-file', 'fleet@mred', 'nightly']);

    const pruned = await fleet('apply', path, '--prune', '--json');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(jsonOf<{ changes: unknown[]; kept: unknown[] }>(pruned)).toEqual({
      changes: [
        { kind: 'source', name: 'acme-file', action: 'remove' },
        { kind: 'chatbot', name: 'gamma-bot', action: 'remove' },
        { kind: 'schedule', name: 'fleet@acme-file', action: 'remove' },
      ],
      kept: [],
      notes: [],
    });
    expect(await scheduleNames()).toEqual(['fleet@mred', 'nightly']);
    expect(sim?.state.listings('gamma-bot').length).toBe(listingsBefore);
    expect(listingsBefore).toBe(3);
    const diff = await fleet('diff', path, '--json');
    expect(jsonOf<{ changes: unknown[]; kept: unknown[] }>(diff)).toMatchObject({ changes: [], kept: [] });
  });
});
