/**
 * Redis connections for the queue. Two kinds, on purpose:
 * - long-lived processes (`worker`, `sync --work`, `chatbot edit --many --work`, the demo) must
 *   survive a Redis restart: they reconnect for ever, and commands wait for the reconnect
 *   (`maxRetriesPerRequest: null`, offline queue on; BullMQ requires it for workers);
 * - short commands (the CLI enqueueing, listing runs) fail fast: a down Redis is one clear error
 *   line, not a CLI that hangs.
 * The dashboard's connection is a third shape: it reconnects for ever but its commands fail at
 * once while Redis is away, so a page answers 503 instead of hanging (createDashboardConnection).
 * Whoever calls these owns the connection and must close it (closeConnection): BullMQ does not
 * close connections it was given. Keys are isolated with BullMQ's `prefix`, never ioredis
 * keyPrefix (BullMQ's Lua scripts build key names themselves and would escape a keyPrefix).
 */
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { ListingSyncError } from '../shared/errors.js';
import type { RedisClusterTarget } from '../config/redis-cluster-config.js';
import { mastersOf, type RedisClient } from '../store/redis-client.js';
import { redisRefusal } from '../store/redis-refusal.js';
import type { Logger } from '../runtime/logger.js';
import type { RedisWatch } from './redis-watch.js';
import { coalesceWrites } from './coalesced-writes.js';
import { keepSeedsCurrent } from './cluster-seeds.js';
import { ErrorCode } from '../shared/error-codes.js';

export interface RedisSettings extends RedisTarget {
  /** The BullMQ prefix; the store's keys live under it too. */
  prefix: string;
}

/** Where Redis is: one server at `url`, or the Redis Cluster `cluster` when given (it wins). */
export interface RedisTarget {
  url: string;
  cluster?: RedisClusterTarget;
}

/** What a cluster client does about a master that stopped answering (ioredis's own names). */
type FailoverOptions = Pick<ClusterOptions, 'maxRedirections' | 'retryDelayOnFailover' | 'retryDelayOnClusterDown'>;

/**
 * How a long-lived process rides out a master's failover on a Redis Cluster: a command for the
 * dead master's slots is sent again every 250 ms, the slot map refreshed each time, for up to a
 * minute. Why: the replica takes over only after the cluster's node timeout (15 s by default)
 * and an election; ioredis's defaults (16 tries, 100 ms apart) give up after 1.6 s, and the
 * command — a job's probe, BullMQ's fetch — failed with "Too many Cluster redirections" in the
 * middle of a run (test/e2e/redis-cluster-failover.test.ts). A MOVED answer is retried at once
 * and counts too, which 240 tries leave ample room for.
 */
const RIDE_OUT_FAILOVER: FailoverOptions = { maxRedirections: 240, retryDelayOnFailover: 250, retryDelayOnClusterDown: 250 };

/**
 * A client for `target` with `options`. On a cluster the options apply to each node, except the
 * ones that are the cluster's own: its offline queue, ready check, laziness, and the reconnect
 * strategy (clusterRetryStrategy: how long to wait when no node answers); `failover` says how
 * long a command waits for a failed master's replica (ioredis's default: 1.6 s).
 */
function newClient(target: RedisTarget, options: RedisOptions, failover: FailoverOptions = {}): RedisClient {
  const { cluster } = target;
  if (cluster === undefined) return new Redis(target.url, options);
  const { retryStrategy, lazyConnect, enableOfflineQueue, enableReadyCheck, ...perNode } = options;
  const client = new Cluster(cluster.nodes, {
    ...failover,
    ...(lazyConnect === undefined ? {} : { lazyConnect }),
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
    ...(enableReadyCheck === undefined ? {} : { enableReadyCheck }),
    ...(retryStrategy === undefined ? {} : { clusterRetryStrategy: (times: number) => retryStrategy?.(times) ?? null }),
    redisOptions: {
      ...perNode,
      ...(cluster.username === undefined ? {} : { username: cluster.username }),
      ...(cluster.password === undefined ? {} : { password: cluster.password }),
      ...(cluster.tls ? { tls: {} } : {}),
    },
  });
  keepSeedsCurrent(client, cluster.nodes);
  return client;
}

/** The longest wait between two reconnect attempts; also how often an outage line repeats. */
export const RECONNECT_MAX_MS = 5000;

/**
 * Reconnect delay after `times` failed attempts: 100 ms doubling up to RECONNECT_MAX_MS. Why
 * start short: a Redis restart takes about a second, and work should carry on right after it;
 * why cap it: a long outage must not push the next attempt minutes out.
 */
export function reconnectDelay(times: number): number {
  return Math.min(100 * 2 ** Math.max(0, times - 1), RECONNECT_MAX_MS);
}

/**
 * Options of every connection that must outlive a Redis outage. Why disconnectTimeout: a socket
 * that never connected is otherwise kept for ioredis's default 2 s after disconnect(), which holds
 * a stopping process open that long.
 */
const LONG_LIVED = { maxRetriesPerRequest: null, enableReadyCheck: true, retryStrategy: reconnectDelay, disconnectTimeout: 300 } as const;

/** A long-lived connection sends each turn's commands in one write (coalesced-writes.ts). */
function longLived(redis: RedisClient): RedisClient {
  coalesceWrites(redis);
  return redis;
}

/** Why a no-op listener: without one, ioredis prints every connection error with its stack trace. */
function quiet(redis: RedisClient, watch: RedisWatch | undefined): RedisClient {
  if (watch) return watch.attach(redis);
  redis.on('error', () => undefined);
  return redis;
}

/**
 * A connection for a long-lived process (blocking commands, waits through outages and restarts,
 * also when Redis is down at start). With a watch, outages are logged through it.
 */
export function createWorkerConnection(target: RedisTarget, watch?: RedisWatch): RedisClient {
  return quiet(longLived(newClient(target, { ...LONG_LIVED }, RIDE_OUT_FAILOVER)), watch);
}

/**
 * Like createWorkerConnection, for a command a user just typed that then runs for long
 * (`sync --work`): Redis down at start is one clear error at once (REDIS_UNAVAILABLE); once
 * connected it waits through outages like a worker's.
 */
export async function connectSessionConnection(target: RedisTarget, watch?: RedisWatch): Promise<RedisClient> {
  const redis = longLived(newClient(target, { ...LONG_LIVED, lazyConnect: true }, RIDE_OUT_FAILOVER));
  // Quiet until connected: a refusal at start is reported once, by connectOrExplain, with its cause.
  let refusal: Error | undefined;
  const remember = (err: Error): void => void (refusal ??= err);
  redis.on('error', remember);
  await connectOrExplain(redis, () => refusal);
  redis.off('error', remember);
  return quiet(redis, watch);
}

/**
 * A connection for the dashboard: reconnects for ever, but a command sent while Redis is away
 * fails at once (no offline queue) so that a page can answer 503 rather than hang.
 */
export function createDashboardConnection(target: RedisTarget, watch?: RedisWatch): RedisClient {
  return quiet(newClient(target, { ...LONG_LIVED, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 3000 }), watch);
}

/**
 * A connection for producers and readers (short-lived CLI commands): fails fast when Redis is
 * unreachable — no reconnect loop, no offline queue — instead of hanging.
 */
export function createProducerConnection(target: RedisTarget): RedisClient {
  // The failure is reported once by connectProducer.
  return quiet(
    newClient(target, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 3000,
      lazyConnect: true,
      retryStrategy: () => null,
    }),
    undefined,
  );
}

/**
 * `redis.connect()`, rejected when the client ends first. Why: a cluster client that cannot
 * reach one of the masters while connecting (retry strategy off) ends without ever settling
 * connect(); a short command then exited with nothing keeping it alive, no line, exit code 13.
 */
function connectOrEnd(redis: RedisClient): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onEnd = (): void => reject(new Error('Connection is closed.'));
    // Why a deadline on a cluster only: a cluster whose state is not ok (a master down with no
    // replica to take over) passes no error to anyone while ioredis retries its ready check for
    // ever; a `sync --work` sat silent. One Redis refusing is reported by connect() itself.
    const timer =
      redis instanceof Cluster
        ? setTimeout(
            () =>
              reject(
                new Error(
                  `the cluster did not report cluster_state:ok within ${CLUSTER_READY_MS / 1000} s (a master down with no replica?)`,
                ),
              ),
            CLUSTER_READY_MS,
          )
        : undefined;
    redis.once('end', onEnd);
    redis
      .connect()
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer);
        redis.off('end', onEnd);
      });
  });
}

/** How long a command a user typed waits for a Redis Cluster to be ready before saying it is not. */
const CLUSTER_READY_MS = 10_000;

/** ' at host:port' for one Redis (never a password); '' for a cluster, whose fix names its seed nodes' setting. */
function redisAddress(redis: RedisClient): string {
  if (redis instanceof Cluster) return '';
  return ` at ${redis.options.path ?? `${redis.options.host ?? '127.0.0.1'}:${String(redis.options.port ?? 6379)}`}`;
}

/** Connects, or disconnects and throws REDIS_UNAVAILABLE naming the first cause (`cause()`, else what connect threw). */
async function connectOrExplain(redis: RedisClient, cause: () => Error | undefined = () => undefined): Promise<void> {
  try {
    await connectOrEnd(redis);
  } catch (thrown) {
    redis.disconnect();
    const first = cause() ?? thrown;
    const reason = first instanceof Error ? first.message : String(first);
    const setting = redis instanceof Cluster ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL';
    const refused = redisRefusal(first, setting);
    if (refused !== undefined)
      throw new ListingSyncError(ErrorCode.CONFIG, `Redis${redisAddress(redis)} ${refused.text}`, { cause: thrown });
    throw new ListingSyncError(
      ErrorCode.REDIS_UNAVAILABLE,
      `cannot reach Redis${redisAddress(redis)} (${reason}): check ${setting} and that Redis is running`,
      { cause: thrown },
    );
  }
}

/** Connects a lazily-connecting producer connection, turning a refusal into one clear error. */
export async function connectProducer(redis: RedisClient): Promise<RedisClient> {
  if (redis.status !== 'wait') return redis;
  // The first error says why (a refused password, an untrusted certificate); connect() only that it closed.
  let refusal: Error | undefined;
  const remember = (err: Error): void => void (refusal ??= err);
  redis.on('error', remember);
  try {
    await connectOrExplain(redis, () => refusal);
  } finally {
    redis.off('error', remember);
  }
  return redis;
}

/**
 * Resolves true once `redis` is connected, or false after `timeoutMs` (it goes on reconnecting).
 * For a process that starts whether Redis answers or not but should not open its doors a moment
 * before a Redis that does answer is connected.
 */
export async function readyWithin(redis: RedisClient, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return await new Promise<boolean>((resolve) => {
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = (): void => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}

/**
 * Closes a connection without ever hanging: QUIT (pending replies first) when connected, an
 * immediate disconnect otherwise. Why: with an offline queue, QUIT sent while Redis is away
 * waits for a reconnect that may never come, and a stopping process must exit promptly.
 */
export async function closeConnection(redis: RedisClient): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  await redis.quit().catch(() => redis.disconnect());
}

/**
 * Warns when Redis may evict keys: BullMQ jobs and our ledger are data, and an eviction policy
 * other than noeviction silently loses them under memory pressure. Hosted Redis often disables
 * CONFIG; that is tolerated (debug line only).
 */
export async function checkEvictionPolicy(redis: RedisClient, logger: Logger): Promise<string | undefined> {
  const policies = await Promise.all(mastersOf(redis).map((server) => evictionPolicy(server, logger)));
  // On a cluster one master that may evict is enough to lose data: report it.
  return policies.find((policy) => policy !== undefined && policy !== 'noeviction') ?? policies[0];
}

async function evictionPolicy(redis: Redis, logger: Logger): Promise<string | undefined> {
  try {
    const reply = await redis.call('CONFIG', 'GET', 'maxmemory-policy');
    const policy = Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : undefined;
    if (policy !== undefined && policy !== 'noeviction') {
      logger.warn(
        { policy },
        `Redis maxmemory-policy is ${policy}: set it to noeviction, or Redis may evict queued jobs and ledger ` +
          `entries under memory pressure`,
      );
    }
    return policy;
  } catch (thrown) {
    logger.debug(
      { err: thrown instanceof Error ? thrown.message : String(thrown) },
      'could not read Redis maxmemory-policy (CONFIG disabled?)',
    );
    return undefined;
  }
}
