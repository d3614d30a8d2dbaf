/**
 * Evaluating a chatbot's health: its newest runs through the status machine, once for the health
 * page (default thresholds) and once per alert configuration watching it (its own thresholds);
 * each change is stored with a compare-and-set and, when the configuration wants the event, an
 * alert job is added. Idempotent and safe from several processes at once: a change has one job
 * id (alertJobId), and only one evaluator's compare-and-set wins.
 */
import type { AlertMessage } from '../../domain/health/alert-body.js';
import {
  DEFAULT_THRESHOLDS,
  HEALTH_STATUSES,
  deriveHealth,
  type HealthThresholds,
  type HealthVerdict,
  type ServiceOutage,
} from '../../domain/health/status.js';
import { transition, type HealthState } from '../../domain/health/transition.js';
import type { Logger } from '../../runtime/logger.js';
import { watches, type AlertConfig } from '../../store/alert-config.js';
import { alertField, HEALTH_FIELD, type AlertStore } from '../../store/alert-store.js';
import type { RunStore } from '../../store/runs.js';
import { alertJobId } from '../../queue/alert-jobs.js';
import { isSyncRun, runFactsOf } from './run-facts.js';
import { plural } from '../../shared/counts.js';

/**
 * Runs read per evaluation: the newest ended sync run decides (a healthy one is also the last
 * successful one). Why more than one: runs still going and chatbot edit runs come first.
 */
const RUNS_READ = 10;

export interface HealthDeps {
  runs: Pick<RunStore, 'listRuns'>;
  alerts: AlertStore;
  /** Adds a delivery of `message` to alert `alert` as job `jobId` (an existing id is not added again). */
  addAlert(jobId: string, alert: string, message: AlertMessage): Promise<void>;
  now(): number;
  logger: Logger;
  /** The service outage going on now (the breaker open), if any: a run it holds makes its chatbot service-down. */
  outage?(): Promise<ServiceOutage | undefined>;
  /** The envelope Codes a run's final job failures carried, with how many listings each (for a `failed` alert's reasons). */
  failureCodes?(chatbot: string, runId: string): Promise<ReadonlyMap<string, number>>;
}

export function thresholdsOf(config: AlertConfig): HealthThresholds {
  return {
    staleAfterMs: config.staleAfterMs,
    ...(config.failedRowsPercent === undefined ? {} : { failedRowsPercent: config.failedRowsPercent }),
  };
}

function messageOf(
  chatbot: string,
  verdict: HealthVerdict,
  previous: HealthState | undefined,
  event: AlertMessage['status'],
): AlertMessage {
  const run = verdict.run;
  return {
    status: event,
    previousStatus: previous?.status ?? null,
    chatbot,
    runId: run?.runId ?? null,
    startedAt: run === undefined ? null : new Date(run.startedAt).toISOString(),
    counts: {
      created: run?.counts.created ?? 0,
      updated: run?.counts.updated ?? 0,
      deleted: run?.counts.deleted ?? 0,
      failed: run?.counts.failed ?? 0,
      rejected: run?.feed?.rejected ?? 0,
    },
    reasons: [...verdict.reasons],
  };
}

/** `ENVELOPE_FAILURE 500: 2 listing(s)`, most frequent Code first. */
async function codeReasons(deps: HealthDeps, chatbot: string, runId: string): Promise<string[]> {
  const codes = (await deps.failureCodes?.(chatbot, runId)) ?? new Map<string, number>();
  return [...codes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([code, n]) => `${code}: ${plural(n, 'listing')}`);
}

/**
 * Evaluates one chatbot; returns the ids of the alert jobs added. `configs` lets a pass over many
 * chatbots read the configurations once.
 */
export async function evaluateChatbot(deps: HealthDeps, chatbot: string, configs?: readonly AlertConfig[]): Promise<string[]> {
  const [records, stored, all, outage] = await Promise.all([
    deps.runs.listRuns({ chatbot, limit: RUNS_READ }),
    deps.alerts.states(chatbot),
    configs === undefined ? deps.alerts.listConfigs() : Promise.resolve(configs),
    deps.outage?.(),
  ]);
  const runs = records.filter(isSyncRun).map(runFactsOf);
  if (runs.length === 0) return [];
  await deps.alerts.track([chatbot]);
  const now = deps.now();
  const added: string[] = [];
  const fields: Array<{ field: string; thresholds: HealthThresholds; config?: AlertConfig }> = [
    { field: HEALTH_FIELD, thresholds: DEFAULT_THRESHOLDS },
    ...all
      .filter((config) => watches(config, chatbot))
      .map((config) => ({ field: alertField(config.name), thresholds: thresholdsOf(config), config })),
  ];
  for (const { field, thresholds, config } of fields) {
    const verdict = deriveHealth(runs, now, thresholds, outage);
    if (verdict === undefined) continue;
    const previous = stored.get(field);
    const change = transition(previous?.state, verdict, now);
    if (change === undefined) continue;
    // The job first, then the state: a process that dies between the two leaves the change to be
    // found again, and the job id makes the second add a no-op.
    if (config !== undefined && change.event !== undefined && config.on.includes(change.event)) {
      const jobId = alertJobId(config.name, chatbot, change.changeId);
      const message = messageOf(chatbot, verdict, previous?.state, change.event);
      if (change.event === 'failed' && verdict.run !== undefined)
        message.reasons.push(...(await codeReasons(deps, chatbot, verdict.run.runId)));
      await deps.addAlert(jobId, config.name, message);
      added.push(jobId);
    }
    const won = await deps.alerts.compareAndSet(chatbot, field, previous?.raw ?? '', change.next);
    if (won && change.event !== undefined && config === undefined)
      deps.logger.info(
        { chatbot, status: change.next.status, previous: previous?.state?.status },
        `chatbot ${chatbot} is ${change.next.status}`,
      );
  }
  return added;
}

/** The ids an alert announcing `runId`'s outcome for `chatbot` would have, one per status and configuration. */
export function alertJobIdsOfRun(configs: readonly AlertConfig[], chatbot: string, runId: string): string[] {
  return configs
    .filter((config) => watches(config, chatbot))
    .flatMap((config) => HEALTH_STATUSES.map((status) => alertJobId(config.name, chatbot, `${status}.${runId}`)));
}
