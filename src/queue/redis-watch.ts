/**
 * What a long-lived process tells its user about Redis: one line when Redis stops answering, at
 * most one more per reporting interval while it stays away, and one when it answers again.
 *
 * Why one watch per process rather than a listener per connection: a worker holds several
 * connections (its own, BullMQ's blocking duplicates, the queue's), and during an outage every one
 * of them fails every reconnect attempt and BullMQ re-emits each failure as an 'error' event.
 * Logged one by one that is dozens of lines (and, unhandled, stack traces) per second for one
 * fact: Redis is away. BullMQ's per-job errors (a lock lost, a job gone) are one line per interval
 * that says what follows (job-error-lines.ts); other errors are logged too, one line each, but the
 * same message at most once per interval.
 */
import { displayCluster, type RedisClusterTarget } from '../config/redis-cluster-config.js';
import { isCluster, type RedisClient } from '../store/redis-client.js';
import type { Logger } from '../runtime/logger.js';
import { jobErrorKind, jobErrorLines, type OutcomeLookup } from './job-error-lines.js';
import { followLostMasters } from './cluster-masters.js';
import { redisRefusal } from '../store/redis-refusal.js';

export type { OutcomeLookup };

/** Socket-level codes that mean "Redis is not reachable right now", not "the command was wrong". */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/**
 * Messages ioredis and BullMQ use for the same: a closed connection, an offline queue that is
 * off, a command given up after its retries, a Redis still loading its AOF after a restart, and
 * on a Redis Cluster a master gone without a replica taking over in time (ioredis gives up with
 * "Too many Cluster redirections"; the cluster itself answers CLUSTERDOWN).
 */
const CONNECTION_MESSAGE = new RegExp(
  [
    "Connection is closed|Stream isn't writeable|enableOfflineQueue|max retries per request|Reached the max retries",
    'connect ETIMEDOUT|ECONNREFUSED|ECONNRESET|EPIPE|^LOADING\\b|Redis is loading',
    'Too many Cluster redirections|^CLUSTERDOWN\\b|Failed to refresh slots cache',
  ].join('|'),
  'i',
);

/** True when `err` says Redis could not be reached (as opposed to a failed command). */
export function isRedisConnectionError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return typeof message === 'string' && CONNECTION_MESSAGE.test(message);
}

function reasonOf(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
  return typeof message === 'string' ? message : String(err);
}

/** Where Redis is, for log lines: host and port only (a URL may carry a password). */
export function redisLabel(target: { url: string; cluster?: RedisClusterTarget }): string {
  if (target.cluster !== undefined) return `Redis ${displayCluster(target.cluster)}`;
  try {
    const parsed = new URL(target.url);
    return parsed.host === '' ? 'Redis' : `Redis at ${parsed.host}`;
  } catch {
    return 'Redis';
  }
}

export interface RedisWatchOptions {
  /** How often, at most, the "still unreachable" line repeats; the reconnect cadence (default 5 s). */
  intervalMs?: number;
  /** Who is speaking, e.g. "Redis at 127.0.0.1:6379" (see redisLabel). */
  label?: string;
  now?: () => number;
}

export interface RedisWatch {
  /** Follows a connection: its errors and reconnects feed the outage lines. Returns it. */
  attach(redis: RedisClient): RedisClient;
  /** An 'error' event from BullMQ or a failed Redis call: one outage line, or one line per distinct error per interval. */
  report(err: unknown, context?: string): void;
  /** False while any followed connection is not connected (connecting, reconnecting), or a followed cluster has a master lost. */
  isUp(): boolean;
  /** Calls `listener` whenever a followed connection loses Redis; returns the unsubscribe. */
  onDown(listener: () => void): () => void;
  /**
   * Calls `listener` whenever BullMQ reports a job in flight gone from the queue (every report,
   * not once per interval: the listener throttles itself); returns the unsubscribe.
   */
  onJobGone(listener: () => void): () => void;
  /** From now on, a job BullMQ calls gone is first looked up with `lookup` (see OutcomeLookup). */
  knowOutcomes(lookup: OutcomeLookup): void;
}

/** A watch that logs through `logger`. */
export function createRedisWatch(logger: Logger, options: RedisWatchOptions = {}): RedisWatch {
  const intervalMs = options.intervalMs ?? 5000;
  const label = options.label ?? 'Redis';
  const now = options.now ?? Date.now;
  const followed = new Set<RedisClient>();
  /** Per followed cluster: how many of its masters are lost now (cluster-masters.ts). */
  const lostMasters = new Map<RedisClient, () => number>();
  const downListeners = new Set<() => void>();
  const jobGoneListeners = new Set<() => void>();
  let downSince: number | undefined;
  let lastOutageLine = Number.NEGATIVE_INFINITY;
  const lastErrorLine = new Map<string, number>();

  /** Whether a line of `kind` is due (at most one per interval), and if so marks it said. */
  function due(kind: string): boolean {
    const at = now();
    if (at - (lastErrorLine.get(kind) ?? Number.NEGATIVE_INFINITY) < intervalMs) return false;
    lastErrorLine.set(kind, at);
    return true;
  }
  const jobLines = jobErrorLines(logger, due);

  /** `master`: a cluster's master that stopped answering while the others still do (a failover under way). */
  function outage(err: unknown, master?: string): void {
    const at = now();
    downSince ??= at;
    if (at - lastOutageLine < intervalMs) return;
    lastOutageLine = at;
    const downForMs = at - downSince;
    const seconds = Math.round(intervalMs / 1000);
    const reason = reasonOf(err);
    if (master !== undefined) {
      const since = downForMs < 1000 ? '' : ` for ${Math.round(downForMs / 1000)} s`;
      logger.warn(
        { redis: label, master, reason, downForMs },
        `${label}: master ${master} is not answering (${reason})${since}: waiting for Redis while its replica takes its ` +
          `slots over (the cluster's node timeout, then an election); carrying on then`,
      );
      return;
    }
    logger.warn(
      { redis: label, reason, downForMs },
      `${label} is not answering (${reason}): retrying every ${seconds} s; carrying on once it answers`,
    );
  }

  function back(): void {
    if (downSince === undefined) return;
    const downForMs = now() - downSince;
    downSince = undefined;
    // Only announce the return of an outage that was announced (a reconnect within one interval after startup is not news).
    if (lastOutageLine === Number.NEGATIVE_INFINITY) return;
    lastOutageLine = Number.NEGATIVE_INFINITY;
    logger.info({ redis: label, downForMs }, `${label} answers again after ${(downForMs / 1000).toFixed(1)} s: carrying on`);
  }

  const watch: RedisWatch = {
    attach(redis) {
      followed.add(redis);
      redis.on('error', (err: Error) => watch.report(err));
      if (isCluster(redis)) {
        const lost = followLostMasters(redis, isRedisConnectionError, {
          lost(err, master) {
            const first = downSince === undefined;
            outage(err, master);
            if (first) for (const listener of downListeners) listener();
          },
          found: () => void (watch.isUp() && back()),
        });
        lostMasters.set(redis, lost);
      }
      redis.on('close', () => {
        if (redis.status === 'end') return;
        downSince ??= now();
        for (const listener of downListeners) listener();
      });
      redis.on('ready', () => {
        if (watch.isUp()) back();
      });
      redis.on('end', () => {
        followed.delete(redis);
        lostMasters.delete(redis);
      });
      return redis;
    },
    report(err, context) {
      if (isRedisConnectionError(err)) return outage(err);
      const message = err instanceof Error ? err.message : String(err);
      const kind = jobErrorKind(message);
      if (kind === 'job gone') for (const listener of jobGoneListeners) listener();
      if (kind !== undefined) return jobLines.say(kind, message);
      if (!due(message)) return;
      // A refusal a person must fix (a wrong password, a missing ACL permission) says so, with the fix.
      const refused = redisRefusal(err);
      logger.error(
        { err: message, ...(context === undefined ? {} : { context }) },
        refused !== undefined ? `Redis ${refused.text}` : context === undefined ? 'Redis error' : `${context} error`,
      );
    },
    isUp() {
      // 'end': closed on purpose (ioredis announces it a tick later, when it is dropped from `followed`).
      for (const redis of followed) if (redis.status !== 'ready' && redis.status !== 'end') return false;
      for (const lost of lostMasters.values()) if (lost() > 0) return false;
      return true;
    },
    onDown(listener) {
      downListeners.add(listener);
      return () => void downListeners.delete(listener);
    },
    onJobGone(listener) {
      jobGoneListeners.add(listener);
      return () => void jobGoneListeners.delete(listener);
    },
    knowOutcomes(lookup) {
      jobLines.knowOutcomes(lookup);
    },
  };
  return watch;
}
