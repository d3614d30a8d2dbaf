/** What `fleet diff|apply|show` works on: the schedules queue, the alert store and the fleet's own records, in this process's Redis. */
import { FleetRecordStore } from '../../store/fleet-record-store.js';
import type { FleetDeps } from '../../sync/fleet-apply.js';
import type { FeedSourceStore } from '../../store/feed-sources.js';
import type { CommandHost } from '../host.js';
import { configFromCli } from '../input/config-from-cli.js';
import { alertStoreOf } from './alert-wiring.js';
import { queueContextOnStack } from './on-stack.js';
import type { RedisFlags } from './with-queue.js';
import type { Config } from '../../config/config.js';
import type { QueueContext } from './queue-context.js';

export async function fleetDeps(host: CommandHost, flags: RedisFlags): Promise<FleetDeps & { feedSources: FeedSourceStore }> {
  const config = configFromCli(flags, host.io);
  const ctx = await queueContextOnStack(host.io, config, 'producer');
  return {
    syncRuns: ctx.queues.syncRuns,
    alerts: alertStoreOf(ctx, config),
    records: new FleetRecordStore(ctx.redis, config.redis.prefix),
    // For `fleet show`: where each `events: true` source stands in its EntityEvent log.
    feedSources: ctx.store.feedSources,
    now: () => Date.now(),
  };
}

/** The applied fleet's records in an open session's Redis (`fleet run` reads its source and chatbots there). */
export function fleetRecordsOf(ctx: QueueContext, config: Config): Pick<FleetDeps, 'records'> {
  return { records: new FleetRecordStore(ctx.redis, config.redis.prefix) };
}
