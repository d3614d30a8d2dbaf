/**
 * The health monitor every worker process runs: at an interval, every tracked chatbot is
 * evaluated (evaluate.ts). It is what notices runs that ended in a worker (their last job) and
 * chatbots that went stale because no run came at all. Several processes may run it: a change
 * is announced once (job id) and stored once (compare-and-set).
 */
import type { Logger } from '../../logger.js';
import { evaluateChatbot, type HealthDeps } from './evaluate.js';

export interface RunningHealthMonitor {
  /** One pass now (tests, and the first pass soon after start). */
  pass(): Promise<void>;
  stop(): Promise<void>;
}

/** One pass: the configurations once, then each tracked chatbot; one chatbot's failure does not stop the others. */
export async function evaluateAll(deps: HealthDeps, isStopped: () => boolean = () => false): Promise<number> {
  const [chatbots, configs] = await Promise.all([deps.alerts.trackedChatbots(), deps.alerts.listConfigs()]);
  let added = 0;
  for (const chatbot of chatbots) {
    if (isStopped()) break;
    added += (await evaluateChatbot(deps, chatbot, configs)).length;
  }
  return added;
}

export function startHealthMonitor(deps: HealthDeps, intervalMs: number, logger: Logger): RunningHealthMonitor {
  let running: Promise<void> | undefined;
  let stopped = false;
  function pass(): Promise<void> {
    // Why one pass at a time: a slow pass (Redis slow, many chatbots) must not overlap the next tick.
    running ??= evaluateAll(deps, () => stopped)
      .then(() => undefined)
      .catch((err: unknown) =>
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'health check failed; trying again at the next interval'),
      )
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
