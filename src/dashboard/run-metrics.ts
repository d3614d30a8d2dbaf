/**
 * Run metrics computed from the run records on each scrape: `listing_sync_runs{status}`,
 * `listing_sync_run_duration_seconds{status}` and `listing_sync_last_run_timestamp_seconds{chatbot,status}`.
 */
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { RunSampleView } from './types.js';

const RUN_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400];

/**
 * Registers the run families; `samples` returns the runs loaded for the scrape in progress.
 * Why recomputed from the records on each scrape (reset, then set/observe): runs are finished by
 * whichever worker process ran their last job, so no one process could count them; the store's
 * records are exact and the same whichever dashboard process is scraped.
 */
export function registerRunMetrics(registry: Registry, samples: () => readonly RunSampleView[]): void {
  new Gauge({
    name: 'listing_sync_runs',
    help: 'Runs by status among the newest runs the store keeps (read at scrape time)',
    labelNames: ['status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const byStatus = new Map<string, number>();
      for (const run of samples()) byStatus.set(run.status, (byStatus.get(run.status) ?? 0) + 1);
      for (const [status, count] of byStatus) this.set({ status }, count);
    },
  });
  new Histogram({
    name: 'listing_sync_run_duration_seconds',
    help: 'Durations of finished runs by final status, rebuilt from the run records at scrape time',
    labelNames: ['status'] as const,
    buckets: RUN_BUCKETS,
    registers: [registry],
    collect() {
      this.reset();
      for (const run of samples()) {
        if (run.finishedAt !== undefined && run.finishedAt >= run.startedAt)
          this.observe({ status: run.status }, (run.finishedAt - run.startedAt) / 1000);
      }
    },
  });
  new Gauge({
    name: 'listing_sync_last_run_timestamp_seconds',
    help: 'Start time (Unix seconds) of the newest run of each chatbot in each status',
    labelNames: ['chatbot', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const newest = new Map<string, { chatbot: string; status: string; at: number }>();
      for (const run of samples()) {
        const key = JSON.stringify([run.chatbot, run.status]);
        const seen = newest.get(key);
        if (!seen || run.startedAt > seen.at) newest.set(key, { chatbot: run.chatbot, status: run.status, at: run.startedAt });
      }
      for (const { chatbot, status, at } of newest.values()) this.set({ chatbot, status }, at / 1000);
    },
  });
}
