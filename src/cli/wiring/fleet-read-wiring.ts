/** The applied fleet as `runs list` and `schedule list` read it: the fleet record in this process's Redis, for display only. */
import type { Config } from '../../config/config.js';
import type { Fleet } from '../../fleet/fleet-model.js';
import { FleetRecordStore } from '../../store/fleet-record-store.js';
import { fleetForDisplay } from '../../sync/fleet-view.js';
import type { QueueContext } from './queue-context.js';

/** The applied fleet (an empty one when none was applied). */
export async function displayedFleet(ctx: Pick<QueueContext, 'redis'>, config: Config): Promise<Fleet> {
  return await fleetForDisplay(new FleetRecordStore(ctx.redis, config.redis.prefix));
}
