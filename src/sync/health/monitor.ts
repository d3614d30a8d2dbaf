/**
 * The health monitor every worker process runs: at an interval, every tracked chatbot is
 * evaluated (evaluate.ts). It is what notices runs that ended in a worker (their last job) and
 * chatbots that went stale because no run came at all. Several processes may run it: a change
 * is announced once (job id) and stored once (compare-and-set).
 */
import type { Logger } from '../../logger.js';
import { startPeriodicPass } from '../../periodic-pass.js';
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
  return startPeriodicPass(
    (isStopped) => evaluateAll(deps, isStopped),
    intervalMs,
    logger,
    'health check failed; trying again at the next interval',
  );
}
