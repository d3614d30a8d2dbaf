/**
 * Retention settings: LISTING_SYNC_KEEP_DAYS / _KEEP_RUNS / _KEEP_COMPLETED_HOURS resolve like
 * every other setting, and become BullMQ's age + count limits for finished jobs.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { jobSettings } from '../../src/cli/wiring/queue-wiring.js';

describe('retention settings', () => {
  it('default to 30 days or 200 runs, completed jobs not kept, failed jobs for the 30 days', () => {
    const config = resolveConfig({ env: {} });
    expect(config.retention).toEqual({ keepDays: 30, keepRuns: 200, completedJobHours: 24 });
    const jobs = jobSettings(config);
    expect(jobs.keepCompleted).toBe(true);
    expect(jobs.keepFailed).toEqual({ age: 30 * 86_400, count: 10_000 });
  });

  it('read the env and a config file, the env winning', () => {
    const config = resolveConfig({
      env: {
        LISTING_SYNC_KEEP_DAYS: '7',
        LISTING_SYNC_KEEP_COMPLETED_HOURS: '2',
        LISTING_SYNC_KEEP_COMPLETED: '1000',
        LISTING_SYNC_KEEP_FAILED: '50',
      },
      file: { LISTING_SYNC_KEEP_DAYS: 90, LISTING_SYNC_KEEP_RUNS: 0 },
    });
    expect(config.retention).toEqual({ keepDays: 7, keepRuns: 0, completedJobHours: 2 });
    expect(jobSettings(config).keepFailed).toEqual({ age: 7 * 86_400, count: 50 });
    expect(jobSettings(config).keepCompleted).toEqual({ age: 7200, count: 1000 });
  });

  it('report every bad value at once, with the others', () => {
    let message = '';
    try {
      resolveConfig({
        env: {
          LISTING_SYNC_KEEP_DAYS: '0',
          LISTING_SYNC_KEEP_RUNS: '-1',
          LISTING_SYNC_KEEP_COMPLETED_HOURS: 'a day',
          LISTING_SYNC_ATTEMPTS: 'x',
        },
      });
    } catch (thrown) {
      message = (thrown as Error).message;
    }
    expect(message.split('\n').slice(1)).toEqual([
      "  LISTING_SYNC_ATTEMPTS: must be a whole number from 1 to 1000 (got 'x')",
      "  LISTING_SYNC_KEEP_DAYS: must be a whole number from 1 to 3650 (got '0')",
      "  LISTING_SYNC_KEEP_RUNS: must be a whole number from 0 to 1000000 (got '-1')",
      "  LISTING_SYNC_KEEP_COMPLETED_HOURS: must be a whole number from 1 to 87600 (got 'a day')",
    ]);
  });
});
