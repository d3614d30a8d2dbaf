/** What of the configuration may be shown: the secret values every output scrubs, and Redis's address without its password. */
import type { Config } from './config.js';
import { feedAuthSecrets } from './feed-auth-config.js';
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

/** Where Redis is, for people: the cluster's nodes, or the URL without its password. */
export function displayRedis(redis: Config['redis']): string {
  return redis.cluster === undefined ? displayRedisUrl(redis.url) : displayCluster(redis.cluster);
}
