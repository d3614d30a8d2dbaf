/**
 * `listing-sync doctor --connect` as a process, against the simulator over HTTP and a real Redis:
 * all ✓ and exit 0 when everything is right; a wrong key is its own ✗ line naming its env var and
 * the fix (exit 1), and its value never appears; a Redis that may evict data is ✗ too, one
 * that may lose it on a restart (appendonly no) a warning.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

const BOT = 'bot-doctor';
const PASSWORD = 'Doctor-Connect-Pw-93b1';
let sim: RunningSimulator | undefined;
let redis: RedisProcess | undefined;

afterEach(async () => {
  await sim?.close();
  await redis?.close();
  sim = undefined;
  redis = undefined;
});

async function doctor(env: Record<string, string>, extra: string[] = []): Promise<CliRun> {
  return await runCli(['doctor', '--connect', '--chatbot', BOT, ...extra], env, 30_000);
}

const marked = (run: CliRun, mark: string): string[] => run.stdout.split('\n').filter((line) => line.startsWith(`${mark} `));

describe.skipIf(!hasRedisServer())('listing-sync doctor --connect', () => {
  it('all ✓ with the right keys and a Redis that keeps its data: exit 0', async () => {
    sim = await startTestSim({ chatbots: [BOT] });
    redis = await startRedisProcess({ password: PASSWORD });
    const run = await doctor({ ...simEnv(sim), REDIS_URL: redis.url });

    expect(marked(run, '✗'), run.stdout).toEqual([]);
    for (const name of ['API_SESSION_KEY', 'API_SECRET_KEY', 'PROJECT_AUTH_TOKEN'])
      expect(run.stdout).toMatch(new RegExp(`^✓ ${name} +accepted`, 'm'));
    expect(run.stdout).toMatch(/^✓ Redis +redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ answers$/m);
    expect(run.stdout).toMatch(/^✓ Redis persistence +appendonly yes, appendfsync everysec$/m);
    expect(run.stdout).toMatch(/^✓ Redis eviction +maxmemory-policy noeviction$/m);
    expect(run.stdout).toContain('ready: every check passed');
    expect(run.code).toBe(0);
    for (const secret of [...Object.values(sim.credentials), PASSWORD]) expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it('a wrong API key is its own ✗ line naming the env var and the fix, exit 1, its value never shown', async () => {
    sim = await startTestSim({ chatbots: [BOT] });
    redis = await startRedisProcess();
    const wrong = 'wrong-session-key-4411';
    const run = await doctor({ ...simEnv(sim), API_SESSION_KEY: wrong, REDIS_URL: redis.url });

    expect(marked(run, '✗'), run.stdout).toEqual([expect.stringMatching(/^✗ API_SESSION_KEY +rejected by the service$/)]);
    expect(run.stdout).toMatch(/^ +fix: set API_SESSION_KEY to the key the service issued/m);
    expect(run.stdout).toMatch(/^✓ API_SECRET_KEY +accepted/m);
    expect(run.stdout).toContain('not ready: 1 check(s) failed');
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain(wrong);
  });

  it('a Redis that may evict or lose queued jobs is ✗ with the fix; --json says ready false', async () => {
    sim = await startTestSim({ chatbots: [BOT] });
    redis = await startRedisProcess({ args: ['--appendonly', 'no', '--maxmemory-policy', 'allkeys-lru'] });
    const run = await doctor({ ...simEnv(sim), REDIS_URL: redis.url });
    expect(run.stdout).toMatch(/^! Redis persistence +appendonly is no/m);
    expect(run.stdout).toMatch(/^✗ Redis eviction +maxmemory-policy is allkeys-lru/m);
    expect(run.stdout).toMatch(/fix: set maxmemory-policy noeviction/);
    expect(run.code).toBe(1);

    const json = await doctor({ ...simEnv(sim), REDIS_URL: redis.url }, ['--json']);
    const report = JSON.parse(json.stdout) as { ready: boolean; checks: Array<{ mark: string; what: string }> };
    expect(report.ready).toBe(false);
    expect(report.checks.filter((c) => c.mark === 'fail').map((c) => c.what)).toEqual(['Redis eviction']);
    expect(report.checks.filter((c) => c.mark === 'warn').map((c) => c.what)).toEqual(['Redis persistence']);
  });

  it('a setting that does not parse is ✗ on its own line and nothing is contacted', async () => {
    const run = await doctor({ API_BASE_URL: 'http://127.0.0.1:9', LISTING_SYNC_RATE: 'fast', API_SESSION_KEY: 'k-1234' });
    expect(run.stdout).toMatch(/^✗ LISTING_SYNC_RATE +must be a rate like/m);
    expect(run.stdout).not.toMatch(/^. Redis /m);
    expect(run.code).toBe(1);
  });
});
