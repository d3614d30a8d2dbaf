// Container health check for the listing-sync image (Dockerfile HEALTHCHECK, compose healthchecks).
//
//   node deploy/healthcheck.mjs          exit 0 when the Redis at REDIS_URL answers PING
//   node deploy/healthcheck.mjs URL      exit 0 when GET URL answers 2xx (the dashboard's /healthz,
//                                        which itself checks Redis); sends the DASHBOARD_* credentials
//
// Why Redis PING for workers: a worker has no HTTP port, its process is PID 1 (a crash stops the
// container anyway), and the one thing that makes a running worker useless is losing Redis.
// It cannot see a worker whose event loop is stuck; BullMQ's stall detection covers that.
// Nothing is printed on success, and never a credential or the Redis URL (it may hold a password).
import { Redis } from 'ioredis';

const TIMEOUT_MS = 4000;

/** Empty strings count as unset, as everywhere in listing-sync. */
const env = (name) => (process.env[name] === undefined || process.env[name] === '' ? undefined : process.env[name]);

async function redisAnswers() {
  const redis = new Redis(env('REDIS_URL') ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    connectTimeout: TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError;
  // The failure is reported once below (with the socket's error code), not as an unhandled event.
  redis.on('error', (error) => (lastError = error));
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG' ? undefined : 'redis: unexpected PING answer';
  } catch (error) {
    throw lastError ?? error;
  } finally {
    redis.disconnect();
  }
}

function dashboardAuthorization() {
  const token = env('DASHBOARD_TOKEN');
  if (token !== undefined) return `Bearer ${token}`;
  const user = env('DASHBOARD_USER');
  const password = env('DASHBOARD_PASSWORD');
  if (user === undefined || password === undefined) return undefined;
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

async function httpAnswers(url) {
  const authorization = dashboardAuthorization();
  const response = await fetch(url, {
    headers: authorization === undefined ? {} : { authorization },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await response.body?.cancel();
  return response.ok ? undefined : `http: status ${response.status}`;
}

const target = process.argv[2];
const check = target === undefined ? redisAnswers() : httpAnswers(target);
check.then(
  (problem) => {
    if (problem !== undefined) process.stderr.write(`unhealthy: ${problem}\n`);
    process.exit(problem === undefined ? 0 : 1);
  },
  (error) => {
    // Only the error's code/name: a message could quote the URL, which may carry a password.
    const reason = error?.code ?? error?.cause?.code ?? error?.name ?? 'error';
    process.stderr.write(`unhealthy: ${target === undefined ? 'redis' : 'http'} ${reason}\n`);
    process.exit(1);
  },
);
