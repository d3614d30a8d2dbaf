/**
 * What a sync (`sync`, `runs resume`, the demo) needs open while it runs: config, logger, the
 * Redis store and queues, the recorded API client and maybe this process's workers, each pushed
 * onto the release stack as it is opened (on-stack.ts).
 */
import type { ApiClient } from '../../api/client-contract.js';
import { requireApiBase, type Config, type ConfigFlags } from '../../config/config.js';
import { ListingSyncError } from '../../shared/errors.js';
import type { Logger } from '../../runtime/logger.js';
import type { RunningWorkers } from '../../queue/worker.js';
import { createCliLogger } from './api-wiring.js';
import { configFromCli } from '../input/config-from-cli.js';
import type { CliIo } from '../io.js';
import { enqueueThreadOnStack, queueContextOnStack, recordedClientOnStack, workersOnStack } from './on-stack.js';
import type { LargeRunThread } from '../../queue/large-run-thread.js';
import type { QueueContext } from './queue-context.js';
import { queueActivity } from '../../queue/queue-activity.js';
import { sendWindowMs } from '../../../jobs/support/send-window.js';
import type { RunWaitOptions } from './run-waiting.js';

export interface SyncSession {
  config: Config;
  logger: Logger;
  api: ApiClient;
  ctx: QueueContext;
  /** This process's workers (with `work`); their `close` is the release stack's, so closing them early is safe. */
  workers?: RunningWorkers;
  /** Aborted by the first SIGINT/SIGTERM. */
  signal: AbortSignal;
  /**
   * With `work` and `enqueues`: the sink of the thread the enqueue's chunks go to when the run is
   * large (on-stack.ts `enqueueThreadOnStack`); closed once the sync's jobs are in.
   */
  enqueueThread?: LargeRunThread;
}

/**
 * Opens what a sync needs; with `work` also starts this process's workers (after `beforeWork`), and with `enqueues`
 * too (a sync, not `runs resume`) the enqueue thread of a large run. A sync that works or waits (`--work`,
 * `--wait`) runs for long, so its Redis connection carries on through a Redis restart
 * ('session'); a plain enqueue fails fast. Either way Redis down at start is one line.
 */
export async function openSyncSession(
  io: CliIo,
  flags: ConfigFlags & { json?: boolean; wait?: boolean },
  work: boolean,
  enqueues = false,
  beforeWork?: (ctx: QueueContext) => Promise<void>,
): Promise<SyncSession> {
  const config = configFromCli(flags, io);
  requireApiBase(config);
  const logger = createCliLogger(config, io, flags.json === true);
  const abort = new AbortController();
  io.onShutdown(() => abort.abort(new ListingSyncError('INTERRUPTED', 'interrupted by a signal; nothing more is sent from this process')));
  const ctx = await queueContextOnStack(io, config, work || flags.wait === true ? 'session' : 'producer', logger);
  const api = recordedClientOnStack(io, config, logger, ctx);
  const session: SyncSession = { config, logger, api, ctx, signal: abort.signal };
  // Why before the workers: what it reads (a run's retried jobs) must not be worked on yet.
  await beforeWork?.(ctx);
  if (!work) return session;
  const thread = enqueues ? enqueueThreadOnStack(io, config, ctx) : undefined;
  if (thread) session.enqueueThread = thread;
  session.workers = await workersOnStack(io, config, api, ctx, logger, {}, abort.signal, false);
  // Why: the sync's own calls (reading the chatbot's listings) then count against the same limit
  // as its jobs' (under --global-concurrency, the permits every worker process shares).
  session.api = session.workers.api;
  return session;
}

/** What a wait for a run of this session needs to say why the run shows no progress (idle-message.ts). */
export function idleHints(session: SyncSession): Pick<RunWaitOptions, 'queueActivity' | 'heldForMs'> {
  return { queueActivity: () => queueActivity(session.ctx.queues.writes), heldForMs: sendWindowMs(session.config.api.timeouts) };
}
