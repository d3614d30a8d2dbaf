/**
 * Prometheus metrics (prom-client), served at /metrics behind the dashboard's auth. A scrape
 * sends credentials from prometheus.yml, e.g.
 *
 *   scrape_configs:
 *     - job_name: listing-sync
 *       basic_auth: { username: ops, password_file: /run/secrets/dashboard_password }
 *       # or: authorization: { type: Bearer, credentials_file: /run/secrets/dashboard_token }
 *       static_configs: [{ targets: ['dashboard:8080'] }]
 *
 * Job counts are read from Redis on each scrape (they are shared by every worker process);
 * call and run metrics are counted in the process that feeds them (observeCall/observeRun).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One settled call to the service: the API client's `onCall` event. */
export interface ServiceCallEvent {
  endpoint: string;
  ms: number;
  outcome: string;
  envelopeCode?: number;
}

export interface MetricsRegistry {
  readonly registry: Registry;
  /** Feed with the API client's `onCall` hook. */
  observeCall(event: ServiceCallEvent): void;
  /** Feed once per finished run. */
  observeRun(run: { status: string; seconds: number }): void;
  /** Where `listing_sync_jobs` reads queue → state → count on each scrape. */
  setJobCountsSource(source: () => Promise<Record<string, Record<string, number>>>): void;
  /** The exposition text and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** The API client reports 'ok' or the error's code; anything else is a failure. */
const SUCCESS_OUTCOMES = new Set(['ok']);

export function createMetrics(options: { defaultMetrics?: boolean } = {}): MetricsRegistry {
  const registry = new Registry();
  let jobCountsSource: (() => Promise<Record<string, Record<string, number>>>) | undefined;

  // Registered for its collect callback; nothing else sets it.
  new Gauge({
    name: 'listing_sync_jobs',
    help: 'Jobs by queue and state, read from Redis at scrape time',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      // Why reset first: a queue or state that vanished (or Redis being down) must not keep its
      // last value forever; absent series are what an alert on Redis health should look for.
      this.reset();
      if (!jobCountsSource) return;
      let counts: Record<string, Record<string, number>>;
      try {
        counts = await jobCountsSource();
      } catch {
        return; // the rest of the scrape (calls, runs, process) stays available; /healthz says why
      }
      for (const [queue, states] of Object.entries(counts)) {
        for (const [state, count] of Object.entries(states)) this.set({ queue, state }, count);
      }
    },
  });
  const calls = new Counter({
    name: 'listing_sync_service_calls_total',
    help: 'Calls to the service by endpoint and outcome',
    labelNames: ['endpoint', 'outcome'] as const,
    registers: [registry],
  });
  const callSeconds = new Histogram({
    name: 'listing_sync_service_call_seconds',
    help: 'Latency of calls to the service by endpoint',
    labelNames: ['endpoint'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const failures = new Counter({
    name: 'listing_sync_service_failures_total',
    help: 'Failed service calls by envelope Code (or the transport failure outcome when there was no envelope)',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const runSeconds = new Histogram({
    name: 'listing_sync_run_seconds',
    help: 'Duration of sync runs',
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [registry],
  });
  const runs = new Counter({
    name: 'listing_sync_runs_total',
    help: 'Sync runs by final status',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'listing_sync_' });

  return {
    registry,
    observeCall(event) {
      calls.inc({ endpoint: event.endpoint, outcome: event.outcome });
      callSeconds.observe({ endpoint: event.endpoint }, event.ms / 1000);
      if (!SUCCESS_OUTCOMES.has(event.outcome)) failures.inc({ code: event.envelopeCode === undefined ? event.outcome : String(event.envelopeCode) });
    },
    observeRun(run) {
      runs.inc({ status: run.status });
      runSeconds.observe(run.seconds);
    },
    setJobCountsSource(source) {
      jobCountsSource = source;
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
