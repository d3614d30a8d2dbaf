/**
 * The health monitor every worker process runs: at an interval, every tracked chatbot is
 * evaluated (evaluate.ts). It is what notices runs that ended in a worker (their last job) and
 * chatbots that went stale because no run came at all. Several processes may run it: a change
 * is announced once (job id) and stored once (compare-and-set).
 */
import type { Logger } from '../../runtime/logger.js';
import { startPeriodicPass } from '../../runtime/periodic-pass.js';
import { isFinalStatus } from '../../store/run-types.js';
import { evaluateChatbot, type HealthDeps } from './evaluate.js';

export interface RunningHealthMonitor {
  /** One pass now (tests, and the first pass soon after start). */
  pass(): Promise<void>;
  stop(): Promise<void>;
}

/** Newest runs looked at during a service outage for chatbots not tracked yet whose run it holds (a first sync). */
const OUTAGE_RUNS_READ = 100;

/**
 * The chatbots a pass evaluates: every tracked one and, while the service is down, those whose run
 * is still going (a chatbot's first run is tracked only once it ended, yet its outage is news).
 */
async function chatbotsToEvaluate(deps: HealthDeps): Promise<string[]> {
  const [tracked, outage] = await Promise.all([deps.alerts.trackedChatbots(), deps.outage?.()]);
  if (outage === undefined) return tracked;
  const going = (await deps.runs.listRuns({ limit: OUTAGE_RUNS_READ })).filter((run) => !isFinalStatus(run.status));
  return [...new Set([...tracked, ...going.map((run) => run.chatbot)])];
}

/** One pass: the configurations once, then each tracked chatbot; one chatbot's failure does not stop the others. */
export async function evaluateAll(deps: HealthDeps, isStopped: () => boolean = () => false): Promise<number> {
  const [chatbots, configs] = await Promise.all([chatbotsToEvaluate(deps), deps.alerts.listConfigs()]);
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
