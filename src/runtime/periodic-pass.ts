/**
 * Work a long-lived process repeats on an interval (the reconciler, the health monitor): the
 * first pass soon after start, one pass at a time, a failed pass logged once and tried again at
 * the next tick, and a stop that waits for the pass in flight. Timers are unref'd: a periodic
 * pass never keeps a process alive on its own.
 */
import type { Logger } from './logger.js';

export interface PeriodicPass {
  /** One pass now, or the one already running (tests, and the first pass soon after start). */
  pass(): Promise<void>;
  /** No pass starts any more; resolves once the one in flight ended. */
  stop(): Promise<void>;
}

/**
 * Runs `work(isStopped)` every `intervalMs`. `failure` is the log line of a pass that threw
 * ("… failed; trying again at the next interval").
 */
export function startPeriodicPass(
  work: (isStopped: () => boolean) => Promise<unknown>,
  intervalMs: number,
  logger: Logger,
  failure: string,
): PeriodicPass {
  let running: Promise<void> | undefined;
  let stopped = false;
  function pass(): Promise<void> {
    // Why one pass at a time: a slow pass (a big run inspected, Redis slow) must not overlap the next tick.
    running ??= work(() => stopped)
      .then(() => undefined)
      .catch((err: unknown) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, failure))
      .finally(() => {
        running = undefined;
      });
    return running;
  }
  const timer = setInterval(() => void pass(), intervalMs);
  timer.unref();
  const first = setTimeout(() => void pass(), Math.min(intervalMs, 1000));
  first.unref();
  return {
    pass,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
