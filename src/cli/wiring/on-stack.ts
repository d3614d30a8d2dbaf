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
import { enqueueThreadPays, startEnqueueThread } from '../../queue/threaded-enqueue.js';
import { largeRunThread, type LargeRunThread } from '../../queue/large-run-thread.js';
import { keepThisRunsCodeCache } from '../bundle-loader.js';
import type { CliIo } from '../io.js';
import type { QueueContext } from './queue-context.js';
import { requireSeal } from './job-seal-wiring.js';
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
 * signal) is safe. `announce` false: a command's own workers, "workers started" at debug. Once
 * they complete a job, the per-listing paths are compiled: the CLI keeps them in its code cache
 * (bundle-loader.ts).
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
  workers.writes.once('completed', keepThisRunsCodeCache);
  return { ...workers, close: io.releases.push('workers', () => workers.close()) };
}

/**
 * A worker process's parts in one step (`dashboard --work`): its own Redis connection held as a
 * daemon's (it waits for Redis, also at start), the recorded API client and the workers, all on
 * the release stack. Undefined when `signal` stopped it while Redis was not answering yet.
 */
export async function workerPartsOnStack(
  io: CliIo,
  config: Config,
  logger: Logger,
  signal: AbortSignal,
): Promise<RunningWorkers | undefined> {
  const ctx = await queueContextOnStack(io, config, 'worker', logger);
  const api = recordedClientOnStack(io, config, logger, ctx);
  return await workersOnStack(io, config, api, ctx, logger, {}, signal).catch((thrown: unknown) => {
    if (signal.aborted) return undefined;
    throw thrown;
  });
}

/**
 * A thread that adds the jobs of this process's large syncs to the queue (threaded-enqueue.ts,
 * large-run-thread.ts), so the workers of this process keep the event loop; undefined on a
 * one-core machine. Why it starts when the first chunk of a large run is added, not here: the
 * run's size is known only then, and a small run is cheaper without it.
 */
export function enqueueThreadOnStack(io: CliIo, config: Config, ctx: QueueContext): LargeRunThread | undefined {
  if (!enqueueThreadPays()) return undefined;
  const jobs = jobSettings(config);
  const here = { store: ctx.store, writes: ctx.queues.writes, jobs };
  // Why readyWaitMs 0: started late, the thread is not ready for a few tenths of a second, and the
  // workers are already waiting for jobs; the chunks go in here meanwhile.
  const thread = largeRunThread(
    () => startEnqueueThread({ redis: config.redis, jobs, seal: requireSeal(config) }, here, { readyWaitMs: 0 }),
    here,
  );
  io.releases.push('enqueue thread', () => thread.close());
  return thread;
}
