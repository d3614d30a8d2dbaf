/**
 * Configuration resolution: a PURE function of `{ env, flags, file }` (bull-board's CLI
 * `config/resolve.ts` style). Nothing here reads process.env; the CLI passes it in.
 *
 * Precedence: flags > env > file > default. Empty strings count as unset everywhere.
 * Every problem is collected and reported at once, in one readable block, and a secret's
 * value never appears in any message.
 */
import type { z } from 'zod';
import type { RedisClusterTarget } from './redis-cluster-config.js';
import { displayRedisUrl, withRedisPassword } from './redis-url-display.js';
import { settingsSchema, type JobSettings } from './config-settings.js';
import { ListingSyncError } from '../shared/errors.js';
import { DEFAULT_RETRY_TABLE, mergeRetryTable, type RetryTable, type RetryTableOverride } from '../api/retry-policy.js';
import { FEED_SECRET_SETTINGS, feedAuthProblems, toFeedAuth, type FeedAuth } from './feed-auth-config.js';
import { ErrorCode } from '../shared/error-codes.js';
import { clearCredentialProblems } from './clear-credentials.js';

export interface Config {
  api: {
    baseUrl?: string;
    siteUrl?: string;
    credentials: { secretKey?: string; sessionKey?: string; projectAuthToken?: string };
    /** LISTING_SYNC_JOB_KEY: the key jobs are signed with (src/queue/job-seal.ts); unset, derived from API_SECRET_KEY. */
    jobKey?: string;
    timeouts: { connectMs: number; headersMs: number; bodyMs: number };
    connections: number;
    /** What LISTING_SYNC_RETRY_* replaced of the default retry table (see api/retry-policy.ts). */
    retryOverride: RetryTableOverride;
    /** DEFAULT_RETRY_TABLE with retryOverride applied: what the queue should classify with. */
    retryTable: RetryTable;
  };
  /** Where Redis is: `url`, or `cluster` when REDIS_CLUSTER_NODES is set (it wins over the URL). */
  redis: { url: string; prefix: string; cluster?: RedisClusterTarget };
  worker: {
    concurrency: number;
    globalConcurrency?: number;
    /** Lease time to live in the request permit pool (src/queue/request-permits.ts). */
    permitTtlMs: number;
    rate?: { max: number; durationMs: number };
    /** How often each worker process reconciles open runs (src/queue/reconciler.ts). */
    reconcileMs: number;
    /** A run without progress this long, with no job being worked on, is marked stuck. */
    stuckAfterMs: number;
  };
  jobs: JobSettings;
  /** Caps on one feed URL (OData pages followed; bytes, every page together); any feed's overall deadline (--feed-timeout). */
  feed: { maxPages: number; maxBytes: number; deadlineMs: number };
  /** Credentials of the feed server (RESO Web API replication): FEED_OAUTH_* or FEED_TOKEN. */
  feedAuth: FeedAuth;
  /** Hosted photos (docs/photos.md): no `store`, Images are the source's own URLs. */
  media: {
    store?: string;
    baseUrl?: string;
    userAgent?: string;
    timeoutMs: number;
    /** An S3-compatible endpoint other than AWS's (AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL), and AWS_REGION. */
    s3: { endpoint?: string; region?: string };
  };
  /** Hosts besides loopback that credentials may be sent to over plain http (LISTING_SYNC_PLAIN_HTTP_HOSTS). */
  plainHttpHosts: string[];
  /** How long history is kept in Redis (src/store/retention.ts; BullMQ job ages in cli/queue-wiring.ts). */
  retention: {
    /** Runs, their per-job data, key-index entries and tombstones are kept at least this many days; failed jobs as long. */
    keepDays: number;
    /** Newest runs kept per chatbot, however old. */
    keepRuns: number;
    /** Hours a completed job stays in the queue (besides LISTING_SYNC_KEEP_COMPLETED's count). */
    completedJobHours: number;
  };
  /** Alerts and health (src/sync/health): links in alert bodies, how often workers check, how long a webhook may take. */
  alerts: {
    /** DASHBOARD_PUBLIC_URL: the dashboard as people reach it; alert bodies link to it when set. */
    dashboardUrl?: string;
    /** How often each worker process evaluates every tracked chatbot (stale checks, runs ended in workers). */
    checkMs: number;
    /** How long a webhook may take to answer before the delivery is retried. */
    timeoutMs: number;
  };
  logLevel: string;
}

/**
 * The settings a command line may give: commander's camelCase option name → the env name it
 * overrides. The one declaration of both: resolveConfig maps flags through it, and the CLI builds
 * the options and their "(env NAME)" help from it (src/cli/input/shared-flags.ts).
 */
export const CONFIG_FLAG_ENV = {
  apiBaseUrl: 'API_BASE_URL',
  siteUrl: 'SITE_URL',
  redisUrl: 'REDIS_URL',
  redisClusterNodes: 'REDIS_CLUSTER_NODES',
  prefix: 'LISTING_SYNC_PREFIX',
  concurrency: 'LISTING_SYNC_CONCURRENCY',
  globalConcurrency: 'LISTING_SYNC_GLOBAL_CONCURRENCY',
  rate: 'LISTING_SYNC_RATE',
  feedTimeout: 'LISTING_SYNC_FEED_TIMEOUT',
  mediaStore: 'LISTING_SYNC_MEDIA_STORE',
  mediaBaseUrl: 'LISTING_SYNC_MEDIA_BASE_URL',
  mediaUserAgent: 'FEED_MEDIA_USER_AGENT',
  mediaTimeout: 'LISTING_SYNC_MEDIA_TIMEOUT',
  logLevel: 'LOG_LEVEL',
} as const;

export type ConfigFlagName = keyof typeof CONFIG_FLAG_ENV;
export const CONFIG_FLAG_NAMES = Object.keys(CONFIG_FLAG_ENV) as ConfigFlagName[];

/** The config values a command line may give, by commander's option name. */
export type ConfigFlags = Partial<Record<ConfigFlagName, string>>;

/** The command-line spelling of a config flag: apiBaseUrl → --api-base-url. */
export function configFlag(name: ConfigFlagName): string {
  return `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export interface ConfigInput {
  env: Readonly<Record<string, string | undefined>>;
  flags?: ConfigFlags;
  /** A parsed config file: an object keyed by the env names below (values string/number/boolean). */
  file?: unknown;
}

/** Settings whose values are secrets: messages about them never echo the value. */
// REDIS_CLUSTER_NODES among them: an entry may be a URL with a password in it.
const SECRET_SETTINGS = new Set<string>([
  'API_SECRET_KEY',
  'API_SESSION_KEY',
  'PROJECT_AUTH_TOKEN',
  'LISTING_SYNC_JOB_KEY',
  'REDIS_CLUSTER_NODES',
  'REDIS_PASSWORD',
  ...FEED_SECRET_SETTINGS,
]);

type SettingName = keyof typeof settingsSchema.shape;
/** Every setting's env name (what `doctor --connect` lists). */
export const SETTING_NAMES = Object.keys(settingsSchema.shape) as SettingName[];

/** Whether a setting's value is a secret, never to be shown. */
export function isSecretSetting(name: string): boolean {
  return SECRET_SETTINGS.has(name);
}

function isSettingName(name: string): name is SettingName {
  return (SETTING_NAMES as string[]).includes(name);
}

function flagFor(name: string): string | undefined {
  const flag = CONFIG_FLAG_NAMES.find((candidate) => CONFIG_FLAG_ENV[candidate] === name);
  return flag === undefined ? undefined : configFlag(flag);
}

interface RawSetting {
  value: string;
  source: 'flag' | 'env' | 'file';
}

/** Merges the three sources into one raw string per setting; problems with the file are collected. */
function mergeSources(input: ConfigInput, problems: string[]): Partial<Record<SettingName, RawSetting>> {
  const raw: Partial<Record<SettingName, RawSetting>> = {};
  if (input.file !== undefined) {
    if (typeof input.file !== 'object' || input.file === null || Array.isArray(input.file)) {
      problems.push('config file: must be a JSON object keyed by setting names (e.g. "REDIS_URL")');
    } else {
      for (const [name, value] of Object.entries(input.file)) {
        if (!isSettingName(name)) {
          problems.push(`config file: unknown setting '${name}'`);
        } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          if (String(value).trim() !== '') raw[name] = { value: String(value), source: 'file' };
        } else if (value !== null && value !== undefined) {
          problems.push(`config file: ${name} must be a string or a number`);
        }
      }
    }
  }
  for (const name of SETTING_NAMES) {
    const value = input.env[name];
    if (value !== undefined && value.trim() !== '') raw[name] = { value, source: 'env' };
  }
  for (const flag of CONFIG_FLAG_NAMES) {
    const value = input.flags?.[flag];
    if (value !== undefined && value.trim() !== '') raw[CONFIG_FLAG_ENV[flag]] = { value, source: 'flag' };
  }
  return raw;
}

/** One problem line; the value is echoed only for non-secrets, with URL passwords masked. */
function problemLine(name: string, message: string, raw: RawSetting | undefined): string {
  const label = raw?.source === 'flag' ? `${name} (${flagFor(name) ?? 'flag'})` : name;
  const got = raw === undefined || SECRET_SETTINGS.has(name) ? '' : ` (got '${displayValue(raw.value.trim())}')`;
  return `  ${label}: ${message}${got}`;
}

/** A non-secret value for an error message: URL passwords masked, even in malformed URLs. */
function displayValue(value: string): string {
  const masked = displayRedisUrl(value);
  if (masked !== value || !value.includes('@')) return masked;
  return `***@${value.slice(value.lastIndexOf('@') + 1)}`;
}

/** Resolves and validates the configuration. Throws ListingSyncError('CONFIG') listing every problem. */
export function resolveConfig(input: ConfigInput): Config {
  const problems: string[] = [];
  const raw = mergeSources(input, problems);
  const values: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const setting = raw[name];
    if (setting !== undefined) values[name] = setting.value;
  }
  const parsed = settingsSchema.safeParse(values);
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'config');
      if (seen.has(name)) continue; // one line per setting is enough to fix it
      seen.add(name);
      problems.push(problemLine(name, issue.message, isSettingName(name) ? raw[name] : undefined));
    }
  }
  if (parsed.success && parsed.data.LISTING_SYNC_BACKOFF_MAX_MS < parsed.data.LISTING_SYNC_BACKOFF_MS) {
    problems.push(
      problemLine(
        'LISTING_SYNC_BACKOFF_MAX_MS',
        `must be at least LISTING_SYNC_BACKOFF_MS (${parsed.data.LISTING_SYNC_BACKOFF_MS})`,
        raw.LISTING_SYNC_BACKOFF_MAX_MS,
      ),
    );
  }
  if (parsed.success)
    problems.push(...feedAuthProblems(parsed.data), ...clearCredentialProblems(parsed.data), ...mediaProblems(parsed.data, raw));
  if (!parsed.success || problems.length > 0) {
    throw new ListingSyncError(ErrorCode.CONFIG, ['invalid configuration:', ...problems].join('\n'), { details: { problems } });
  }
  return toConfig(parsed.data);
}

/** A store needs the address its objects are served at, and an address without a store hosts nothing. */
function mediaProblems(s: z.infer<typeof settingsSchema>, raw: Partial<Record<SettingName, RawSetting>>): string[] {
  if (s.LISTING_SYNC_MEDIA_STORE !== undefined && s.LISTING_SYNC_MEDIA_BASE_URL === undefined)
    return [
      problemLine(
        'LISTING_SYNC_MEDIA_BASE_URL',
        'is required with --media-store (LISTING_SYNC_MEDIA_STORE): the public address the stored photos are served at, e.g. https://photos.example.com',
        undefined,
      ),
    ];
  if (s.LISTING_SYNC_MEDIA_STORE === undefined && s.LISTING_SYNC_MEDIA_BASE_URL !== undefined)
    return [
      problemLine(
        'LISTING_SYNC_MEDIA_BASE_URL',
        'does nothing without --media-store (LISTING_SYNC_MEDIA_STORE): name the store, or drop it',
        raw.LISTING_SYNC_MEDIA_BASE_URL,
      ),
    ];
  return [];
}

/** Keep-alive connections to the service per process when LISTING_SYNC_CONNECTIONS is unset (and --concurrency is not larger). */
const DEFAULT_CONNECTIONS = 16;

function toConfig(s: z.infer<typeof settingsSchema>): Config {
  const retryOverride: RetryTableOverride = {};
  if (s.LISTING_SYNC_RETRY_ENVELOPE_CODES !== undefined) retryOverride.envelopeCodes = s.LISTING_SYNC_RETRY_ENVELOPE_CODES;
  if (s.LISTING_SYNC_RETRY_HTTP_STATUSES !== undefined) retryOverride.httpStatuses = s.LISTING_SYNC_RETRY_HTTP_STATUSES;
  return {
    api: {
      baseUrl: s.API_BASE_URL,
      // Why: the spec serves the table listing from {site_url}; most deployments share one origin.
      siteUrl: s.SITE_URL ?? (s.API_BASE_URL === undefined ? undefined : new URL(s.API_BASE_URL).origin),
      credentials: { secretKey: s.API_SECRET_KEY, sessionKey: s.API_SESSION_KEY, projectAuthToken: s.PROJECT_AUTH_TOKEN },
      jobKey: s.LISTING_SYNC_JOB_KEY,
      timeouts: {
        connectMs: s.LISTING_SYNC_TIMEOUT_CONNECT_MS,
        headersMs: s.LISTING_SYNC_TIMEOUT_HEADERS_MS,
        bodyMs: s.LISTING_SYNC_TIMEOUT_BODY_MS,
      },
      // Why at least the concurrency: undici queues requests beyond its connections, so a worker
      // with --concurrency 64 and 16 connections had 16 requests in flight, not 64 (bench:sync).
      connections: s.LISTING_SYNC_CONNECTIONS ?? Math.max(DEFAULT_CONNECTIONS, s.LISTING_SYNC_CONCURRENCY),
      retryOverride,
      retryTable: mergeRetryTable(DEFAULT_RETRY_TABLE, retryOverride),
    },
    redis: {
      url: withRedisPassword(s.REDIS_URL.trim(), s.REDIS_PASSWORD),
      prefix: s.LISTING_SYNC_PREFIX,
      ...(s.REDIS_CLUSTER_NODES === undefined
        ? {}
        : { cluster: { ...(s.REDIS_PASSWORD === undefined ? {} : { password: s.REDIS_PASSWORD }), ...s.REDIS_CLUSTER_NODES } }),
    },
    worker: {
      concurrency: s.LISTING_SYNC_CONCURRENCY,
      globalConcurrency: s.LISTING_SYNC_GLOBAL_CONCURRENCY,
      permitTtlMs: s.LISTING_SYNC_PERMIT_TTL_MS,
      rate: s.LISTING_SYNC_RATE,
      reconcileMs: s.LISTING_SYNC_RECONCILE_MS,
      stuckAfterMs: s.LISTING_SYNC_STUCK_AFTER_MIN * 60_000,
    },
    jobs: {
      attempts: s.LISTING_SYNC_ATTEMPTS,
      backoffMs: s.LISTING_SYNC_BACKOFF_MS,
      backoffMaxMs: s.LISTING_SYNC_BACKOFF_MAX_MS,
      keepCompleted: s.LISTING_SYNC_KEEP_COMPLETED,
      keepFailed: s.LISTING_SYNC_KEEP_FAILED,
      deleteBatchSize: s.LISTING_SYNC_DELETE_BATCH,
      listingsPerJob: s.LISTING_SYNC_LISTINGS_PER_JOB,
    },
    retention: {
      keepDays: s.LISTING_SYNC_KEEP_DAYS,
      keepRuns: s.LISTING_SYNC_KEEP_RUNS,
      completedJobHours: s.LISTING_SYNC_KEEP_COMPLETED_HOURS,
    },
    feed: { maxPages: s.LISTING_SYNC_FEED_MAX_PAGES, maxBytes: s.LISTING_SYNC_FEED_MAX_BYTES, deadlineMs: s.LISTING_SYNC_FEED_TIMEOUT },
    feedAuth: toFeedAuth(s),
    media: {
      store: s.LISTING_SYNC_MEDIA_STORE,
      baseUrl: s.LISTING_SYNC_MEDIA_BASE_URL,
      userAgent: s.FEED_MEDIA_USER_AGENT,
      timeoutMs: s.LISTING_SYNC_MEDIA_TIMEOUT,
      s3: { endpoint: s.AWS_ENDPOINT_URL_S3 ?? s.AWS_ENDPOINT_URL, region: s.AWS_REGION },
    },
    plainHttpHosts: s.LISTING_SYNC_PLAIN_HTTP_HOSTS ?? [],
    alerts: { dashboardUrl: s.DASHBOARD_PUBLIC_URL, checkMs: s.LISTING_SYNC_HEALTH_CHECK_MS, timeoutMs: s.LISTING_SYNC_ALERT_TIMEOUT_MS },
    logLevel: s.LOG_LEVEL,
  };
}

/**
 * Commands that call the service need API_BASE_URL; others (worker admin, sim) do not, so it is
 * checked here rather than in resolveConfig.
 */
export function requireApiBase(config: Config): asserts config is Config & { api: { baseUrl: string; siteUrl: string } } {
  if (config.api.baseUrl === undefined) {
    throw new ListingSyncError(
      ErrorCode.CONFIG,
      "API_BASE_URL is not set: set it in the environment or pass --api-base-url (the service's base URL, e.g. https://api.example.com)",
    );
  }
}

/** The table listing (endpoint 7) needs only SITE_URL, which defaults to API_BASE_URL's origin. */
export function requireSiteUrl(config: Config): void {
  if (config.api.siteUrl === undefined) {
    throw new ListingSyncError(
      ErrorCode.CONFIG,
      'SITE_URL is not set: set SITE_URL or API_BASE_URL in the environment, or pass --site-url or --api-base-url',
    );
  }
}
