/**
 * `doctor --connect` on a development machine and with a wrong secret key, and a `sync --work`
 * with that key (the built CLI as a process, the simulator over HTTP, a Redis of its own):
 * Redis's default `appendonly no` is a warning (!) and exit 0; each credential's line names the
 * endpoints that use it; a wrong API_SECRET_KEY is ✗ (exit 1), and a sync with it writes nothing
 * and does not exit 0, because the write endpoints reject a wrong key even beside a right session key.
 */
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { uniquePrefix } from '../helpers/redis.js';
import { cliEnv, simEnv, startTestSim } from '../helpers/sim.js';
import { runCli } from '../helpers/run-cli.js';

const BOT = 'bot-doctor-dev';
const FEED = join(resolve(import.meta.dirname, '../../fixtures/sync'), 'dry-run.csv');
let sim: RunningSimulator | undefined;
let redis: RedisProcess | undefined;

afterEach(async () => {
  await sim?.close();
  await redis?.close();
  sim = undefined;
  redis = undefined;
});

describe.skipIf(!hasRedisServer())('doctor --connect on a development machine', () => {
  it('appendonly no is a warning with the production fix, exit 0; each credential names its endpoints', async () => {
    sim = await startTestSim({ chatbots: [BOT] });
    redis = await startRedisProcess({ args: ['--appendonly', 'no'] });
    const run = await runCli(['doctor', '--connect', '--chatbot', BOT], { ...simEnv(sim), REDIS_URL: redis.url }, 30_000);
    expect(run.stdout).toMatch(/^! Redis persistence +appendonly is no: fine for development/m);
    expect(run.stdout).toMatch(/fix: set appendonly yes/);
    expect(run.stdout).not.toMatch(/^✗ /m);
    expect(run.stdout).toContain('ready for development: 1 warning(s)');
    expect(run.stdout).toMatch(/^✓ API_SESSION_KEY +accepted.*used by RealEstateList/m);
    expect(run.stdout).toMatch(/^✓ API_SECRET_KEY +accepted.*used by Chatbot Edit\/EditKnowledge and RealEstateCreate\/Update\/Delete/m);
    expect(run.stdout).toMatch(/^✓ PROJECT_AUTH_TOKEN +accepted.*used by GetTableList/m);
    expect(run.code).toBe(0);
  });

  it('a wrong API_SECRET_KEY: doctor ✗ and exit 1; sync --work with it writes nothing and does not exit 0', async () => {
    sim = await startTestSim({ chatbots: [BOT] });
    redis = await startRedisProcess();
    const wrong = 'wrong-secret-key-5521';
    const doctor = await runCli(
      ['doctor', '--connect', '--chatbot', BOT],
      { ...simEnv(sim), API_SECRET_KEY: wrong, REDIS_URL: redis.url },
      30_000,
    );
    expect(doctor.stdout).toMatch(/^✗ API_SECRET_KEY +rejected by the service$/m);
    expect(doctor.code).toBe(1);

    const env = cliEnv(sim, redis.url, uniquePrefix('wrongsecret'), { API_SECRET_KEY: wrong });
    const sync = await runCli(
      ['sync', '--chatbot', BOT, '--feed', FEED, '--work', '--max-rejected', '50%', '--timeout', '15s'],
      env,
      90_000,
    );
    expect(sync.code, sync.stdout + sync.stderr).not.toBe(0);
    expect(sim.state.listings(BOT)).toHaveLength(0);
    expect(sync.stdout + sync.stderr).not.toContain(wrong);
    expect(sync.stdout + sync.stderr).toContain('AUTHENTICATION FAILED');
  }, 120_000);
});
