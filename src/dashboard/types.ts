/**
 * What the dashboard needs from the rest of listing-sync, as small interfaces. read-model.ts
 * implements DashboardData over the store and the queues; the dashboard never sees a service
 * credential because nothing here carries one.
 */
import type { Logger } from '../runtime/logger.js';
import type { SyncSummary } from '../store/run-summary.js';
import type { Registry } from 'prom-client';
import type { BoardQueue } from './bull-board.js';
import type { FleetChatbotView, FleetMemberView } from './fleet-types.js';
import type { JobTargetsData } from './job-target-view.js';

export type { FleetChatbotView, FleetMemberView };

/** Listing outcomes of a run so far. */
export interface RunCountsView {
  created: number;
  updated: number;
  deleted: number;
  failed: number;
  retried: number;
  superseded: number;
}

/** One row of the runs list. Times are epoch milliseconds. */
export interface RunListItem {
  runId: string;
  chatbot: string;
  startedAt: number;
  finishedAt?: number;
  status: string;
  trigger: string;
  counts: RunCountsView;
  plan: { create: number; update: number; delete: number; unchanged: number };
  guard: { ok: boolean; reasons: readonly string[]; forced: boolean };
  /** Jobs of the run: how many were enqueued, finished, and finished failed. */
  jobs: { total: number; finished: number; failed: number };
  /** The fleet source the run's records came from (its summary's, else the chatbot's in the applied fleet). */
  source?: string;
}

/** A feed row the importer rejected, with the line it came from. */
export interface RejectedRowView {
  line: number;
  key?: string;
  field: string;
  value: string;
  reason: string;
}

/** What the feed-shape check found on a run: refused, or accepted with --accept-shape. */
export interface RunShapeView {
  accepted: boolean;
  drift: ReadonlyArray<{ kind: string; column: string; fields: readonly string[] }>;
}

/** A plan's figures beyond create/update/delete/unchanged. */
export interface RunPlanNotes {
  /** Listings kept as they are because their feed row was rejected. */
  held?: number;
  /** Listings already on the chatbot that the run took into its ledger. */
  adopted?: number;
  /** Deletes withheld because rows too broken to read their key came in; `reason` is a sentence. */
  deletesWithheld?: { deletes: number; rows: number; reason: string };
}

/** A run with what its page shows beyond the list row. */
export interface RunDetail extends RunListItem {
  /** Free-form JSON objects from the run's summary (feed stats, remote snapshot stats). */
  summary: {
    feed?: Record<string, unknown>;
    remote?: Record<string, unknown>;
    /** Per field, the listings the plan changed, with samples. */
    changes?: SyncSummary['changes'];
    /** The field-wipe guard's limits and what it found. */
    wipes?: SyncSummary['wipes'];
    /** What the feed-shape check found (refused, or accepted with --accept-shape). */
    shape?: RunShapeView;
    /** What the plan did beyond its four counts (absent on runs that did not record them). */
    planNotes?: RunPlanNotes;
    /** A `--replicate` run's pull: status, recordsPulled, requests, bytes, watermark, since, sweep, halted. */
    replication?: Record<string, unknown>;
    /** What the MLS display policy withheld, did not publish and blanked. */
    display?: SyncSummary['display'];
  };
  rejected: readonly RejectedRowView[];
}

/** A run page's data, read together: counts without the jobs re-queued since (`requeued`), as the failed list. */
export interface RunPageView {
  run: RunDetail;
  failed: FailedJobView[];
  /** Jobs retried since they failed and not finished again, and the listings they are about. */
  requeued: { jobs: number; listings: number };
  /** While the run has jobs to work and no worker runs on its prefix: the notice that says so. */
  noWorker?: string;
  /** The services the run's jobs in the queue are for (a sample; empty once they all left the queue). */
  targets: RunTargetView[];
  /** The service this dashboard is configured for (its `--work` worker's), when it knows one. */
  ownTarget?: string;
}

/** A service some of a run's jobs are for: its URL and credentials fingerprint, and jobs of the sample. */
export interface RunTargetView {
  target: string;
  jobs: number;
  /** Not the service this dashboard is configured for: a worker like its own leaves these jobs waiting. */
  elsewhere: boolean;
}

/** A job of a run that failed for good, with the service's envelope Code and Message. */
export interface FailedJobView {
  jobId: string;
  chatbot: string;
  key: string;
  kind: string;
  attempts: number;
  code?: number | string;
  message: string;
  address: string;
  city: string;
  /** The service the job was planned for ('' for a job without a seal). */
  target: string;
  /** Planned for another service than this dashboard's own. */
  elsewhere: boolean;
}

/** A job (of some run) that touched a listing key. `at` is epoch milliseconds. */
export interface KeyTouchView {
  runId: string;
  jobId: string;
  chatbot: string;
  kind: string;
  state: string;
  at: number;
}

/** Calls of one endpoint. `bucketCounts` has one entry per bound plus a last one above every bound; not cumulative. */
export interface EndpointCallsView {
  endpoint: string;
  /** outcome ('ok' or an error code) → calls */
  outcomes: Readonly<Record<string, number>>;
  bucketCounts: readonly number[];
  sumSeconds: number;
}

/** Service calls of every process, for /metrics. */
export interface CallMetricsView {
  /** Latency bucket upper bounds in seconds, ascending (the +Inf bucket is implicit). */
  buckets: readonly number[];
  endpoints: readonly EndpointCallsView[];
  /** envelope Code (or the failure outcome when there was no envelope) → failed calls */
  failures: Readonly<Record<string, number>>;
}

/** The hosted photos a chatbot's listings show (the Photos page): object keys in Order, by the feed's ListingKey. */
export interface ShownPhotosView {
  listings: ReadonlyArray<{ listingKey: string; objects: readonly string[] }>;
  /** Listings with photo references in all (the page shows a bounded number). */
  total: number;
}

/** Photo downloads of every process, for /metrics. */
export interface MediaMetricsView {
  downloads: number;
  bytes: number;
  /** reason → failed downloads */
  failures: Readonly<Record<string, number>>;
}

/** The fields of one run that /metrics needs. Times are epoch milliseconds. */
export interface RunSampleView {
  chatbot: string;
  status: string;
  startedAt: number;
  finishedAt?: number;
}

/** Read access and the one action the dashboard's own pages need. */
export interface DashboardData {
  listRuns(opts: { limit: number; chatbot?: string }): Promise<RunListItem[]>;
  getRun(runId: string): Promise<RunDetail | undefined>;
  /** The run with its failed jobs, in one read (undefined: no such run). */
  runPage(runId: string): Promise<RunPageView | undefined>;
  /** Re-queues every failed job of the run (or only `jobId` of it); returns how many were re-queued. */
  retryFailed(runId: string, jobId?: string): Promise<number>;
  /** Every job of every run that touched the listing key (MLS number or URL), newest first. */
  findKey(key: string): Promise<KeyTouchView[]>;
  pingRedis(): Promise<boolean>;
  /** queue name → job state → count, read on every /metrics scrape. */
  jobCounts(): Promise<Record<string, Record<string, number>>>;
  /** Service calls recorded by every process (Redis), read on every /metrics scrape. */
  callMetrics?(): Promise<CallMetricsView>;
  /** Photo downloads recorded by every process (Redis), read on every /metrics scrape. */
  mediaMetrics?(): Promise<MediaMetricsView>;
  /** The hosted photos of up to `limit` listings of a chatbot. */
  shownPhotos?(chatbot: string, limit: number): Promise<ShownPhotosView>;
  /** The newest runs, read on every /metrics scrape. */
  runMetrics?(): Promise<readonly RunSampleView[]>;
  /** Every chatbot's health, read on every /metrics scrape. */
  chatbotHealth?(): Promise<ChatbotHealthView[]>;
  /** Health, charts and alerts (absent: those pages answer 404). */
  healthData?: HealthData & JobTargetsData;
  /** The service outage going on now (the service breaker open), read for every page's banner and /metrics. */
  serviceOutage?(): Promise<ServiceOutageView | undefined>;
  /** Every chatbot of the applied fleet (empty when none was applied), as the fleet page shows it. */
  fleet?(): Promise<FleetChatbotView[]>;
  /** The applied fleet's chatbots and their sources, read on every /metrics scrape. */
  fleetMembers?(): Promise<FleetMemberView[]>;
}

/** The service is down for everyone: since when (epoch ms) and the failure that showed it. */
export interface ServiceOutageView {
  since: number;
  reason: string;
}

/** Credentials the dashboard accepts, or the explicit choice to run without any on loopback. */
export type DashboardAuth = { user?: string; password?: string; token?: string } | 'insecure-local';

export interface DashboardOptions {
  data: DashboardData;
  /** BullMQ queues shown by bull-board under /queues. */
  queues: readonly BoardQueue[];
  auth: DashboardAuth;
  /** Hides every action: no retry buttons, bull-board read-only, POST answers 403. */
  readOnly: boolean;
  metrics: MetricsRegistry;
  logger: Logger;
  /** Mount path when behind a reverse proxy (e.g. '/ops'); default ''. */
  basePath?: string;
  /** Where hosted photos are served (LISTING_SYNC_MEDIA_BASE_URL): the Photos page shows them from there. */
  mediaBaseUrl?: string;
  /**
   * Whether Redis answers now (the connection is up). While false, pages answer 503 with a clear
   * message instead of failing (see redis-gate.ts). Default: always true.
   */
  redisAvailable?: () => boolean;
}

/** A request as the framework-free handlers see it. */
export interface DashboardRequest {
  method: string;
  /** Route parameters (e.g. `id` of /runs/:id). */
  params: Readonly<Record<string, string>>;
  /** Single-valued query parameters. */
  query: Readonly<Record<string, string>>;
  /** Parsed urlencoded form fields of a POST. */
  form: Readonly<Record<string, string>>;
  /** Who is asking (user name, 'token' or 'local'): binds the CSRF token to the credentials. */
  identity: string;
  /** The service outage going on now, shown on every page. */
  outage?: ServiceOutageView;
}

/** What a handler answers; the express adapter writes it out verbatim. */
export interface HandlerResult {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** One chatbot on the health page. Times are epoch milliseconds. */
export interface ChatbotHealthView {
  chatbot: string;
  /** healthy, refused, failed, skipped, stale, budget; 'unknown' before any run ended. */
  status: string;
  /** Since when it has this status (when known). */
  since?: number;
  reasons: readonly string[];
  lastRun?: { runId: string; status: string; startedAt: number; finishedAt?: number };
  lastSuccess?: { runId: string; finishedAt: number };
  /** Consecutive newest ended runs with this status. */
  streak: number;
}

/** A job's final failure with the service's envelope Code, for the failures-by-Code chart. */
export interface FailureView {
  chatbot: string;
  code: string;
  at: number;
}

/** An alert configuration as shown: its webhook masked. */
export interface AlertConfigView {
  name: string;
  format: string;
  webhook: string;
  on: readonly string[];
  chatbots: readonly string[];
  staleAfterMs: number;
  failedRowsPercent?: number;
}

/** One delivery attempt of an alert. */
export interface AlertDeliveryView {
  alert: string;
  chatbot: string;
  status: string;
  at: number;
  attempt: number;
  ok: boolean;
  httpStatus?: number;
  error?: string;
}

/** What the health, chatbot and alerts pages read (DashboardData implementations over Redis have it). */
export interface HealthData {
  health(): Promise<ChatbotHealthView[]>;
  /** The health of these chatbots only (the fleet page), in the order given. */
  healthOf(chatbots: readonly string[]): Promise<ChatbotHealthView[]>;
  /** The chatbot's runs started at or after `sinceMs`, newest first. */
  chatbotRuns(chatbot: string, sinceMs: number): Promise<RunListItem[]>;
  /** Final job failures of the chatbot still remembered (one per listing key). */
  failures(chatbot: string): Promise<FailureView[]>;
  /** `queue`: the alerts queue's name in bull-board (it carries a hash tag on a Redis Cluster). */
  alerts(): Promise<{ configs: AlertConfigView[]; deliveries: AlertDeliveryView[]; queue: string }>;
}

/** The metrics a dashboard serves (created by metrics.ts `createMetrics`). */
/** Where a scrape reads the shared numbers (DashboardData provides all three). */
export interface MetricsSources {
  /** queue → state → count */
  jobCounts(): Promise<Record<string, Record<string, number>>>;
  callMetrics?(): Promise<CallMetricsView>;
  mediaMetrics?(): Promise<MediaMetricsView>;
  runMetrics?(): Promise<readonly RunSampleView[]>;
  chatbotHealth?(): Promise<readonly ChatbotHealthView[]>;
  /** The service outage going on now (undefined: the service is up). */
  serviceOutage?(): Promise<ServiceOutageView | undefined>;
  fleetMembers?(): Promise<readonly FleetMemberView[]>;
}

export interface MetricsRegistry {
  readonly registry: Registry;
  /** Jobs, calls and runs of every process, read on each scrape. */
  setSources(sources: MetricsSources): void;
  /** The exposition text and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}
