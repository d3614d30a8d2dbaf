/**
 * Chatbot health on /metrics, from the same computation as the health page (health-model.ts):
 * `listing_sync_chatbot_status{chatbot,status}` (1 for the chatbot's current status) and
 * `listing_sync_last_success_timestamp_seconds{chatbot}`. The Prometheus rules in
 * deploy/prometheus/alerts.yml alert on these, so a setup without webhooks alerts the same way.
 */
import { Gauge, type Registry } from 'prom-client';
import type { ChatbotHealthView } from './types.js';

/**
 * `listing_sync_service_up`: 1 while the service answers, 0 while it is down for everyone (the
 * service breaker is open: work is paused); absent when Redis cannot be read.
 */
export function registerServiceMetric(registry: Registry, up: () => number | undefined): void {
  new Gauge({
    name: 'listing_sync_service_up',
    help: 'Whether the service answers (1) or is down for everyone and the work paused (0), as the service breaker says',
    registers: [registry],
    collect() {
      const value = up();
      // Why remove when unknown: an unlabelled gauge reads 0 by default, which would say "down".
      if (value === undefined) this.remove();
      else this.set(value);
    },
  });
}

export function registerHealthMetrics(registry: Registry, views: () => readonly ChatbotHealthView[]): void {
  new Gauge({
    name: 'listing_sync_chatbot_status',
    help: "1 for each chatbot's current health status (healthy, refused, failed, skipped, stale, budget, unknown)",
    labelNames: ['chatbot', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const view of views()) this.set({ chatbot: view.chatbot, status: view.status }, 1);
    },
  });
  new Gauge({
    name: 'listing_sync_last_success_timestamp_seconds',
    help: 'End time (Unix seconds) of the newest successful run of each chatbot',
    labelNames: ['chatbot'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const view of views())
        if (view.lastSuccess !== undefined) this.set({ chatbot: view.chatbot }, view.lastSuccess.finishedAt / 1000);
    },
  });
}
