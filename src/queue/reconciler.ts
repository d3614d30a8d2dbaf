/**
 * The reconciler: every worker process, at an interval, ends the runs nothing else would end
 * (reconcile-run.ts) and applies retention (src/store/retention.ts). Several processes may run it
 * at once: every step is idempotent, and retention takes a lock of its own.
 */
import type { Queue } from 'bullmq';
import type { Logger } from '../runtime/logger.js';
import { plural } from '../shared/counts.js';
import { startPeriodicPass } from '../runtime/periodic-pass.js';
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
  /** How it hurries once told that jobs are gone (default DEFAULT_HURRY; tests shorten it). */
  hurry?: Partial<HurrySettings>;
}

export interface RunningReconciler {
  /** One pass now (tests, and the first pass at start). */
  pass(): Promise<void>;
  /**
   * Jobs were seen gone from the queue: for a while (HurrySettings), pass more often and inspect a
   * run after a few seconds without progress instead of one interval.
   */
  hurry(): void;
  stop(): Promise<void>;
}

/**
 * How the reconciler hurries once BullMQ reports jobs gone from the queue. Why: a run whose jobs
 * vanished (deleted by hand, or lost in a failover to a replica that had not received them) ends
 * only when the reconciler records them, which by the interval rule (inspect after one interval
 * without progress, passes one interval apart) takes ~2 × 30 s while `sync --work` sits waiting.
 * Why still wait for a few seconds without progress rather than inspect at once: a job whose
 * record is gone may still have its request in flight, and its outcome recorded when the answer
 * comes is the true one; inspected at once, it would be counted failed first.
 */
export interface HurrySettings {
  /** How long the reconciler hurries after the last report of jobs gone. */
  forMs: number;
  /** Time between two hurried passes. */
  passMs: number;
  /** A run is inspected after this long without progress, and at most once per this long. */
  inspectAfterMs: number;
}

export const DEFAULT_HURRY: Readonly<HurrySettings> = { forMs: 60_000, passMs: 1000, inspectAfterMs: 5000 };

/** Starts reconciling every `intervalMs`; the first pass runs soon after start. */
export function startReconciler(options: ReconcilerOptions): RunningReconciler {
  const { store, writes, logger } = options;
  const intervalMs = options.intervalMs ?? 30_000;
  const base = options.reconcile ?? DEFAULT_RECONCILE;
  const hurry = { ...DEFAULT_HURRY, ...options.hurry };
  const hurried: ReconcileOptions = { ...base, inspectAfterMs: Math.min(base.inspectAfterMs, hurry.inspectAfterMs) };
  let hurriedUntil = 0;
  let hurryTimer: NodeJS.Timeout | undefined;
  /**
   * When a hurried pass last read each run's jobs. Why: a pass every second must not read every
   * job of a big run every second (a 100k-job run stalled by something else, a paused queue say);
   * a run is read at most once per `hurry.inspectAfterMs` while hurrying.
   */
  const hurriedInspections = new Map<string, number>();
  function ruleFor(runId: string, now: number): ReconcileOptions {
    if (now >= hurriedUntil) {
      hurriedInspections.clear();
      return base;
    }
    return now - (hurriedInspections.get(runId) ?? Number.NEGATIVE_INFINITY) < hurry.inspectAfterMs ? base : hurried;
  }
  async function reconcileAll(stopped: () => boolean): Promise<void> {
    for (const runId of await store.runs.openRuns()) {
      if (stopped()) return;
      const now = Date.now();
      const rule = ruleFor(runId, now);
      const result = await reconcileRun(store, writes, runId, now, rule);
      if (rule === hurried && result.inspected) hurriedInspections.set(runId, now);
      if (result.recorded > 0)
        logger.warn(
          { runId, jobs: result.recorded, status: result.status },
          `run ${runId}: ${plural(result.recorded, 'job')} left the queue without finishing; recorded as failed`,
        );
      if (result.status === 'stuck')
        logger.warn({ runId, remaining: result.remaining }, `run ${runId} is stuck: ${plural(result.remaining, 'job')} without progress`);
    }
    if (!stopped()) await options.upkeep?.();
  }

  const periodic = startPeriodicPass(reconcileAll, intervalMs, logger, 'reconciler pass failed; trying again at the next interval');
  function calmDown(): void {
    clearInterval(hurryTimer);
    hurryTimer = undefined;
  }
  return {
    pass: () => periodic.pass(),
    hurry() {
      hurriedUntil = Date.now() + hurry.forMs;
      if (hurryTimer !== undefined) return;
      hurryTimer = setInterval(() => {
        if (Date.now() >= hurriedUntil) calmDown();
        else void periodic.pass();
      }, hurry.passMs);
      hurryTimer.unref();
    },
    async stop() {
      calmDown();
      await periodic.stop();
    },
  };
}
