/**
 * The reconciler: every worker process, at an interval, ends the runs nothing else would end
 * (reconcile-run.ts) and applies retention (src/store/retention.ts). Several processes may run it
 * at once: every step is idempotent, and retention takes a lock of its own.
 */
import type { Queue } from 'bullmq';
import type { Logger } from '../logger.js';
import { startPeriodicPass } from '../periodic-pass.js';
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
  async function reconcileAll(stopped: () => boolean): Promise<void> {
    for (const runId of await store.runs.openRuns()) {
      if (stopped()) return;
      const result = await reconcileRun(store, writes, runId, Date.now(), options.reconcile ?? DEFAULT_RECONCILE);
      if (result.recorded > 0)
        logger.warn(
          { runId, jobs: result.recorded, status: result.status },
          `run ${runId}: ${result.recorded} job(s) left the queue without finishing; recorded as failed`,
        );
      if (result.status === 'stuck')
        logger.warn({ runId, remaining: result.remaining }, `run ${runId} is stuck: ${result.remaining} job(s) without progress`);
    }
    if (!stopped()) await options.upkeep?.();
  }

  return startPeriodicPass(reconcileAll, intervalMs, logger, 'reconciler pass failed; trying again at the next interval');
}
