/**
 * Alerts end to end, the built CLI against the simulator and a local webhook receiver: the
 * receiver hears exactly one alert per change of a chatbot's health — nothing for a first healthy
 * run, `refused` once (delivered although the receiver answered 500 first), nothing for the
 * second refusal, `recovered`, `failed` — and `stale` when a schedule stops producing runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { CLI_ENTRY, jsonOf, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-alerts';
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/sync');
/** sampleListing(0..8): what the chatbot holds. */
const NINE = join(FIXTURES, 'listings-0-8.csv');
/** sampleListing(0..2): would delete six of nine, which the guard refuses. */
const THREE = join(FIXTURES, 'listings-0-2.csv');
const HOOK_TOKEN = 'T0ALERTS/B0HOOK/xoxSecretHookToken42';

let sim: RunningSimulator | undefined;
let receiver: WebhookReceiver | undefined;
let worker: ChildProcess | undefined;
let prefix = '';

afterEach(async (ctx) => {
  if (worker && worker.exitCode === null && worker.signalCode === null) {
    const exited = new Promise((done) => worker?.once('exit', done));
    worker.kill('SIGKILL');
    await exited;
  }
  worker = undefined;
  await sim?.close();
  await receiver?.close();
  sim = undefined;
  receiver = undefined;
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

async function setup(): Promise<{ s: RunningSimulator; r: WebhookReceiver; env: Record<string, string> }> {
  prefix = uniquePrefix('alerts');
  const s = await startTestSim({ chatbots: [BOT], listings: { [BOT]: Array.from({ length: 9 }, (_, i) => sampleListing(i)) } });
  const r = await startWebhookReceiver();
  sim = s;
  receiver = r;
  return { s, r, env: cliEnv(s, redisUrl, prefix) };
}

interface AlertBody {
  status: string;
  previousStatus: string | null;
  chatbot: string;
  runId: string | null;
  startedAt: string | null;
  counts: Record<string, number>;
  reasons: string[];
  dashboardUrl?: string;
}

const statuses = (r: WebhookReceiver): string[] => r.accepted().map((body) => (body as AlertBody).status);

describe('alerts on changes of a chatbot health', () => {
  it('sends one alert per change: refused (after a 500), recovered, failed; nothing for a first good run or a repeat', async () => {
    const { s, r, env } = await setup();
    const withDashboard = { ...env, DASHBOARD_PUBLIC_URL: 'https://ops.example.com/listing-sync' };
    const add = await runCli(['alerts', 'add', 'ops', '--webhook', `${r.url}/hooks/${HOOK_TOKEN}`, '--format', 'json'], env);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain(`alert ops added: ops  json  ${r.url}/***`);
    expect(add.stdout).not.toContain(HOOK_TOKEN);

    const first = await runCli(['sync', '--chatbot', BOT, '--feed', NINE, '--work', '--json'], withDashboard);
    expect(first.code, first.stderr).toBe(0);
    expect(r.received).toEqual([]);

    r.answerNext(500);
    const refused = await runCli(['sync', '--chatbot', BOT, '--feed', THREE, '--work', '--json'], withDashboard, 40_000);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).not.toMatch(/warn|error/i);
    // Delivered before the command exited: the 500 first, then the retry that was accepted.
    expect(r.received.map((hook) => hook.answered)).toEqual([500, 200]);
    const refusedRun = jsonOf<{ runId: string; guard: { reasons: string[] } }>(refused);
    expect(r.accepted()).toEqual([
      {
        status: 'refused',
        previousStatus: 'healthy',
        chatbot: BOT,
        runId: refusedRun.runId,
        startedAt: expect.any(String) as string,
        counts: { created: 0, updated: 0, deleted: 0, failed: 0, rejected: 0 },
        reasons: refusedRun.guard.reasons,
        dashboardUrl: `https://ops.example.com/listing-sync/runs/${refusedRun.runId}`,
      },
    ]);
    expect(r.received.every((hook) => hook.path === `/hooks/${HOOK_TOKEN}`)).toBe(true);

    const again = await runCli(['sync', '--chatbot', BOT, '--feed', THREE, '--work'], env);
    expect(again.code).toBe(3);
    expect(statuses(r)).toEqual(['refused']);

    const good = await runCli(['sync', '--chatbot', BOT, '--feed', NINE, '--work'], env);
    expect(good.code, good.stderr).toBe(0);
    expect(statuses(r)).toEqual(['refused', 'recovered']);
    expect((r.accepted()[1] as AlertBody).previousStatus).toBe('refused');
    expect((r.accepted()[1] as AlertBody).dashboardUrl).toBeUndefined();

    // A listing gone from the chatbot is created again; the service fails every create for good.
    s.state.remove(BOT, (listing) => listing.MLSNumber === 'ML100008');
    s.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
    const failed = await runCli(['sync', '--chatbot', BOT, '--feed', NINE, '--work', '--json'], { ...env, LISTING_SYNC_ATTEMPTS: '2' });
    expect(failed.code, failed.stderr).toBe(1);
    expect(statuses(r)).toEqual(['refused', 'recovered', 'failed']);
    const failure = r.accepted()[2] as AlertBody;
    expect(failure).toMatchObject({ previousStatus: 'healthy', runId: jsonOf<{ runId: string }>(failed).runId });
    expect(failure.counts.failed).toBe(1);
    expect(failure.reasons).toEqual(['1 listing failed for good', 'ENVELOPE_FAILURE 500: 1 listing']);

    // The delivery log: every attempt, the 500 included, with no webhook URL anywhere in the listing.
    const list = await runCli(['alerts', 'list', '--json'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(HOOK_TOKEN);
    expect(jsonOf<{ alerts: Array<{ webhook: string }> }>(list).alerts[0]?.webhook).toBe(`${r.url}/***`);
  }, 120_000);

  it('answers bad input with one line and exit 2, never echoing the webhook URL', async () => {
    const { env } = await setup();
    const cases: Array<[string[], RegExp]> = [
      [['alerts', 'add', 'x'], /^listing-sync: --webhook is required/],
      [
        ['alerts', 'add', 'x', '--webhook', `ftp://hooks.example.com/${HOOK_TOKEN}`],
        /^listing-sync: --webhook must be an http\(s\) URL \(got ftp:\/\/hooks.example.com\/\*\*\*\)\n$/,
      ],
      [
        ['alerts', 'add', 'x', '--webhook', `https://h.example.com/${HOOK_TOKEN}`, '--on', 'failed,bogus'],
        /^listing-sync: --on must be one of /,
      ],
      [
        ['alerts', 'add', 'x', '--webhook', `https://h.example.com/${HOOK_TOKEN}`, '--format', 'xml'],
        /^listing-sync: --format must be one of json, slack/,
      ],
      [
        ['alerts', 'add', 'x', '--webhook', `https://h.example.com/${HOOK_TOKEN}`, '--failed-rows', '120%'],
        /^listing-sync: --failed-rows must be a percentage/,
      ],
      [['alerts', 'add', 'x y', '--webhook', `https://h.example.com/${HOOK_TOKEN}`], /^listing-sync: alert name must be/],
      [['alerts', 'test', 'nope'], /^listing-sync: no alert nope/],
    ];
    for (const [args, line] of cases) {
      const run = await runCli(args, env);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr).toMatch(line);
      expect(`${run.stdout}${run.stderr}`).not.toContain(HOOK_TOKEN);
    }
  });

  it('removes an alert once: gone from the list, a second remove says there is none (exit 1)', async () => {
    const { r, env } = await setup();
    const hook = `${r.url}/hooks/${HOOK_TOKEN}`;
    expect((await runCli(['alerts', 'add', 'ops', '--webhook', hook], env)).code).toBe(0);
    expect((await runCli(['alerts', 'add', 'ops', '--webhook', hook, '--on', 'failed'], env)).stdout).toMatch(/^alert ops replaced: /);
    const removed = await runCli(['alerts', 'remove', 'ops'], env);
    expect([removed.code, removed.stdout]).toEqual([0, 'alert ops removed\n']);
    const list = await runCli(['alerts', 'list'], env);
    expect([list.code, list.stdout]).toEqual([0, 'no alerts\n']);
    const again = await runCli(['alerts', 'remove', 'ops', '--json'], env);
    expect(again.code).toBe(1);
    expect(jsonOf<{ name: string; removed: boolean }>(again)).toEqual({ name: 'ops', removed: false });
  });

  it('sends one stale alert when a schedule stops producing runs', async () => {
    const { r, env } = await setup();
    const add = await runCli(['alerts', 'add', 'stale-watch', '--webhook', `${r.url}/hooks/${HOOK_TOKEN}`, '--stale-after', '3s'], env);
    expect(add.code, add.stderr).toBe(0);
    const scheduled = await runCli(['schedule', 'add', 'every-second', '--chatbot', BOT, '--feed', NINE, '--cron', '* * * * * *'], env);
    expect(scheduled.code, scheduled.stderr).toBe(0);
    const proc = spawn(process.execPath, [CLI_ENTRY, 'worker'], {
      env: { PATH: process.env.PATH ?? '', ...env, LISTING_SYNC_HEALTH_CHECK_MS: '250' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker = proc;
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const runsOf = async (): Promise<number> =>
      jsonOf<{ runs: unknown[] }>(await runCli(['runs', 'list', '--chatbot', BOT, '--json'], env)).runs.length;
    await expect.poll(runsOf, { timeout: 20_000, interval: 500 }).toBeGreaterThanOrEqual(3);
    expect(r.received).toEqual([]);

    const removed = await runCli(['schedule', 'remove', 'every-second'], env);
    expect(removed.code).toBe(0);
    await expect.poll(() => statuses(r), { timeout: 20_000, interval: 250 }).toEqual(['stale']);
    const stale = r.accepted()[0] as AlertBody;
    expect(stale).toMatchObject({ previousStatus: 'healthy', chatbot: BOT });
    expect(stale.reasons[0]).toMatch(/^no successful run for /);
    // Still stale a while later: said once.
    await new Promise((done) => setTimeout(done, 1500));
    expect(statuses(r)).toEqual(['stale']);
    expect(stderr).not.toContain(HOOK_TOKEN);
  }, 90_000);
});
