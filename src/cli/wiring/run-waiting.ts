/**
 * Waiting for a run in the CLI (`sync --wait|--work`, `runs resume`): the jobs progress bar, one
 * line when nothing works on the run, a timeout, and on Ctrl-C a line that says how to finish
 * the run later. The lease is marked idle on Ctrl-C so the next sync names `runs resume` at once.
 */
import type { RunCounts, RunStatus } from '../../store/run-types.js';
import type { Store } from '../../store/store.js';
import type { Logger } from '../../runtime/logger.js';
import type { RunningWorkers } from '../../queue/worker.js';
import { waitForRun } from '../../sync/wait-for-run.js';
import type { QueueActivity } from '../../queue/queue-activity.js';
import { idleMessage } from '../output/idle-message.js';
import { settledWithin, untilAborted } from '../../net/bounded-wait.js';
import type { ProgressBars } from '../output/progress.js';

export interface RunWait {
  counts: RunCounts;
  status: RunStatus | undefined;
}

export interface RunWaitOptions {
  store: Store;
  runId: string;
  chatbot: string;
  bars: ProgressBars;
  logger: Logger;
  signal: AbortSignal;
  /**
   * This process's workers, when it runs some: then "no worker" means the queue is stuck, not
   * unattended, and the wait ends as soon as they finish the run's last job.
   */
  workers?: Pick<RunningWorkers, 'close' | 'finished'>;
  timeoutMs?: number;
  /** When `timeoutMs` started to count (epoch ms; default: when the wait starts). */
  timeoutFrom?: number;
  /** The writes queue now, to say why the run shows no progress (idle-message.ts). */
  queueActivity?: () => Promise<QueueActivity>;
  /** How long a stopped process's jobs may wait for their key claims (the send window). */
  heldForMs?: number;
}

/**
 * How long the idle line waits for the queue's state: Redis being away is one of the causes it
 * names. Why seconds: the line comes after 10 s without progress, and a loaded Redis or machine
 * can take more than a second to answer; read late, the specific cause is still the better line.
 */
const ACTIVITY_READ_MS = 5000;

/** What `read` gives, or undefined when it fails or takes longer than ACTIVITY_READ_MS. */
async function readIfQuick<T>(read: (() => Promise<T>) | undefined): Promise<T | undefined> {
  if (read === undefined) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ACTIVITY_READ_MS)));
  try {
    return await Promise.race([read().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Logs why the run shows no progress; the queue is read for that only, and a failed or slow read gives the general line. */
async function explainIdle(options: RunWaitOptions, idleMs: number): Promise<void> {
  // Why silent while the service is down: the breaker said so in one line, and says when it is back.
  if ((await readIfQuick(() => options.store.breaker.outage())) !== undefined) return;
  const [queue, state] = await Promise.all([
    readIfQuick(options.queueActivity),
    readIfQuick(() => options.store.runs.runState(options.runId)),
  ]);
  const message = idleMessage({
    runId: options.runId,
    idleMs,
    workersHere: options.workers !== undefined,
    enqueuing: state?.status === 'enqueuing',
    ...(queue === undefined ? {} : { queue }),
    ...(options.heldForMs === undefined ? {} : { heldForMs: options.heldForMs }),
  });
  options.logger.warn({ runId: options.runId, idleSeconds: Math.round(idleMs / 1000) }, message);
}

/**
 * How long a stop waits to mark the lease idle. Why a bound: during a Redis Cluster failover the
 * chatbot's slot answers only once its replica took over (up to the connection's minute of
 * retries), and a stop must end within the forced-exit timer; the lease then goes stale by itself.
 */
const MARK_IDLE_MS = 3000;

/** Waits for the run, reporting on stderr what a person needs to know; returns counts and status. */
export async function waitForRunInCli(options: RunWaitOptions): Promise<RunWait> {
  const { store, runId, chatbot, logger } = options;
  try {
    const waited = waitForRun(store, runId, {
      signal: options.signal,
      ...(options.workers === undefined ? {} : { finishedHere: options.workers.finished }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.timeoutFrom === undefined ? {} : { timeoutFrom: options.timeoutFrom }),
      onProgress: (c) => options.bars.update('jobs', c.finishedJobs, c.totalJobs),
      onIdle: (idleMs) => void explainIdle(options, idleMs),
    });
    const counts = await untilAborted(waited, options.signal);
    return { counts, status: (await store.runs.runState(runId)).status };
  } catch (thrown) {
    if (options.signal.aborted) {
      // Workers first: the jobs they finish while closing beat the lease again.
      await options.workers?.close();
      await settledWithin(store.leases.markIdle(chatbot, runId), MARK_IDLE_MS);
      logger.warn(
        { runId },
        `interrupted: run ${runId} goes on in the queue; finish it with \`listing-sync runs resume ${runId} ` +
          `--work\` or stop it with \`listing-sync runs cancel ${runId}\``,
      );
    }
    throw thrown;
  }
}
