/**
 * LISTING_SYNC_RETRY_* reaches the snapshot's page reads of a real `sync` process (config →
 * syncDeps → runSync → the snapshot's retryRead), not only the queue's error mapping.
 */
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { runCli } from './run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-retry-table';
const FEED = join(resolve(import.meta.dirname, '../../fixtures/sync'), 'dry-run.csv');

let sim: RunningSimulator | undefined;
let prefix = '';

afterEach(async (ctx) => {
  await sim?.close();
  sim = undefined;
  // Never clean an empty prefix (that would match every key); kept when the test failed.
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

describe('sync --dry-run with a configured retry table', () => {
  it('stops after one list request when LISTING_SYNC_RETRY_ENVELOPE_CODES leaves out the failure; the default table retries it', async () => {
    prefix = uniquePrefix('retry-table');
    sim = await startTestSim({ chatbots: [BOT], listings: { [BOT]: [0, 1, 2].map((i) => sampleListing(i)) } });
    sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['listListings'] });
    const env = { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' };
    const args = ['sync', '--dry-run', '--chatbot', BOT, '--feed', FEED, '--json'];

    const configured = await runCli(args, { ...env, LISTING_SYNC_RETRY_ENVELOPE_CODES: '429' });
    expect(configured.code, configured.stderr).not.toBe(0);
    expect(configured.stderr).toMatch(/ENVELOPE_FAILURE|Internal error/);
    expect(sim.state.callCounts().listListings).toBe(1);

    const byDefault = await runCli(args, env);
    expect(byDefault.code, byDefault.stderr).not.toBe(0);
    // The snapshot's read schedule: 5 attempts of page 1 (SNAPSHOT_READ_RETRY).
    expect(sim.state.callCounts().listListings).toBe(1 + 5);
  }, 30_000);
});
