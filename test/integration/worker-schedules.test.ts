import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/runtime/logger.js';
import { openQueues, type Queues } from '../../src/queue/queues.js';
import { addSchedule, listSchedules, removeSchedule } from '../../src/queue/schedules.js';
import { startWorkers, type RunningWorkers } from '../../src/queue/worker.js';
import { createStore } from '../../src/store/store.js';
import { createApiClient } from '../../src/api/client.js';
import { DEFAULT_RETRY_TABLE } from '../../src/api/retry-policy.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { TEST_SEAL } from '../helpers/job-seal.js';

const url = inject('redisUrl');
let cleanup: Array<() => Promise<void>> = [];
let prefix = '';
let passed = false;

afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  if (passed) await cleanPrefix(url, prefix);
  passed = false;
});

describe('schedules', () => {
  it('survive in Redis, run the injected sync with trigger schedule once per occurrence across two workers, and log a refused run at error level', async () => {
    prefix = uniquePrefix('sched');
    const redis = new Redis(url, { maxRetriesPerRequest: null });
    const queues: Queues = openQueues(redis, prefix, TEST_SEAL);
    cleanup.push(async () => {
      await queues.close();
      await redis.quit();
    });
    const request = { chatbot: 'bot-s', feed: { source: 'feed.csv', profile: 'native' }, mode: 'mirror' };
    // Every second (six-field cron): occurrences come quickly enough for a test.
    await addSchedule(queues.syncRuns, { name: 'nightly', cron: '* * * * * *', tz: 'Europe/Berlin', request });
    expect(await listSchedules(queues.syncRuns)).toMatchObject([{ name: 'nightly', cron: '* * * * * *', tz: 'Europe/Berlin', request }]);

    const calls: unknown[] = [];
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9', credentials: {} });
    cleanup.push(() => api.close());
    const store = createStore(redis, prefix);
    const runSync = async (req: unknown) => {
      calls.push(req);
      return { runId: `run-${calls.length}`, status: 'refused' as const, reason: 'too many deletes' };
    };
    const started: RunningWorkers[] = [];
    for (let i = 0; i < 2; i += 1) {
      started.push(
        await startWorkers({
          redis: { url, prefix },
          seal: TEST_SEAL,
          concurrency: 2,
          retryTable: DEFAULT_RETRY_TABLE,
          deps: { api, store, logger, now: () => Date.now(), runSync },
          logger,
        }),
      );
    }
    cleanup.push(async () => {
      await Promise.all(started.map((w) => w.close()));
    });
    const t0 = Date.now();
    while (calls.length < 2 && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
    const elapsedS = (Date.now() - t0) / 1000;
    expect(calls.length).toBeGreaterThanOrEqual(2);
    // Once per occurrence: never more calls than seconds elapsed (+1 for the first occurrence).
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(elapsedS) + 1);
    expect(calls[0]).toEqual({ ...request, trigger: 'schedule' });
    const errors = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50);
    expect(errors.some((l) => l.msg.includes('scheduled sync of bot-s refused'))).toBe(true);

    expect(await removeSchedule(queues.syncRuns, 'nightly')).toBe(true);
    expect(await listSchedules(queues.syncRuns)).toEqual([]);
    passed = true;
  }, 30_000);
});
