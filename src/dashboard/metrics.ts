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
 * Everything about the work is read from Redis on each scrape, because the work is done by
 * other processes (`worker`, `sync --work`): job counts from the queues, service calls from the
 * totals every calling process flushes (src/store/call-metrics.ts), photo downloads from the totals
 * every hosting process flushes (src/store/media-metrics.ts), runs from the run records.
 */
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { renderCallMetrics } from './call-exposition.js';
import { renderMediaMetrics } from './media-exposition.js';
import { registerRunMetrics } from './run-metrics.js';
import { registerHealthMetrics, registerServiceMetric } from './health-metrics.js';
import { registerFleetMetrics } from './fleet-metrics.js';
import type { ChatbotHealthView, FleetMemberView, MetricsRegistry, MetricsSources, RunSampleView } from './types.js';

export type { MetricsRegistry, MetricsSources };

/** Runs a source, or undefined when there is none or it failed (Redis down: /healthz says why). */
async function attempt<T>(source: (() => Promise<T>) | undefined): Promise<T | undefined> {
  try {
    return await source?.();
  } catch {
    return undefined;
  }
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): MetricsRegistry {
  const registry = new Registry();
  let sources: MetricsSources | undefined;
  /** The runs read by the scrape in progress (render loads them once for three families). */
  let runSamples: readonly RunSampleView[] = [];
  /** The chatbots' health read by the scrape in progress. */
  let health: readonly ChatbotHealthView[] = [];
  /** The applied fleet's chatbots and sources read by the scrape in progress. */
  let fleet: readonly FleetMemberView[] = [];
  /** Whether the service is up (the breaker closed), as the scrape in progress read it; undefined: unknown. */
  let serviceUp: number | undefined;

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
      const from = sources;
      const counts = await attempt(from?.jobCounts.bind(from));
      for (const [queue, states] of Object.entries(counts ?? {})) {
        for (const [state, count] of Object.entries(states)) this.set({ queue, state }, count);
      }
    },
  });
  registerRunMetrics(registry, () => runSamples);
  registerHealthMetrics(registry, () => health);
  registerServiceMetric(registry, () => serviceUp);
  registerFleetMetrics(
    registry,
    () => fleet,
    () => health,
  );
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'listing_sync_' });

  return {
    registry,
    setSources(next) {
      sources = next;
    },
    async render() {
      const from = sources;
      const [calls, media, samples, healthViews, up, fleetViews] = await Promise.all([
        attempt(from?.callMetrics?.bind(from)),
        attempt(from?.mediaMetrics?.bind(from)),
        attempt(from?.runMetrics?.bind(from)),
        attempt(from?.chatbotHealth?.bind(from)),
        attempt(from?.serviceOutage && (async () => ((await from.serviceOutage?.()) === undefined ? 1 : 0))),
        attempt(from?.fleetMembers?.bind(from)),
      ]);
      fleet = fleetViews ?? [];
      serviceUp = up;
      runSamples = samples ?? [];
      health = healthViews ?? [];
      return {
        contentType: registry.contentType,
        body: `${await registry.metrics()}\n${renderCallMetrics(calls)}${renderMediaMetrics(media)}`,
      };
    },
  };
}
