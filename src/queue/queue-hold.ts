/**
 * The hold on the writes queue: the service's 429 (for its Retry-After) and the open service
 * breaker stop every worker of every process from sending, until the hold lapses by itself.
 *
 * Why not BullMQ's limiter alone: BullMQ honours `queue.rateLimit()` only in workers that have a
 * limiter, and a limiter costs every job GET + HEXISTS + INCR in its fetch script even when it
 * never limits. So a worker runs without one unless `--rate` asks for it, and holds off here:
 * - the hold is shared through the queue's own rate-limit key (`queue.rateLimit`: a value with an
 *   expiry), so a worker with `--rate` honours it natively and the hold ends by itself if every
 *   process dies;
 * - the process that sets it knows at once; the others read the key's time to live when a
 *   request asks and the last read is POLL_MS old (one PTTL per POLL_MS while requests go out,
 *   none while the process is idle), and again as a hold they wait out lapses;
 * - a request waits in `pass()` before it takes a request slot, so a held job keeps its lock (BullMQ
 *   renews it) and its attempt, and the breaker's probe still finds a slot.
 */
import type { Queue } from 'bullmq';
import { ErrorCode } from '../shared/error-codes.js';
import { ListingSyncError } from '../shared/errors.js';
import type { RequestGate } from '../api/gated-client.js';

/**
 * How stale a process's knowledge of a hold another process set may be. Why 250 ms: a request
 * sent in that window meets the same 429 (and is held too), and a look costs one PTTL, not one per job.
 */
export const POLL_MS = 250;

export interface QueueHold {
  /** Holds the queue for `ms` in every process (the same call shape as `Queue.rateLimit`). */
  rateLimit(ms: number): Promise<void>;
  /** Whether this process knows of a hold now. */
  isHeld(): boolean;
  /**
   * Resolves once this process knows of no hold (at once when there is none). Rejects with code
   * QUEUE_HELD when the hold is closed while held: the caller puts its job back unsent.
   */
  pass(): Promise<void>;
  /** Ends the waits in `pass()` (the process is stopping). */
  close(): void;
}

/** A call not sent because the queue is held and this process is stopping: its job goes back to wait, its attempt unused. */
export function queueHeld(): ListingSyncError {
  return new ListingSyncError(ErrorCode.QUEUE_HELD, 'not sent: the queue is held (a 429 or an outage) and this process is stopping');
}

export interface QueueHoldOptions {
  /** The writes queue: its `rateLimit` sets the shared hold. */
  queue: Pick<Queue, 'rateLimit'>;
  /** Reads the time to live of the queue's rate-limit key (ms; negative when there is no hold). */
  pttl(): Promise<number>;
  /** Told of every Redis failure of a poll. */
  onError(err: unknown): void;
  pollMs?: number;
}

export function startQueueHold(options: QueueHoldOptions): QueueHold {
  const { queue } = options;
  const pttl = (): Promise<number> => options.pttl();
  const onError = (err: unknown): void => options.onError(err);
  let until = 0;
  let closed = false;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const extend = (ms: number): void => {
    until = Math.max(until, Date.now() + ms);
  };
  /** Waits until the known hold lapses, or `close`. */
  const sleep = (): Promise<void> =>
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(1, until - Date.now()));
      wake = () => resolve();
    }).then(() => {
      clearTimeout(timer);
      wake = undefined;
    });
  let sleeping: Promise<void> | undefined;
  const pollMs = options.pollMs ?? POLL_MS;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  /** Reads the shared hold (one read at a time). */
  const read = (): Promise<void> =>
    (reading ??= pttl()
      .then((ms) => {
        if (ms > 0) extend(ms);
      }, onError)
      .finally(() => {
        readAt = Date.now();
        reading = undefined;
      }));
  const isHeld = (): boolean => {
    // Why not awaited: a request never waits for this read; the next one sees what it found.
    if (!closed && Date.now() - readAt >= pollMs) void read();
    return until > Date.now();
  };
  return {
    async rateLimit(ms) {
      extend(ms);
      // Why only a longer one: the key holds one expiry, and a breaker's short hold renewed during
      // a service's long Retry-After must not cut it short.
      if ((await pttl()) < ms) await queue.rateLimit(ms);
    },
    isHeld,
    async pass() {
      // Why a loop: a hold seen (or set) while sleeping extends the wait.
      while (isHeld()) {
        if (closed) throw queueHeld();
        await (sleeping ??= sleep().finally(() => (sleeping = undefined)));
        // Why read before going on: another process may have held the queue longer meanwhile.
        if (!closed) await read();
      }
    },
    close() {
      closed = true;
      wake?.();
    },
  };
}

/**
 * `gate` behind the queue's hold: a call waits for the hold to lapse before it takes a request
 * slot, and looks again once it has one (a hold set while it waited for the slot sends it back to
 * wait, the slot freed), so nothing is sent while the queue is held and no slot idles in a hold.
 */
export function heldGate(hold: QueueHold, gate: RequestGate): RequestGate {
  return async <T>(call: () => Promise<T>, chatbot?: string): Promise<T> => {
    for (;;) {
      await hold.pass();
      const sent = await gate(async () => (hold.isHeld() ? undefined : { value: await call() }), chatbot);
      if (sent !== undefined) return sent.value;
    }
  };
}
