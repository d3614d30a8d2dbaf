/**
 * Opens what `listing-sync dashboard` serves from: Redis, the store and the queues, with the
 * dashboard's read model (src/dashboard/read-model.ts) over them. It holds no service credential:
 * the dashboard process needs Redis only.
 */
import type { Config } from '../../config/config.js';
import type { BoardQueue } from '../../dashboard/bull-board.js';
import { createStoreDashboardData } from '../../dashboard/read-model.js';
import type { DashboardData } from '../../dashboard/types.js';
import type { Logger } from '../../runtime/logger.js';
import { createDashboardConnection, readyWithin } from '../../queue/connection.js';
import { createProcessWatch, queueContextOn } from './queue-wiring.js';

export interface DashboardWiring {
  data: DashboardData;
  /** Every queue, for bull-board. */
  queues: BoardQueue[];
  /** Whether Redis answers now (pages answer 503 while it does not). */
  redisAvailable: () => boolean;
  /** Closes the queues and the Redis connection. */
  close(): Promise<void>;
}

/** How long the dashboard waits for Redis at start before it serves anyway. */
const DASHBOARD_CONNECT_WAIT_MS = 3000;

/**
 * Opens Redis, the store and the queues for `listing-sync dashboard`. It starts whether Redis
 * answers or not, and lives through outages: the connection reconnects by itself, pages answer
 * 503 meanwhile (`redisAvailable`), and the outage is logged once per interval, not per request.
 */
export async function createDashboardWiring(config: Config, logger: Logger): Promise<DashboardWiring> {
  const watch = createProcessWatch(config, logger);
  const redis = createDashboardConnection(config.redis, watch);
  // Why wait a little: the first requests should find Redis connected when it answers; why not
  // more: a dashboard started while Redis is down serves the outage page instead of not starting.
  await readyWithin(redis, DASHBOARD_CONNECT_WAIT_MS);
  const ctx = queueContextOn(redis, config, watch);
  return {
    data: createStoreDashboardData(ctx.store, ctx.queues, config.redis.prefix),
    queues: [ctx.queues.writes, ctx.queues.syncRuns, ctx.queues.alerts],
    redisAvailable: () => watch.isUp(),
    close: () => ctx.close(),
  };
}
