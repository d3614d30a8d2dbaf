/**
 * The applied fleet on /metrics: `listing_sync_fleet_chatbots{source}` (how many chatbots each
 * source serves) and `listing_sync_fleet_last_run_timestamp_seconds{chatbot,source,status}` (the
 * start of each fleet chatbot's newest run, labelled with that run's status).
 *
 * Why bounded: one series per source and one per fleet chatbot (only the newest run's status, not
 * one series per status seen), so the series count follows fleet.yaml, not the history of runs.
 * Why from the health views: the scrape reads them already (health-metrics.ts); the fleet adds
 * one read of its record, not one more read of every chatbot's runs.
 */
import { Gauge, type Registry } from 'prom-client';
import type { FleetMemberView } from './fleet-types.js';
import type { ChatbotHealthView } from './types.js';

export function registerFleetMetrics(
  registry: Registry,
  members: () => readonly FleetMemberView[],
  health: () => readonly ChatbotHealthView[],
): void {
  new Gauge({
    name: 'listing_sync_fleet_chatbots',
    help: 'Chatbots of the applied fleet on each source (fleet apply)',
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const bySource = new Map<string, number>();
      for (const { source } of members()) bySource.set(source, (bySource.get(source) ?? 0) + 1);
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
      const lastRuns = new Map(health().map((view) => [view.chatbot, view.lastRun]));
      for (const { chatbot, source } of members()) {
        const last = lastRuns.get(chatbot);
        if (last !== undefined) this.set({ chatbot, source, status: last.status }, last.startedAt / 1000);
      }
    },
  });
}
