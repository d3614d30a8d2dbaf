/**
 * What every worker process does besides its jobs: the reconciler (runs that nothing else would
 * end, src/queue/reconcile-run.ts) and, at most once an hour per installation, retention.
 */
import type { Config } from '../../config/config.js';
import type { Logger } from '../../runtime/logger.js';
import { DEFAULT_RECONCILE } from '../../queue/reconcile-run.js';
import { startReconciler, type RunningReconciler } from '../../queue/reconciler.js';
import { runRetentionOnce } from '../../store/retention.js';
import type { QueueContext } from './queue-context.js';
import { mediaGc } from '../../sync/media-gc.js';
import { openConfiguredStore } from './photo-wiring.js';

const HOUR_MS = 3_600_000;
const CLEAN_BATCH = 1000;
const CLEAN_BATCHES_MAX = 100;

/**
 * Retention, at most once an hour per installation (a lock in Redis): old runs and their data
 * (src/store/retention.ts), then finished jobs past their age. Why the queue is cleaned here too:
 * BullMQ applies removeOnComplete/removeOnFail ages only when another job finishes, so a quiet
 * queue would keep old failed jobs, whose retry could outlive the tombstones they are checked
 * against.
 */
async function applyRetentionHourly(ctx: QueueContext, config: Config, logger: Logger): Promise<void> {
  const { keepDays, keepRuns, completedJobHours } = config.retention;
  const result = await runRetentionOnce(ctx.redis, ctx.store.keys, { keepDays, keepRuns }, Date.now(), HOUR_MS);
  if (result === undefined) return;
  let jobs = 0;
  for (const [graceMs, type] of [
    [keepDays * 24 * HOUR_MS, 'failed'],
    [completedJobHours * HOUR_MS, 'completed'],
  ] as const) {
    for (let batch = 0; batch < CLEAN_BATCHES_MAX; batch += 1) {
      const removed = await ctx.queues.writes.clean(graceMs, CLEAN_BATCH, type);
      jobs += removed.length;
      if (removed.length < CLEAN_BATCH) break;
    }
  }
  logger.debug({ ...result, jobs }, 'retention applied');
  await collectMedia(ctx, config, logger);
}

/** Media gc with the retention pass (once an hour per installation), when this worker hosts photos. */
async function collectMedia(ctx: QueueContext, config: Config, logger: Logger): Promise<void> {
  if (config.media.store === undefined) return;
  const store = openConfiguredStore(config, config.media.store);
  try {
    const { removed, waiting, referenced } = await mediaGc({ store, photos: ctx.store.photos });
    logger.debug({ removed: removed.length, waiting, referenced }, 'media gc applied');
  } catch (thrown) {
    logger.warn({ err: thrown, store: config.media.store }, 'media gc failed; the next upkeep tries again');
  } finally {
    await store.close();
  }
}

/**
 * Starts the reconciler of a worker process. Why in every worker process: runs end when their
 * last job records its outcome, and nothing else ends a run whose jobs left the queue another way.
 */
export function startWorkerUpkeep(ctx: QueueContext, config: Config, logger: Logger): RunningReconciler {
  return startReconciler({
    store: ctx.store,
    writes: ctx.queues.writes,
    logger,
    intervalMs: config.worker.reconcileMs,
    // A run idle for one interval has its jobs inspected (a lost job is found within two intervals).
    reconcile: { ...DEFAULT_RECONCILE, inspectAfterMs: config.worker.reconcileMs, stuckAfterMs: config.worker.stuckAfterMs },
    upkeep: () => applyRetentionHourly(ctx, config, logger),
  });
}
