/**
 * A nightly replication as users set it up: `schedule add ... --replicate` stores the request
 * (budget spec included, never a credential), and a `worker` process with the feed credentials in
 * its own environment runs it: the first occurrence pulls everything, later ones only what
 * changed, and a Withdrawn record is deleted on the chatbot. Also: `--replicate` refuses
 * `--mode mirror` (a pull holds only what changed) instead of silently ignoring it.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startResoSimulator, type RunningResoSimulator } from '../../src/sim/reso/server.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { startCli, stackTraceLines, type CliProcess } from '../helpers/cli-process.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-nightly-reso';
const SECRET = 'schedule-reso-client-secret';
const RECORDS = 12;

let sim: RunningSimulator | undefined;
let reso: RunningResoSimulator | undefined;
let worker: CliProcess | undefined;
let prefix = '';

afterEach(async (ctx) => {
  await worker?.kill();
  await sim?.close();
  await reso?.close();
  [sim, reso, worker] = [undefined, undefined, undefined];
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function setUp(): Promise<{ s: RunningSimulator; r: RunningResoSimulator; env: Record<string, string> }> {
  prefix = uniquePrefix('schedule-reso');
  const s = await startTestSim({ chatbots: [BOT] });
  const r = await startResoSimulator({ maxTop: 5, credentials: { clientSecret: SECRET } });
  [sim, reso] = [s, r];
  r.state.records.seed({ count: RECORDS, status: 'Active' });
  const env = { ...simEnv(s), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix };
  return { s, r, env };
}

/** The environment of the worker: the feed credentials live here, not in the stored schedule. */
function credentials(r: RunningResoSimulator): Record<string, string> {
  return { FEED_OAUTH_TOKEN_URL: r.tokenUrl, FEED_OAUTH_CLIENT_ID: r.credentials.clientId, FEED_OAUTH_CLIENT_SECRET: SECRET };
}

const replicateFlags = (r: RunningResoSimulator): string[] => [
  '--chatbot',
  BOT,
  '--feed',
  r.propertyUrl,
  '--profile',
  'reso',
  '--replicate',
];

describe('schedule add --replicate', () => {
  it('stores the replication (no credential), and a worker pulls everything, then what changed, deleting a Withdrawn record', async () => {
    const { s, r, env } = await setUp();
    const added = await runCli(
      ['schedule', 'add', 'nightly-mls', '--cron', '* * * * * *', ...replicateFlags(r), '--feed-budget', '20/s', '--overlap', '0s'],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const listed = jsonOf<{ schedules: Array<{ name: string; request: unknown }> }>(await runCli(['schedule', 'list', '--json'], env));
    expect(listed.schedules[0]?.request).toMatchObject({ mode: 'upsert', replicate: { sweep: false, overlapMs: 0, budget: '20/s' } });
    expect(JSON.stringify(listed)).not.toContain(SECRET);

    worker = startCli(['worker', '--concurrency', '4'], { ...env, ...credentials(r) });
    await until(() => s.state.listings(BOT).length === RECORDS, 30_000, 'the scheduled pull to create every listing');

    const [withdrawn = ''] = r.state.records.list().map((record) => String(record.property.ListingKey));
    const withdrawnId = String(r.state.records.get(withdrawn)?.property.ListingId);
    r.state.records.setStatus({ keys: [withdrawn], status: 'Withdrawn', timestamp: new Date(Date.now() + 60_000).toISOString() });
    await until(
      () => !s.state.listings(BOT).some((listing) => String(listing.MLSNumber) === withdrawnId),
      30_000,
      'a later occurrence to delete the Withdrawn listing',
    );
    expect((await runCli(['schedule', 'remove', 'nightly-mls'], env)).code).toBe(0);
    const stopped = await worker.stop('SIGTERM');
    expect(stopped.code, worker.stderr()).toBe(0);
    expect(stackTraceLines(worker.stdout() + worker.stderr())).toEqual([]);
    expect(worker.stdout() + worker.stderr()).not.toContain(SECRET);

    expect(s.state.listings(BOT)).toHaveLength(RECORDS - 1);
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
    const sources = jsonOf<{ sources: Array<{ chatbot: string; watermark?: string; lastRun?: { status: string } }> }>(
      await runCli(['sources', 'list', '--json'], env),
    );
    expect(sources.sources).toEqual([expect.objectContaining({ chatbot: BOT, watermark: expect.any(String) as unknown })]);
    const runs = jsonOf<{ runs: Array<{ trigger: string }> }>(await runCli(['runs', 'list', '--chatbot', BOT, '--json'], env));
    expect(runs.runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.runs.every((run) => run.trigger === 'schedule')).toBe(true);
  });

  it('refuses --mode mirror with --replicate, for sync and schedule add alike, and changes nothing', async () => {
    const { s, r, env } = await setUp();
    for (const args of [
      ['sync', ...replicateFlags(r), '--mode', 'mirror'],
      ['schedule', 'add', 'mirror-mls', '--cron', '0 2 * * *', ...replicateFlags(r), '--mode', 'mirror'],
    ]) {
      const refused = await runCli(args, { ...env, ...credentials(r) });
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toContain('--replicate cannot be combined with --mode mirror');
    }
    expect(jsonOf<{ schedules: unknown[] }>(await runCli(['schedule', 'list', '--json'], env)).schedules).toEqual([]);
    expect(r.state.counters().requests).toBe(0);
    expect(s.state.listings(BOT)).toEqual([]);
  });
});
