/**
 * Every setting's schema, keyed by its env name (config.ts merges flags, env and file into raw
 * strings, then parses them with this): ranges, URLs, credentials, rates and the retry table.
 */
import { z } from 'zod';
import { retryTableOverrideSchema } from '../api/retry-policy.js';
import { feedAuthSettings } from './feed-auth-config.js';
import { plainHttpHostList } from './clear-credentials.js';
import { parseClusterNodes } from './redis-cluster-config.js';
import { mediaStoreProblem } from '../shared/media-store-url.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

function intSetting(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .trim()
    .regex(/^-?\d+$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));
}

function httpUrl() {
  return z
    .string()
    .trim()
    .refine((text) => {
      try {
        const url = new URL(text);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    }, 'must be an http(s) URL')
    .transform((text) => text.replace(/\/+$/, ''));
}

const redisUrl = z
  .string()
  .trim()
  .refine((text) => {
    try {
      const url = new URL(text);
      return url.protocol === 'redis:' || url.protocol === 'rediss:';
    } catch {
      return false;
    }
  }, 'must be a redis:// or rediss:// URL');

// Why no control characters: an HTTP header value cannot hold them, and undici's complaint
// about an invalid header would otherwise surface at request time (possibly echoing the value).
const credential = z.string().refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'must not contain line breaks or control characters');

const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration as the CLI's duration flags take it (`90s`, `10m`, `2h`, `500ms`; a bare number is seconds), in ms. */
function durationSetting(minMs: number) {
  const message = 'must be a duration such as 90s, 10m or 2h';
  return z
    .string()
    .trim()
    .regex(/^\d+(?:\.\d+)?\s*(?:ms|s|m|h)?$/, message)
    .transform((text) => {
      const unit = /(ms|s|m|h)$/.exec(text)?.[1] ?? 's';
      return Math.round(Number.parseFloat(text) * (DURATION_UNITS[unit] ?? 1000));
    })
    .pipe(z.number().min(minMs, message));
}

const RATE_UNITS: Readonly<Record<string, number>> = { s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/** Parses '50', '50/s', '300/min', '10/500ms' into BullMQ limiter terms. */
function parseRate(text: string, ctx: z.RefinementCtx): { max: number; durationMs: number } {
  const match = /^(\d+)\s*(?:\/\s*(?:(\d+)\s*ms|(s|sec|m|min|h)))?$/.exec(text.trim());
  const max = Number(match?.[1]);
  const durationMs = match?.[2] !== undefined ? Number(match[2]) : RATE_UNITS[match?.[3] ?? 's'];
  if (!match || !(max >= 1) || durationMs === undefined || !(durationMs >= 1)) {
    ctx.addIssue({ code: 'custom', message: "must be a rate like '50/s', '300/min', '10/500ms' or '50' (per second), at least 1" });
    return z.NEVER;
  }
  return { max, durationMs };
}

/** Comma list of codes → retry-table member, validated by the retry policy's own schema. */
function retryList(member: 'envelopeCodes' | 'httpStatuses') {
  return z.string().transform((text, ctx) => {
    const parsed = retryTableOverrideSchema.safeParse({ [member]: text });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }
    return parsed.data[member];
  });
}

/** Every setting, keyed by its env name. Inputs are strings (or absent) after merging the sources. */
export const settingsSchema = z.object({
  API_BASE_URL: httpUrl().optional(),
  SITE_URL: httpUrl().optional(),
  API_SECRET_KEY: credential.optional(),
  API_SESSION_KEY: credential.optional(),
  PROJECT_AUTH_TOKEN: credential.optional(),
  // The key jobs are signed with (src/queue/job-seal.ts); unset: derived from API_SECRET_KEY.
  LISTING_SYNC_JOB_KEY: credential.optional(),
  REDIS_URL: redisUrl.default(DEFAULT_REDIS_URL),
  REDIS_CLUSTER_NODES: z.string().transform(parseClusterNodes).optional(),
  // Redis's password apart from the URL (a compose file's requirepass); used when REDIS_URL has none.
  REDIS_PASSWORD: credential.optional(),
  // Why this alphabet: BullMQ puts the prefix in every key; braces allow a Redis Cluster hash tag ('{ls}').
  LISTING_SYNC_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_{}.-]+$/, 'may hold only letters, digits and _ { } . - (a Redis Cluster hash tag like {ls} works)')
    .default('listing-sync'),
  LISTING_SYNC_CONCURRENCY: intSetting(1, 256).default(8),
  LISTING_SYNC_GLOBAL_CONCURRENCY: intSetting(1, 100_000).optional(),
  LISTING_SYNC_RATE: z.string().transform(parseRate).optional(),
  // Why 10 s: a killed or frozen worker's permits come back after this, while the renewals (every
  // 250 ms) may miss for TTL/2 = 5 s (a Redis restart, a GC pause) before a live worker stops sending.
  LISTING_SYNC_PERMIT_TTL_MS: intSetting(200, 3_600_000).default(10_000),
  LISTING_SYNC_ATTEMPTS: intSetting(1, 1000).default(10),
  LISTING_SYNC_BACKOFF_MS: intSetting(0, 86_400_000).default(1000),
  LISTING_SYNC_BACKOFF_MAX_MS: intSetting(0, 86_400_000).default(60_000),
  // Why 0 (completed jobs leave the queue as they finish): a job's outcome is on its run record
  // (runs inspect, the dashboard, `jobs find`), and keeping the job itself cost BullMQ five more
  // Redis commands per job (add to the completed set, write the result, trim by age and by count)
  // where removing it costs one DEL. Set it to see completed jobs in bull-board.
  LISTING_SYNC_KEEP_COMPLETED: intSetting(0, 10_000_000).default(0),
  LISTING_SYNC_KEEP_FAILED: intSetting(0, 10_000_000).default(10_000),
  LISTING_SYNC_DELETE_BATCH: intSetting(1, 10_000).default(100),
  // Why 8: BullMQ's own work per job, paid once per 8 listings, is then small beside the request's
  // (bench:sync); 1 gives every listing a queue job of its own (jobs/support/listing-batches.ts).
  LISTING_SYNC_LISTINGS_PER_JOB: intSetting(1, 8).default(8),
  LISTING_SYNC_RECONCILE_MS: intSetting(100, 86_400_000).default(30_000),
  LISTING_SYNC_STUCK_AFTER_MIN: intSetting(1, 100_000).default(30),
  // Why 30 days or 200 runs, whichever keeps more: a month of nightly runs to look back on, and a
  // rarely synced chatbot still shows its history; beyond that, history is what fills Redis.
  LISTING_SYNC_KEEP_DAYS: intSetting(1, 3650).default(30),
  LISTING_SYNC_KEEP_RUNS: intSetting(0, 1_000_000).default(200),
  // Why a day (when LISTING_SYNC_KEEP_COMPLETED keeps any): a completed job's outcome is on its run
  // record; the job itself only helps while someone looks at last night's queue.
  LISTING_SYNC_KEEP_COMPLETED_HOURS: intSetting(1, 87_600).default(24),
  LISTING_SYNC_TIMEOUT_CONNECT_MS: intSetting(1, 3_600_000).default(5000),
  LISTING_SYNC_TIMEOUT_HEADERS_MS: intSetting(1, 3_600_000).default(30_000),
  LISTING_SYNC_TIMEOUT_BODY_MS: intSetting(1, 3_600_000).default(30_000),
  LISTING_SYNC_CONNECTIONS: intSetting(1, 1024).optional(),
  // Why caps: a feed server that pages or streams forever must not keep a sync busy for hours.
  LISTING_SYNC_FEED_MAX_PAGES: intSetting(1, 100_000_000).default(10_000),
  LISTING_SYNC_FEED_MAX_BYTES: intSetting(1, Number.MAX_SAFE_INTEGER).default(2 * 1024 ** 3),
  // Why an overall deadline besides the idle timeouts: a server sending a byte a second is never
  // idle, and would hold a sync (and its chatbot's lease) for as long as it liked.
  LISTING_SYNC_FEED_TIMEOUT: durationSetting(1).default(30 * 60_000),
  // Hosts credentials may be sent to over plain http besides loopback (a simulator on a private
  // container network, e.g. compose's `sim`): comma-separated hostnames.
  LISTING_SYNC_PLAIN_HTTP_HOSTS: z.string().transform(plainHttpHostList).optional(),
  ...feedAuthSettings(httpUrl(), credential),
  // Hosted photos (docs/photos.md): where they are stored, the public address they are served at.
  LISTING_SYNC_MEDIA_STORE: z
    .string()
    .trim()
    .superRefine((text, context) => {
      const problem = mediaStoreProblem(text);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  LISTING_SYNC_MEDIA_BASE_URL: httpUrl().optional(),
  // The S3 store's endpoint and region, as the AWS SDKs name them (credentials: the SDK's own chain).
  AWS_ENDPOINT_URL_S3: httpUrl().optional(),
  AWS_ENDPOINT_URL: httpUrl().optional(),
  AWS_REGION: z.string().trim().optional(),
  FEED_MEDIA_USER_AGENT: credential.optional(),
  // Why a deadline per download: a media host that hangs must not hold the run; the photo is fetched next run.
  LISTING_SYNC_MEDIA_TIMEOUT: durationSetting(1).default(60_000),
  DASHBOARD_PUBLIC_URL: httpUrl().optional(),
  // Why 30 s: a run that ended in a worker is announced within half a minute, at one small read per chatbot.
  LISTING_SYNC_HEALTH_CHECK_MS: intSetting(100, 86_400_000).default(30_000),
  LISTING_SYNC_ALERT_TIMEOUT_MS: intSetting(100, 600_000).default(10_000),
  LISTING_SYNC_RETRY_ENVELOPE_CODES: retryList('envelopeCodes').optional(),
  LISTING_SYNC_RETRY_HTTP_STATUSES: retryList('httpStatuses').optional(),
  LOG_LEVEL: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }))
    .default('info'),
});

/** The write jobs' settings (`Config.jobs`), from the LISTING_SYNC_* settings above. */
export interface JobSettings {
  attempts: number;
  backoffMs: number;
  backoffMaxMs: number;
  keepCompleted: number;
  keepFailed: number;
  deleteBatchSize: number;
  listingsPerJob: number;
}
