/**
 * The set-up of an end-to-end `sync --replicate` test: the service simulator (the chatbot), the
 * RESO simulator (the MLS) with one client credential, a Redis prefix of its own, the env that
 * points the built CLI at all three, and a runner of `sync --replicate` that checks no secret
 * reached its output. `resoFixtures()` closes what a test started and cleans its prefix when it passed.
 */
import { request } from 'undici';
import { afterEach, expect, inject } from 'vitest';
import { startResoSimulator, type ResoSimOptions, type RunningResoSimulator } from '../../src/sim/reso/server.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from './redis.js';
import { simEnv, startTestSim } from './sim.js';
import { runCli, type CliRun } from './run-cli.js';

/** The client secret of the RESO credential: distinctive, so a leak is found by a plain search. */
export const FEED_SECRET = 'reso-e2e-client-secret-value';

/** What `sync --replicate --json` prints (the members these tests read). */
export interface Replicated {
  runId: string;
  plan: { create: number; update: number; delete: number };
  replication: {
    status: string;
    recordsPulled: number;
    requests: number;
    watermark?: string;
    since?: string;
    sweep?: { complete: boolean; deleted: number };
  };
}

export interface ResoFixtureOptions {
  chatbots: readonly string[];
  /** Records seeded Active at start (default 0). */
  records?: number;
  /** Photos per seeded record (random 0..8 when absent). */
  photos?: number;
  /** Options of the RESO simulator; the credential's secret is always FEED_SECRET. */
  reso?: ResoSimOptions;
  /** Label of the Redis prefix. */
  label?: string;
}

export interface ReplicateOptions {
  /** Arguments after the defaults (`--overlap 0s --work --json`). */
  extra?: readonly string[];
  /** Env members over the fixture's (e.g. LOG_LEVEL: 'info'); a member set to '' is removed. */
  env?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

export interface ResoFixture {
  sim: RunningSimulator;
  reso: RunningResoSimulator;
  prefix: string;
  /** The env of a CLI run: service simulator, Redis and prefix, LOG_LEVEL=debug, FEED_OAUTH_*. */
  env(overrides?: Readonly<Record<string, string>>): Record<string, string>;
  /** `sync --chatbot <chatbot> --feed <Property> --profile reso --replicate --overlap 0s --work --json <extra>`; no secret in its output. */
  replicate(chatbot: string, options?: ReplicateOptions): Promise<CliRun>;
  /** Every ListingKey of the MLS (ListingKey order). */
  keys(): string[];
  /** The ListingId (the chatbot's MLSNumber) of a ListingKey. */
  listingIdOf(key: string): string;
  /** The MLSNumbers a chatbot holds, sorted. */
  mlsNumbers(chatbot: string): string[];
}

const redisUrl = inject('redisUrl');

/** `stamp` moved by `seconds`, as ISO 8601 with milliseconds. */
export const after = (stamp: string, seconds: number): string => new Date(Date.parse(stamp) + seconds * 1000).toISOString();

/** Env overrides that remove the client credentials (to run with FEED_TOKEN instead). */
export const WITHOUT_OAUTH: Readonly<Record<string, string>> = {
  FEED_OAUTH_TOKEN_URL: '',
  FEED_OAUTH_CLIENT_ID: '',
  FEED_OAUTH_CLIENT_SECRET: '',
};

/** An access token from the simulator's token endpoint (client-credentials grant), as a user would get one for FEED_TOKEN. */
export async function fetchAccessToken(reso: RunningResoSimulator): Promise<string> {
  const answer = await request(reso.tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${reso.credentials.clientId}:${FEED_SECRET}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await answer.body.json()) as { access_token?: unknown };
  if (answer.statusCode !== 200 || typeof body.access_token !== 'string')
    throw new Error(`no token from ${reso.tokenUrl}: HTTP ${answer.statusCode}`);
  return body.access_token;
}

/** Fails the test when `text` holds the client secret or a bearer token. */
export function expectNoFeedSecret(text: string): void {
  expect(text).not.toContain(FEED_SECRET);
  expect(text).not.toMatch(/Bearer\s+\S|access_token/);
}

async function startFixture(options: ResoFixtureOptions): Promise<ResoFixture> {
  const prefix = uniquePrefix(options.label ?? 'sync-reso');
  const sim = await startTestSim({ chatbots: [...options.chatbots] });
  let reso: RunningResoSimulator;
  try {
    reso = await startResoSimulator({ ...options.reso, credentials: { ...options.reso?.credentials, clientSecret: FEED_SECRET } });
  } catch (thrown) {
    await sim.close();
    throw thrown;
  }
  if ((options.records ?? 0) > 0)
    reso.state.records.seed({
      count: options.records ?? 0,
      status: 'Active',
      ...(options.photos === undefined ? {} : { photos: options.photos }),
    });
  const env = (overrides: Readonly<Record<string, string>> = {}): Record<string, string> => {
    const all: Record<string, string> = {
      ...simEnv(sim),
      REDIS_URL: redisUrl,
      LISTING_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'debug',
      FEED_OAUTH_TOKEN_URL: reso.tokenUrl,
      FEED_OAUTH_CLIENT_ID: reso.credentials.clientId,
      FEED_OAUTH_CLIENT_SECRET: FEED_SECRET,
      ...overrides,
    };
    return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== ''));
  };
  const keys = (): string[] => reso.state.records.list().map((record) => record.property.ListingKey);
  return {
    sim,
    reso,
    prefix,
    env,
    keys,
    listingIdOf: (key) => reso.state.records.get(key)?.property.ListingId ?? `(no record ${key})`,
    mlsNumbers: (chatbot) =>
      sim.state
        .listings(chatbot)
        .map((listing) => String(listing.MLSNumber))
        .sort(),
    replicate: async (chatbot, run = {}) => {
      const args = ['sync', '--chatbot', chatbot, '--feed', reso.propertyUrl, '--profile', 'reso', '--replicate'];
      const result = await runCli(
        [...args, '--overlap', '0s', '--work', '--json', ...(run.extra ?? [])],
        env(run.env),
        run.timeoutMs ?? 60_000,
      );
      expectNoFeedSecret(result.stdout);
      expectNoFeedSecret(result.stderr);
      return result;
    },
  };
}

/**
 * Registers an afterEach that closes every fixture the test started (and deletes its Redis
 * prefix when the test passed: a failed one leaves its keys to look at); returns the starter.
 */
export function resoFixtures(): (options: ResoFixtureOptions) => Promise<ResoFixture> {
  const started: ResoFixture[] = [];
  afterEach(async (ctx) => {
    const passed = (ctx.task.result?.errors ?? []).length === 0;
    for (const fixture of started.splice(0)) {
      await fixture.sim.close();
      await fixture.reso.close();
      if (passed) await cleanPrefix(redisUrl, fixture.prefix);
    }
  });
  return async (options) => {
    const fixture = await startFixture(options);
    started.push(fixture);
    return fixture;
  };
}
