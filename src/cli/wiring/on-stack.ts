/**
 * The queue side of a command, opened and pushed onto the release stack in one step, so every
 * command that holds Redis, records service calls or runs workers releases them the same way:
 * workers first, then the client (closing it flushes the last call metrics into Redis), then the
 * Redis connection.
 */
import type { ApiClient } from '../../api/client-contract.js';
import type { Config } from '../../config/config.js';
import type { Logger } from '../../runtime/logger.js';
import type { RunningWorkers, StallSettings } from '../../queue/worker.js';
import { enqueueThreadPays, startEnqueueThread, type EnqueueThread } from '../../queue/threaded-enqueue.js';
import type { CliIo } from '../io.js';
import type { QueueContext } from './queue-context.js';
import { createRecordedClient, jobSettings, openQueueContext, startConfiguredWorkers, type QueueRole } from './queue-wiring.js';

/** Store and queues over one connection held as `role` says (queue-wiring.ts `QueueRole`). */
export async function queueContextOnStack(io: CliIo, config: Config, role: QueueRole, logger?: Logger): Promise<QueueContext> {
  const ctx = await openQueueContext(config, role, logger);
  io.releases.push('Redis connection', () => ctx.close());
  return ctx;
}

/** The API client whose calls are recorded into `ctx`'s Redis for the dashboard's /metrics. */
export function recordedClientOnStack(io: CliIo, config: Config, logger: Logger, ctx: QueueContext): ApiClient {
  const client = createRecordedClient(config, logger, ctx.redis, { watch: ctx.watch });
  io.releases.push('API client and call metrics', () => client.close());
  return client.api;
}

/**
 * This process's workers; their `close` is the release stack's, so closing them early (on a
 * signal) is safe. `announce` false: a command's own workers, "workers started" at debug.
 */
export async function workersOnStack(
  io: CliIo,
  config: Config,
  api: ApiClient,
  ctx: QueueContext,
  logger: Logger,
  stall: Partial<StallSettings> = {},
  signal?: AbortSignal,
  announce = true,
): Promise<RunningWorkers> {
  const workers = await startConfiguredWorkers(config, api, ctx, logger, stall, signal, announce);
  return { ...workers, close: io.releases.push('workers', () => workers.close()) };
}

/**
 * A thread that adds the jobs of this process's syncs to the queue (threaded-enqueue.ts), so the
 * workers of this process keep the event loop; undefined on a one-core machine.
 */
export function enqueueThreadOnStack(io: CliIo, config: Config, ctx: QueueContext): EnqueueThread | undefined {
  if (!enqueueThreadPays()) return undefined;
  const jobs = jobSettings(config);
  const thread = startEnqueueThread({ redis: config.redis, jobs }, { store: ctx.store, writes: ctx.queues.writes, jobs });
  io.releases.push('enqueue thread', () => thread.close());
  return thread;
}
