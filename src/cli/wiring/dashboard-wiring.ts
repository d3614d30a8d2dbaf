/**
 * Opens what `listing-sync dashboard` serves from (Redis, the store and the queues, with the
 * dashboard's read model, src/dashboard/read-model.ts, over them) and starts the server on it. It
 * holds no service credential: the dashboard needs Redis only (`dashboard --work` runs a worker
 * beside it, on a connection of its own). The command loads this file lazily: express, bull-board
 * and prom-client come with it.
 */
import type { Config } from '../../config/config.js';
import type { BoardQueue } from '../../dashboard/bull-board.js';
import { createMetrics } from '../../dashboard/metrics.js';
import { createStoreDashboardData } from '../../dashboard/read-model.js';
import { startDashboard, type RunningDashboard } from '../../dashboard/server.js';
import type { DashboardAuth, DashboardData } from '../../dashboard/types.js';
import type { JobTarget } from '../../queue/job-seal.js';
import type { Logger } from '../../runtime/logger.js';
import { createDashboardConnection, readyWithin } from '../../queue/connection.js';
import type { CliIo } from '../io.js';
import { createProcessWatch, queueContextOn } from './queue-wiring.js';
import { learnWebhookSecrets } from './alert-wiring.js';

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
export async function createDashboardWiring(config: Config, logger: Logger, ownTarget?: JobTarget): Promise<DashboardWiring> {
  const watch = createProcessWatch(config, logger);
  const redis = createDashboardConnection(config.redis, watch);
  // Why wait a little: the first requests should find Redis connected when it answers; why not
  // more: a dashboard started while Redis is down serves the outage page instead of not starting.
  await readyWithin(redis, DASHBOARD_CONNECT_WAIT_MS);
  // Why read-only: bull-board adds jobs through these queues; what they add must never pass a worker's gate.
  const ctx = queueContextOn(redis, config, watch, 'read-only');
  if (watch.isUp()) await learnWebhookSecrets(ctx, config);
  return {
    data: createStoreDashboardData(ctx.store, ctx.queues, config.redis.prefix, ownTarget),
    queues: [ctx.queues.writes, ctx.queues.syncRuns, ctx.queues.alerts],
    redisAvailable: () => watch.isUp(),
    close: () => ctx.close(),
  };
}

/** Where the dashboard listens, who may see it, and whether it acts (from the command's flags and env). */
export interface DashboardServing {
  port: number;
  host: string;
  auth: DashboardAuth;
  readOnly: boolean;
  /** The service the worker of `dashboard --work` is for (absent: no worker in this process). */
  ownTarget?: JobTarget;
}

/** Opens Redis for the dashboard and starts its server on it; both are released with the command. */
export async function serveDashboard(io: CliIo, config: Config, logger: Logger, serving: DashboardServing): Promise<RunningDashboard> {
  const { ownTarget, ...listening } = serving;
  const wiring = await createDashboardWiring(config, logger, ownTarget);
  io.releases.push('Redis connection', () => wiring.close());
  const dashboard = await startDashboard({
    ...listening,
    data: wiring.data,
    queues: wiring.queues,
    redisAvailable: wiring.redisAvailable,
    metrics: createMetrics(),
    logger,
    ...(config.media.baseUrl === undefined ? {} : { mediaBaseUrl: config.media.baseUrl }),
  });
  io.releases.push('dashboard server', () => dashboard.close());
  return dashboard;
}
