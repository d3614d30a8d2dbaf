/**
 * The applied fleet on /metrics: `listing_sync_fleet_chatbots{source}` (how many chatbots each
 * source serves) and `listing_sync_fleet_last_run_timestamp_seconds{chatbot,source,status}` (the
 * start of each fleet chatbot's newest run, labelled with that run's status).
 *
 * Why bounded: one series per source and one per fleet chatbot (only the newest run's status, not
 * one series per status seen), so the series count follows fleet.yaml, not the history of runs.
 */
import { Gauge, type Registry } from 'prom-client';
import type { FleetChatbotView } from './fleet-types.js';

export function registerFleetMetrics(registry: Registry, views: () => readonly FleetChatbotView[]): void {
  new Gauge({
    name: 'listing_sync_fleet_chatbots',
    help: 'Chatbots of the applied fleet on each source (fleet apply)',
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const bySource = new Map<string, number>();
      for (const view of views()) bySource.set(view.source, (bySource.get(view.source) ?? 0) + 1);
      for (const [source, count] of bySource) this.set({ source }, count);
    },
  });
  new Gauge({
    name: 'listing_sync_fleet_last_run_timestamp_seconds',
    help: "Start time (Unix seconds) of each fleet chatbot's newest run, labelled with its source and that run's status",
    labelNames: ['chatbot', 'source', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const view of views())
        if (view.lastRun !== undefined)
          this.set({ chatbot: view.chatbot, source: view.source, status: view.lastRun.status }, view.lastRun.startedAt / 1000);
    },
  });
}
