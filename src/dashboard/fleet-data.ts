/**
 * The fleet page's read model: every chatbot of the applied fleet (src/sync/fleet-roster.ts) with
 * its health status and newest run, computed as the health page computes them.
 */
import type { Queues } from '../queue/queues.js';
import type { FleetRecordStore } from '../store/fleet-record-store.js';
import { readFleetRoster } from '../sync/fleet-view.js';
import type { FleetChatbotView } from './fleet-types.js';
import type { HealthData } from './types.js';

export interface FleetDataDeps {
  records: FleetRecordStore;
  syncRuns: Queues['syncRuns'];
  health: Pick<HealthData, 'healthOf'>;
}

/** Reads the fleet's chatbots, by source then chatbot (empty when no fleet was applied). */
export async function readFleetChatbots(deps: FleetDataDeps): Promise<FleetChatbotView[]> {
  const roster = await readFleetRoster(deps);
  const health = await deps.health.healthOf(roster.map((entry) => entry.chatbot));
  return roster.map((entry, i): FleetChatbotView => {
    const view = health[i];
    return {
      chatbot: entry.chatbot,
      source: entry.source,
      feed: entry.feed,
      ...(entry.filter === undefined ? {} : { filter: entry.filter }),
      ...(entry.schedule === undefined ? {} : { schedule: entry.schedule }),
      ...(entry.schedule === undefined && entry.declared !== undefined ? { declared: entry.declared } : {}),
      health: view?.status ?? 'unknown',
      ...(view?.lastRun === undefined ? {} : { lastRun: view.lastRun }),
    };
  });
}
