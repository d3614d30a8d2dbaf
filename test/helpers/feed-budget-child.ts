/**
 * A process hammering one feed request budget (test/integration/feed-budget.test.ts spawns two):
 * says `ready`, waits for a line on stdin (the parent sends it once both are ready, so they start
 * together), then calls `acquire` in a loop until RUN_MS has passed, printing one JSON line per grant with its Redis time, and `done` at the end.
 * Env: REDIS_URL, PREFIX, BUDGET_ID, WINDOWS (JSON FeedBudgetWindows), SPANS (JSON spansMs), RUN_MS.
 */
import { Redis } from 'ioredis';
import { createStore } from '../../src/store/store.js';
import { errorFields } from '../../src/shared/errors.js';
import type { FeedBudgetOptions, FeedBudgetWindows } from '../../src/store/feed-budget.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const redis = new Redis(env('REDIS_URL'));
try {
  const store = createStore(redis, env('PREFIX'));
  const budget = store.feedBudget(env('BUDGET_ID'), JSON.parse(env('WINDOWS')) as FeedBudgetWindows, {
    spansMs: JSON.parse(env('SPANS')) as FeedBudgetOptions['spansMs'],
  });
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ready: true })}\n`);
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.destroy();
  const signal = AbortSignal.timeout(Number(env('RUN_MS')));
  let calls = 0;
  for (;;) {
    calls += 1;
    try {
      const grant = await budget.acquireGrant({ maxWaitMs: 60_000, signal });
      process.stdout.write(`${JSON.stringify({ pid: process.pid, at: grant.grantedAtUs })}\n`);
    } catch (thrown) {
      if (errorFields(thrown).code !== 'ABORTED') throw thrown;
      break;
    }
  }
  process.stdout.write(`${JSON.stringify({ pid: process.pid, done: true, calls })}\n`);
} finally {
  await redis.quit();
}
