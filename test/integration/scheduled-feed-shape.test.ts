/**
 * A scheduled sync (a schedule's stored request, run as the sync-run job runs it: scheduledRunSync
 * over the production wiring, real Redis, the simulator over HTTP) meets a feed that lost a column
 * since its last run: it is refused and recorded as a refused run, nothing sent; a stored request
 * carrying acceptShape goes through.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createClientFromConfig } from '../../src/cli/api-wiring.js';
import { openQueueContext, syncDeps } from '../../src/cli/queue-wiring.js';
import { resolveConfig } from '../../src/config.js';
import { createStoreDashboardData } from '../../src/dashboard/read-model.js';
import { createLogger } from '../../src/logger.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { scheduledRunSync } from '../../src/sync/scheduled-run.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { startTestSim } from '../helpers/sim.js';

const url = inject('redisUrl');
const BOT = 'bot-sched-shape';
/** sampleListing(0..8) as a native CSV. */
const NINE = readFileSync(resolve(import.meta.dirname, '../../fixtures/sync/listings-0-8.csv'), 'utf8');

let cleanup: Array<() => Promise<void>> = [];
let prefix = '';
let passed = false;

afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  if (passed) await cleanPrefix(url, prefix);
  passed = false;
});

describe('a scheduled sync of a feed that lost a column', () => {
  it('is refused and recorded, nothing sent; a stored request with acceptShape goes through', async () => {
    prefix = uniquePrefix('sched-shape');
    const sim = await startTestSim({ chatbots: [BOT], listings: { [BOT]: Array.from({ length: 9 }, (_, i) => sampleListing(i)) } });
    const dir = mkdtempSync(join(tmpdir(), 'ls-sched-shape-'));
    cleanup.push(async () => {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const config = resolveConfig({
      env: {
        API_BASE_URL: sim.baseUrl,
        API_SECRET_KEY: sim.credentials.secretKey,
        API_SESSION_KEY: sim.credentials.sessionKey,
        REDIS_URL: url,
        LISTING_SYNC_PREFIX: prefix,
      },
    });
    const logger = createLogger({ level: 'silent' });
    const api = createClientFromConfig(config, logger);
    const ctx = await openQueueContext(config, 'producer');
    cleanup.push(async () => {
      await ctx.close();
      await api.close();
    });
    const scheduled = scheduledRunSync(syncDeps(api, ctx, config, logger), ctx.store.runs);
    const feed = join(dir, 'listings.csv');
    // What `schedule add` stores (sync-options.ts toSyncRequest), as the sync-run job hands it over.
    const stored = {
      chatbot: BOT,
      feed: { source: feed, profile: 'native', encoding: 'utf-8' },
      keyType: 'MLSNumber',
      mode: 'mirror',
      deleteScope: 'managed',
      maxDeletes: '10%',
      maxRejectedPercent: 5,
      pageSize: 100,
      force: false,
      dryRun: false,
      trigger: 'schedule',
    };

    writeFileSync(feed, NINE);
    const first = await scheduled(stored);
    expect(first.status, first.reason).toBe('enqueued');

    // Tonight's export has no Description column.
    const lines = NINE.trimEnd().split('\n');
    const at = (lines[0] ?? '').split(',').indexOf('Description');
    writeFileSync(
      feed,
      `${lines
        .map((line) =>
          line
            .split(',')
            .filter((_, i) => i !== at)
            .join(','),
        )
        .join('\n')}\n`,
    );
    const refused = await scheduled(stored);
    expect(refused.status).toBe('refused');
    expect(refused.reason).toMatch(/column 'Description' \(Description\) is gone; no new column looks like it .*--accept-shape/);
    const record = await ctx.store.runs.getRun(refused.runId);
    expect(record).toMatchObject({ status: 'refused', trigger: 'schedule', summary: { shape: { stage: 'header', accepted: false } } });
    expect(sim.state.writeCalls()).toBe(0);
    // The dashboard's run page reads it from the same record.
    expect((await createStoreDashboardData(ctx.store, ctx.queues).getRun(refused.runId))?.summary.shape).toMatchObject({
      accepted: false,
      drift: [{ kind: 'gone', column: 'Description', fields: ['Description'] }],
    });

    const accepting = { ...stored, acceptShape: true };
    const accepted = await scheduled(accepting);
    expect(accepted.status, accepted.reason).toBe('enqueued');
    expect(await ctx.store.runs.getRun(accepted.runId)).toMatchObject({ summary: { shape: { accepted: true }, plan: { update: 9 } } });
    passed = true;
  }, 60_000);
});
