/**
 * The applied fleet read for display (`runs list`, `schedule list`, the dashboard): never a reason
 * for a list to fail. A fleet record this version cannot read shows as no fleet here; `fleet show`
 * and `fleet apply` say what is wrong with it.
 */
import { emptyFleet, type Fleet } from '../fleet/fleet-model.js';
import type { Queues } from '../queue/queues.js';
import { listSchedules } from '../queue/schedules.js';
import { ListingSyncError } from '../shared/errors.js';
import type { FleetRecordStore } from '../store/fleet-record-store.js';
import { appliedFleet } from './fleet-apply.js';
import { fleetRoster, type RosterEntry } from './fleet-roster.js';

/** The applied fleet, or an empty one when none was applied or its record cannot be read by this version. */
export async function fleetForDisplay(records: FleetRecordStore): Promise<Fleet> {
  try {
    return (await appliedFleet({ records })).fleet;
  } catch (error) {
    if (error instanceof ListingSyncError) return emptyFleet();
    throw error;
  }
}

/** The fleet's chatbots, each with its source, filter and installed schedule (src/sync/fleet-roster.ts). */
export async function readFleetRoster(deps: { records: FleetRecordStore; syncRuns: Queues['syncRuns'] }): Promise<RosterEntry[]> {
  const fleet = await fleetForDisplay(deps.records);
  if (Object.keys(fleet.chatbots).length === 0) return [];
  return fleetRoster(fleet, await listSchedules(deps.syncRuns));
}
