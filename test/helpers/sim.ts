/**
 * Test helpers for the service simulator: start one on port 0, run a block with one, and the
 * env that points the CLI at it.
 */
import { startSimulator, type RunningSimulator, type SimOptions } from '../../src/sim/server.js';

/** Starts a simulator on 127.0.0.1, any free port. The caller closes it (afterEach). */
export async function startTestSim(options: SimOptions = {}): Promise<RunningSimulator> {
  return await startSimulator({ port: 0, host: '127.0.0.1', ...options });
}

/** Runs `fn` with a fresh simulator and closes it afterwards, pass or fail. */
export async function withSim<T>(options: SimOptions, fn: (sim: RunningSimulator) => Promise<T>): Promise<T> {
  const sim = await startTestSim(options);
  try {
    return await fn(sim);
  } finally {
    await sim.close();
  }
}

/** The env variables that point the CLI (or a worker process) at `sim`. */
export function simEnv(sim: RunningSimulator): Record<string, string> {
  return {
    API_BASE_URL: sim.baseUrl,
    SITE_URL: sim.siteUrl,
    API_SECRET_KEY: sim.credentials.secretKey,
    API_SESSION_KEY: sim.credentials.sessionKey,
    PROJECT_AUTH_TOKEN: sim.credentials.projectAuthToken,
  };
}

/**
 * Short client timeouts for tests that kill a worker mid-run. Why: a start of a job that died
 * holding a key claim keeps it for the send window (the fence plus connect + headers + body
 * timeouts, 70 s by default: store/write-claims.ts); with these it is 8 s, and the run converges
 * within the test's time. The simulator answers well within them.
 */
export const CRASH_RECOVERY_ENV: Readonly<Record<string, string>> = {
  LISTING_SYNC_TIMEOUT_CONNECT_MS: '1000',
  LISTING_SYNC_TIMEOUT_HEADERS_MS: '2000',
  LISTING_SYNC_TIMEOUT_BODY_MS: '2000',
};

/**
 * The env of a CLI process (sync, worker…) against `sim` and Redis at `redisUrl` under `prefix`:
 * fast backoff so retries do not slow a test, warnings only; `extra` wins.
 */
export function cliEnv(
  sim: RunningSimulator,
  redisUrl: string,
  prefix: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...simEnv(sim),
    REDIS_URL: redisUrl,
    LISTING_SYNC_PREFIX: prefix,
    LISTING_SYNC_BACKOFF_MS: '5',
    LISTING_SYNC_BACKOFF_MAX_MS: '50',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}
