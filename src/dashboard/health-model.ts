/**
 * The health, chart and alert pages' read model over the store: each chatbot's status computed
 * from its runs with the default thresholds (so the page is right even where no worker runs the
 * monitor), since-when from the stored state, the runs of a period, the remembered final failures
 * by envelope Code, and the alert configurations (webhooks masked) with their last deliveries.
 */
import {
  DEFAULT_THRESHOLDS,
  deriveHealth,
  hasEnded,
  lastHealthyRun,
  statusOfRun,
  type RunFacts,
  type ServiceOutage,
} from '../domain/health/status.js';
import { HEALTH_FIELD, type AlertStore } from '../store/alert-store.js';
import { shownWebhook } from '../domain/health/webhook-url.js';
import type { Store } from '../store/store.js';
import { isSyncRun, runFactsOf } from '../sync/health/run-facts.js';
import { runListItemOf } from './run-list-item.js';
import type { ChatbotHealthView, FailureView, HealthData } from './types.js';

/** Runs read per chatbot for its status and streak. */
const RUNS_READ = 30;
/** Newest runs looked at to find chatbots not tracked yet (no evaluation ran for them). */
const RECENT_RUNS = 200;
/** Most runs one chart shows (30 days of hourly runs would be 720). */
const CHART_RUNS_MAX = 400;

function streakOf(runs: readonly RunFacts[], status: string): number {
  let streak = 0;
  for (const run of runs.filter(hasEnded)) {
    if (statusOfRun(run, DEFAULT_THRESHOLDS).status !== status) break;
    streak += 1;
  }
  return streak;
}

async function chatbotHealth(
  store: Store,
  alerts: AlertStore,
  chatbot: string,
  now: number,
  outage: ServiceOutage | undefined,
): Promise<ChatbotHealthView> {
  const [records, states] = await Promise.all([store.runs.listRuns({ chatbot, limit: RUNS_READ }), alerts.states(chatbot)]);
  const runs = records.filter(isSyncRun).map(runFactsOf);
  const verdict = deriveHealth(runs, now, DEFAULT_THRESHOLDS, outage);
  const view: ChatbotHealthView = { chatbot, status: verdict?.status ?? 'unknown', reasons: verdict?.reasons ?? [], streak: 0 };
  const newest = runs[0];
  if (newest !== undefined)
    view.lastRun = {
      runId: newest.runId,
      status: newest.status,
      startedAt: newest.startedAt,
      ...(newest.finishedAt === undefined ? {} : { finishedAt: newest.finishedAt }),
    };
  const success = lastHealthyRun(runs, DEFAULT_THRESHOLDS);
  if (success !== undefined) view.lastSuccess = { runId: success.runId, finishedAt: success.finishedAt ?? success.startedAt };
  if (verdict !== undefined) {
    const stored = states.get(HEALTH_FIELD)?.state;
    view.since = stored?.status === verdict.status ? stored.since : (verdict.run?.finishedAt ?? verdict.run?.startedAt);
    view.streak = verdict.status === 'stale' || verdict.status === 'service-down' ? 1 : streakOf(runs, verdict.status);
  }
  return view;
}

/** Why failing chatbots first: the page is read to find trouble. */
const ORDER = ['service-down', 'failed', 'refused', 'budget', 'stale', 'skipped', 'unknown', 'healthy'];

export function createHealthData(store: Store, alerts: AlertStore, alertsQueue: string, now: () => number = () => Date.now()): HealthData {
  return {
    async health() {
      const [tracked, recent, outage] = await Promise.all([
        alerts.trackedChatbots(),
        store.runs.listRuns({ limit: RECENT_RUNS }),
        store.breaker.outage(),
      ]);
      const chatbots = [...new Set([...tracked, ...recent.filter(isSyncRun).map((run) => run.chatbot)])];
      const views = await Promise.all(chatbots.map((chatbot) => chatbotHealth(store, alerts, chatbot, now(), outage)));
      return views.sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || a.chatbot.localeCompare(b.chatbot));
    },
    async healthOf(chatbots) {
      const outage = await store.breaker.outage();
      return await Promise.all(chatbots.map((chatbot) => chatbotHealth(store, alerts, chatbot, now(), outage)));
    },
    async chatbotRuns(chatbot, sinceMs) {
      const records = await store.runs.listRuns({ chatbot, limit: CHART_RUNS_MAX });
      return records.filter((run) => run.startedAt >= sinceMs && isSyncRun(run)).map(runListItemOf);
    },
    async failures(chatbot) {
      const [byKey, byUrl] = await Promise.all([
        store.failedKeys.failedKeys(chatbot, 'MLSNumber'),
        store.failedKeys.failedKeys(chatbot, 'URL'),
      ]);
      return [...byKey.values(), ...byUrl.values()].map((failure): FailureView => ({ chatbot, code: failure.code, at: failure.at }));
    },
    async alerts() {
      const [configs, deliveries] = await Promise.all([alerts.listConfigs(), alerts.deliveries(100)]);
      return {
        configs: configs.map((config) => ({
          name: config.name,
          format: config.format,
          webhook: shownWebhook(config),
          on: config.on,
          chatbots: config.chatbots,
          staleAfterMs: config.staleAfterMs,
          ...(config.failedRowsPercent === undefined ? {} : { failedRowsPercent: config.failedRowsPercent }),
        })),
        deliveries,
        queue: alertsQueue,
      };
    },
  };
}
