/**
 * A scheduled sync (a schedule's stored request, run as the sync-run job runs it: scheduledRunSync
 * over the production wiring, real Redis, the simulator over HTTP) meets a feed that lost a column
 * since its last run: it is refused and recorded as a refused run, nothing sent; a stored request
 * carrying acceptShape goes through once the emptied field is also allowed past the wipe guard.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClientFromConfig } from '../../src/cli/wiring/api-wiring.js';
import type { QueueContext } from '../../src/cli/wiring/queue-context.js';
import { openQueueContext, syncDeps } from '../../src/cli/wiring/queue-wiring.js';
import { resolveConfig } from '../../src/config/config.js';
import { createStoreDashboardData } from '../../src/dashboard/read-model.js';
import { createLogger } from '../../src/runtime/logger.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import type { ScheduledRun } from '../../src/domain/scheduled-run.js';
import { scheduledRunSync } from '../../src/sync/scheduled-run.js';
import { simScenePerTest } from '../helpers/feed-scenario.js';

const BOT = 'bot-sched-shape';
/** sampleListing(0..8) as a native CSV. */
const NINE = readFileSync(resolve(import.meta.dirname, '../../fixtures/sync/listings-0-8.csv'), 'utf8');

const scenes = simScenePerTest('sched-shape');

describe('a scheduled sync of a feed that lost a column', () => {
  it('is refused and recorded, nothing sent; a stored request with acceptShape goes through', async () => {
    const listings = { [BOT]: Array.from({ length: 9 }, (_, i) => sampleListing(i)) };
    const { sim, env, dir } = await scenes.start({ chatbots: [BOT], listings });
    const config = resolveConfig({ env });
    const logger = createLogger({ level: 'silent' });
    const api = createClientFromConfig(config, logger);
    const ctx = await openQueueContext(config, 'producer');
    try {
      await scheduledSyncs(sim, dir, scheduledRunSync(syncDeps(api, ctx, config, logger), ctx.store.runs), ctx);
    } finally {
      await ctx.close();
      await api.close();
    }
  }, 60_000);
});

/** A schedule's stored request as the job hands it over: scheduledRunSync checks all but chatbot. */
type StoredRequest = { chatbot: string } & Record<string, unknown>;

/** The nights: a first run records the shape, the next is refused, one with acceptShape goes through. */
async function scheduledSyncs(
  sim: RunningSimulator,
  dir: string,
  scheduled: (payload: StoredRequest) => Promise<ScheduledRun>,
  ctx: QueueContext,
): Promise<void> {
  const feed = join(dir, 'listings.csv');
  // What `schedule add` stores (sync-options.ts toSyncRequest), as the sync-run job hands it over.
  const stored: StoredRequest = {
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
  const dropped = (line: string): string =>
    line
      .split(',')
      .filter((_, i) => i !== at)
      .join(',');
  writeFileSync(feed, `${lines.map(dropped).join('\n')}\n`);
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

  // Accepting the shape is not accepting the loss: the wipe guard still judges the emptied field
  // (each override names what it lets through).
  const onlyShape = await scheduled({ ...stored, acceptShape: true });
  expect(onlyShape.status).toBe('refused');
  expect(onlyShape.reason).toMatch(/^The plan would empty Description on 9 listings/);
  expect(sim.state.writeCalls()).toBe(0);
  const accepting = { ...stored, acceptShape: true, allowWipe: ['Description'] };
  const accepted = await scheduled(accepting);
  expect(accepted.status, accepted.reason).toBe('enqueued');
  expect(await ctx.store.runs.getRun(accepted.runId)).toMatchObject({ summary: { shape: { accepted: true }, plan: { update: 9 } } });
}
