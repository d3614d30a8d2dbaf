/**
 * The service breaker of one process (worker, `sync --work`): it tells an outage of the service
 * from a listing the service fails on alone, and pauses the work while the service is down for
 * everyone, instead of spending every job's attempts on it. The state is shared by every process
 * through Redis (src/store/service-breaker.ts); this file holds the policy:
 * - it opens after OPEN_AFTER failures in a row, across all processes, with no answer from the
 *   service in between (error-mapping.ts `serviceVerdict` says which failures count);
 * - while it is open, calls are refused here without being sent (SERVICE_DOWN), a failure the
 *   outage explains puts its job back without using an attempt (error-mapping.ts), and the writes
 *   queue is held (queue-hold.ts), renewed every tick: no worker of any process sends a request, and
 *   if every process dies the hold ends by itself;
 * - one process at a time probes the service with a cheap read (one list page of size 1 of the
 *   chatbot whose call failed last; never a write), 1 s after it opened, then at waits doubling up
 *   to 30 s; the first answer closes it and the work resumes by itself;
 * - each process logs one line per change it sees (open: why and since when; closed: after how
 *   long), never one per job.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Queue } from 'bullmq';
import type { RetryTable } from '../api/retry-policy.js';
import { ListingSyncError } from '../shared/errors.js';
import type { Logger } from '../runtime/logger.js';
import type { ServiceBreakerStore } from '../store/service-breaker.js';
import { failureLine, serviceVerdict } from './error-mapping.js';
import { ErrorCode } from '../shared/error-codes.js';

/**
 * Failures in a row (no answer in between, all processes together) that open the breaker. Why 20:
 * an outage fails every request in flight at once, so with the default 8 requests in flight per
 * process it opens within a few rounds of them, having cost the jobs of those rounds an attempt
 * each (out of 10 by default); a listing the service fails on alone fails once per attempt, and
 * other listings get answers in between. Twenty in a row stays out of reach of the faults a healthy
 * service shows: with a third of all requests failing at random, twenty in a row is about a
 * one-in-three-billion event.
 */
export const OPEN_AFTER = 20;
/** The first probe's wait after the breaker opened; each failed probe doubles it, up to PROBE_MAX_MS. */
export const PROBE_FIRST_MS = 1000;
/** Why 30 s at most: the work resumes within about half a minute of the service returning. */
export const PROBE_MAX_MS = 30_000;
/** How often a process looks at the shared state (and probes when it is due). */
export const TICK_MS = 500;
/** The queue's hold, renewed every tick while open; short, so that it lapses soon after the breaker closes or every process died. */
export const HOLD_MS = 2000;

export interface ServiceBreakerOptions {
  store: ServiceBreakerStore;
  /** How the writes queue is held while the breaker is open (queue-hold.ts; a Queue's own rateLimit works too). */
  queue: Pick<Queue, 'rateLimit'>;
  logger: Logger;
  /** The configured retry table: a failure it calls transient counts towards an outage. */
  retryTable: RetryTable;
  /** The cheap read that probes the service for `chatbot` (sent past the breaker, never a write). */
  probe(chatbot: string): Promise<unknown>;
  /** How long one probe can take (the client's timeouts): another process may probe after that. */
  probeLeaseMs: number;
  /** Told of every Redis failure (the process's Redis watch reports them once per interval). */
  onError(err: unknown): void;
  /** Tests shorten these. */
  tickMs?: number;
  openAfter?: number;
  probeFirstMs?: number;
  probeMaxMs?: number;
}

export interface ServiceBreaker {
  /** How long one hold of the queue lasts (error-mapping.ts renews it for a job put back). */
  readonly holdMs: number;
  /** Whether this process sees the breaker open now. */
  isOpen(): boolean;
  /** Runs a service call about `chatbot`: refused while open, its outcome counted. */
  run<T>(call: () => Promise<T>, chatbot?: string): Promise<T>;
  /** One look at the shared state now (tests; the timer does it every tick). */
  tick(): Promise<void>;
  /**
   * Stops the ticks. Why it does not wait for the one in flight: with Redis away (or a probe
   * waiting out its timeouts) that would hold a stopping process; what it still does is harmless.
   */
  close(): Promise<void>;
}

interface Outage {
  since: number;
  reason: string;
}

export function startServiceBreaker(options: ServiceBreakerOptions): ServiceBreaker {
  const { store, queue, logger, retryTable } = options;
  let closed = false;
  // After close a tick or probe still in flight may fail as its connection goes: nothing to report.
  const onError = (err: unknown): void => {
    if (!closed) options.onError(err);
  };
  const openAfter = options.openAfter ?? OPEN_AFTER;
  const probeFirstMs = options.probeFirstMs ?? PROBE_FIRST_MS;
  const probeMaxMs = options.probeMaxMs ?? PROBE_MAX_MS;
  const holder = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  let outage: Outage | undefined;
  // Whether the shared streak may be above 0: only then does an answer cost a Redis call to reset it.
  let streakMayRun = false;
  let ticking: Promise<void> | undefined;

  const opened = (seen: Outage): void => {
    if (outage !== undefined) return;
    outage = seen;
    logger.warn(
      { since: new Date(seen.since).toISOString(), reason: seen.reason },
      `the service is down since ${new Date(seen.since).toISOString()} (${seen.reason}): work is paused without ` +
        `using attempts; probing it at growing intervals`,
    );
  };
  const closedAfter = (downMs: number | undefined): void => {
    if (outage === undefined) return;
    const seconds = ((downMs ?? Date.now() - outage.since) / 1000).toFixed(1);
    outage = undefined;
    logger.info({ downMs }, `the service answers again after ${seconds} s: work resumes`);
  };

  // Why awaited: a failure counted after this answer must not reach Redis before the reset. It
  // costs a round trip only on the first answer after a failure was seen.
  const answered = async (): Promise<void> => {
    if (!streakMayRun) return;
    streakMayRun = false;
    await store.recordUp(false).catch(onError);
  };
  const failed = async (err: unknown, chatbot: string | undefined): Promise<void> => {
    // Why only calls about a chatbot: the probe reads that chatbot's list.
    if (chatbot === undefined || chatbot === '') return;
    try {
      const failure = { threshold: openAfter, reason: failureLine(err), chatbot, firstProbeMs: probeFirstMs };
      const record = await store.recordDown(failure);
      streakMayRun = true;
      if (record.open) opened(record);
    } catch (thrown) {
      onError(thrown);
    }
  };

  const probeOnce = async (chatbot: string): Promise<void> => {
    let up: boolean;
    try {
      await options.probe(chatbot);
      up = true;
    } catch (thrown) {
      up = serviceVerdict(thrown, retryTable) === 'up';
    }
    if (!up) {
      await store.probeFailed(holder, probeFirstMs, probeMaxMs);
      return;
    }
    const { closedNow, downMs } = await store.recordUp(true);
    closedAfter(closedNow ? downMs : undefined);
  };

  const look = async (): Promise<void> => {
    const state = await store.read();
    if (state.streak > 0) streakMayRun = true;
    if (!state.open) return closedAfter(state.lastDownMs);
    opened({ since: state.since ?? Date.now(), reason: state.reason ?? '' });
    await queue.rateLimit(HOLD_MS);
    const claim = await store.claimProbe(holder, options.probeLeaseMs);
    if (claim.kind === 'go' && !closed) await probeOnce(claim.chatbot);
  };
  const tick = (): Promise<void> =>
    (ticking ??= look()
      .catch(onError)
      .finally(() => {
        ticking = undefined;
      }));

  const timer = setInterval(() => void tick(), options.tickMs ?? TICK_MS);
  timer.unref();

  return {
    holdMs: HOLD_MS,
    isOpen: () => outage !== undefined,
    async run(call, chatbot) {
      if (outage !== undefined)
        throw new ListingSyncError(
          ErrorCode.SERVICE_DOWN,
          `not sent: the service is down since ${new Date(outage.since).toISOString()} (${outage.reason})`,
          { details: { since: outage.since } },
        );
      try {
        const result = await call();
        await answered();
        return result;
      } catch (thrown) {
        const verdict = serviceVerdict(thrown, retryTable);
        if (verdict === 'down') await failed(thrown, chatbot);
        else if (verdict === 'up') await answered();
        throw thrown;
      }
    },
    tick,
    close() {
      closed = true;
      clearInterval(timer);
      return Promise.resolve();
    },
  };
}
