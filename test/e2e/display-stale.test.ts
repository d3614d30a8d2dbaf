/**
 * A chatbot whose display policy says `maxStaleHours: 12`: a worker whose clock reads 13 h after
 * its last successful sync (LISTING_SYNC_NOW, the test's clock) finds it `stale` and alerts once,
 * although the alert itself would wait 26 h; the next successful sync alerts `recovered`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { CLI_ENTRY, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-stale';
let sim: RunningSimulator | undefined;
let receiver: WebhookReceiver | undefined;
let worker: ChildProcess | undefined;
let prefix = '';
let dir = '';

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
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  prefix = '';
  dir = '';
});

const statuses = (r: WebhookReceiver): string[] => r.accepted().map((body) => (body as { status: string }).status);

describe("the display policy's maxStaleHours", () => {
  it('makes a chatbot stale past it, alerting once, and a fresh sync recovers it', async () => {
    prefix = uniquePrefix('display-stale');
    dir = mkdtempSync(join(tmpdir(), 'ls-stale-'));
    const s = await startTestSim({ chatbots: [BOT] });
    sim = s;
    const r = await startWebhookReceiver();
    receiver = r;
    const env = cliEnv(s, redisUrl, prefix);
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'maxStaleHours: 12\n');
    const add = await runCli(['alerts', 'add', 'ops', '--webhook', `${r.url}/hooks/stale`, '--format', 'json'], env);
    expect(add.code, add.stderr).toBe(0);
    const sync = ['sync', '--chatbot', BOT, '--feed', 'fixtures/display/feed.ndjson', '--profile', 'reso', '--display-policy', policy];
    const first = await runCli([...sync, '--work', '--json'], env, 60_000);
    expect(first.code, first.stderr).toBe(0);
    expect(r.received).toEqual([]);

    const later = new Date(Date.now() + 13 * 3_600_000).toISOString();
    const proc = spawn(process.execPath, [CLI_ENTRY, 'worker'], {
      env: { PATH: process.env.PATH ?? '', ...env, LISTING_SYNC_HEALTH_CHECK_MS: '250', LISTING_SYNC_NOW: later },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker = proc;
    await expect.poll(() => statuses(r), { timeout: 20_000, interval: 250 }).toEqual(['stale']);
    const [stale] = r.accepted() as Array<{ reasons: string[]; previousStatus: string | null }>;
    expect(stale?.previousStatus).toBe('healthy');
    expect(stale?.reasons[0]).toMatch(/^no successful run for 13(\.\d)? h .*; the display policy's maxStaleHours is 12$/);
    const exited = new Promise((done) => proc.once('exit', done));
    proc.kill('SIGTERM');
    await exited;

    const fresh = await runCli([...sync, '--work', '--json'], env, 60_000);
    expect(fresh.code, fresh.stderr).toBe(0);
    await expect.poll(() => statuses(r), { timeout: 20_000, interval: 250 }).toEqual(['stale', 'recovered']);
  }, 90_000);
});
