/**
 * The reconciler: every worker process, at an interval, ends the runs nothing else would end
 * (reconcile-run.ts) and applies retention (src/store/retention.ts). Several processes may run it
 * at once: every step is idempotent, and retention takes a lock of its own.
 */
import type { Queue } from 'bullmq';
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';
import { DEFAULT_RECONCILE, reconcileRun, type ReconcileOptions } from './reconcile-run.js';

export interface ReconcilerOptions {
  store: Store;
  writes: Queue;
  logger: Logger;
  /** Default 30 s. */
  intervalMs?: number;
  reconcile?: ReconcileOptions;
  /** Extra periodic upkeep (retention), run after the runs are reconciled. */
  upkeep?: () => Promise<void>;
}

export interface RunningReconciler {
  /** One pass now (tests, and the first pass at start). */
  pass(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts reconciling every `intervalMs`; the first pass runs soon after start. */
export function startReconciler(options: ReconcilerOptions): RunningReconciler {
  const { store, writes, logger } = options;
  const intervalMs = options.intervalMs ?? 30_000;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function reconcileAll(): Promise<void> {
    for (const runId of await store.runs.openRuns()) {
      if (stopped) return;
      const result = await reconcileRun(store, writes, runId, Date.now(), options.reconcile ?? DEFAULT_RECONCILE);
      if (result.recorded > 0)
        logger.warn(
          { runId, jobs: result.recorded, status: result.status },
          `run ${runId}: ${result.recorded} job(s) left the queue without finishing; recorded as failed`,
        );
      if (result.status === 'stuck')
        logger.warn({ runId, remaining: result.remaining }, `run ${runId} is stuck: ${result.remaining} job(s) without progress`);
    }
    if (!stopped) await options.upkeep?.();
  }

  function pass(): Promise<void> {
    // Why one pass at a time: a slow pass (a big run inspected) must not overlap the next tick.
    running ??= reconcileAll()
      .catch((err: unknown) =>
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'reconciler pass failed; trying again at the next interval'),
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  const timer = setInterval(() => void pass(), intervalMs);
  timer.unref();
  const first = setTimeout(() => void pass(), Math.min(intervalMs, 1000));
  first.unref();
  return {
    pass,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
