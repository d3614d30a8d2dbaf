/** What of the configuration may be shown: the secret values every output scrubs, and Redis's address without its password. */
import type { Config } from './config.js';
import { FEED_SECRET_SETTINGS, feedAuthSecrets } from './feed-auth-config.js';
import { displayCluster } from './redis-cluster-config.js';
import { displayRedisUrl, redisPassword, safeDecode } from './redis-url-display.js';

/** Values that must be scrubbed from any output: the service credentials, the feed's secret or token, a Redis URL password. */
export function secretValues(config: Config): string[] {
  const { secretKey, sessionKey, projectAuthToken } = config.api.credentials;
  const values = [secretKey, sessionKey, projectAuthToken, config.api.jobKey, ...feedAuthSecrets(config.feedAuth)];
  const password = redisPassword(config.redis.url);
  if (password !== undefined) values.push(password, safeDecode(password));
  const clusterPassword = config.redis.cluster?.password;
  if (clusterPassword !== undefined) values.push(clusterPassword, encodeURIComponent(clusterPassword));
  return [...new Set(values.filter((v): v is string => v !== undefined && v !== ''))];
}

/**
 * Settings read by name (not all of them through Config) whose values are secrets: the service
 * credentials, the feed's, the dashboard's, the job-signing key.
 */
const SECRET_ENV_NAMES = [
  'API_SECRET_KEY',
  'API_SESSION_KEY',
  'PROJECT_AUTH_TOKEN',
  ...FEED_SECRET_SETTINGS,
  'DASHBOARD_PASSWORD',
  'DASHBOARD_TOKEN',
  'LISTING_SYNC_JOB_KEY',
  'REDIS_PASSWORD',
] as const;

/**
 * The secret values in the environment, for the CLI's own output scrubber: found without
 * resolving the configuration, so a command whose configuration is refused still scrubs them.
 * Redis passwords are taken from REDIS_URL and every REDIS_CLUSTER_NODES entry, as written and decoded.
 */
export function envSecretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values: string[] = [];
  for (const name of SECRET_ENV_NAMES) {
    const value = env[name];
    if (value !== undefined) values.push(value, value.trim(), encodeURIComponent(value.trim()));
  }
  for (const url of [env.REDIS_URL ?? '', ...(env.REDIS_CLUSTER_NODES ?? '').split(',')]) {
    const password = redisPassword(url.trim());
    if (password !== undefined) values.push(password, safeDecode(password));
  }
  return [...new Set(values.filter((v) => v !== ''))];
}

/** Where Redis is, for people: the cluster's nodes, or the URL without its password. */
export function displayRedis(redis: Config['redis']): string {
  return redis.cluster === undefined ? displayRedisUrl(redis.url) : displayCluster(redis.cluster);
}
