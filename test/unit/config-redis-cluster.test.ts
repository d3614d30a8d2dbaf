/**
 * REDIS_CLUSTER_NODES / --redis-cluster-nodes: seed nodes as host:port or URL entries; a URL's
 * password, user and TLS apply to every node; bad lists are one clear message that never echoes
 * a password; the password counts as a secret (scrubbed from output) and is never displayed.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { displayRedis, secretValues } from '../../src/config/config-display.js';
import { storeKeys } from '../../src/store/keys.js';

function problemOf(env: Record<string, string>): string {
  try {
    resolveConfig({ env });
  } catch (thrown) {
    return thrown instanceof Error ? thrown.message : String(thrown);
  }
  return '';
}

describe('REDIS_CLUSTER_NODES', () => {
  it('selects a cluster from host:port entries, REDIS_URL left aside', () => {
    const config = resolveConfig({ env: { REDIS_CLUSTER_NODES: '10.0.0.5:6379, 10.0.0.6:7000,[::1]:7001' } });
    expect(config.redis.cluster).toEqual({
      nodes: [
        { host: '10.0.0.5', port: 6379 },
        { host: '10.0.0.6', port: 7000 },
        { host: '::1', port: 7001 },
      ],
      tls: false,
    });
    expect(displayRedis(config.redis)).toBe('cluster 10.0.0.5:6379,10.0.0.6:7000,[::1]:7001');
    expect(resolveConfig({ env: {} }).redis.cluster).toBeUndefined();
  });

  it('takes password, user and TLS from a URL entry for every node; the password is a secret and never shown', () => {
    const config = resolveConfig({
      env: { REDIS_CLUSTER_NODES: 'rediss://ops:s%40cret@redis-1.example:6380,redis-2.example:6380' },
      flags: {},
    });
    expect(config.redis.cluster).toMatchObject({ username: 'ops', password: 's@cret', tls: true });
    expect(secretValues(config)).toEqual(expect.arrayContaining(['s@cret', 's%40cret']));
    expect(displayRedis(config.redis)).toBe('cluster rediss redis-1.example:6380,redis-2.example:6380');
  });

  it('--redis-cluster-nodes wins over the environment', () => {
    const config = resolveConfig({ env: { REDIS_CLUSTER_NODES: 'a:1' }, flags: { redisClusterNodes: 'b:2' } });
    expect(config.redis.cluster?.nodes).toEqual([{ host: 'b', port: 2 }]);
  });

  it('refuses a bad list with one message naming the entry and the form, never echoing the value', () => {
    expect(problemOf({ REDIS_CLUSTER_NODES: 'redis-1:6379,redis-2' })).toMatch(/REDIS_CLUSTER_NODES.*entry 2 .*must be host:port/s);
    expect(problemOf({ REDIS_CLUSTER_NODES: 'http://x:1' })).toMatch(/entry 1 must be host:port or a redis:\/\/ or rediss:\/\/ URL/);
    const mixed = problemOf({ REDIS_CLUSTER_NODES: 'redis://:pw-alpha@a:1,redis://:pw-beta@b:2' });
    expect(mixed).toMatch(/different credentials/);
    expect(mixed).not.toMatch(/pw-alpha|pw-beta/);
    expect(problemOf({ REDIS_CLUSTER_NODES: 'redis://a:1,rediss://b:2' })).toMatch(/TLS on every node or on none/);
  });
});

describe('key layout', () => {
  it('keeps the original names on one Redis and tags every key of a chatbot, its runs included, on a cluster', () => {
    const single = storeKeys('p');
    expect(single.ledger('bot', 'MLSNumber')).toBe('p:ls:ledger:bot');
    expect(single.run('bot', 'run-1')).toBe('p:ls:run:run-1');
    const cluster = storeKeys('p', 'cluster');
    const own = [
      cluster.ledger('bot', 'URL'),
      cluster.tombstones('bot', 'MLSNumber'),
      cluster.failed('bot', 'MLSNumber'),
      cluster.claims('bot', 'URL'),
      cluster.lease('bot'),
      cluster.runsOfChatbot('bot'),
      cluster.run('bot', 'run-1'),
      cluster.runOutcomes('bot', 'run-1'),
      cluster.runAttempts('bot', 'run-1'),
      cluster.runJobs('bot', 'run-1'),
      cluster.runRejected('bot', 'run-1'),
    ];
    // Redis hashes the text between the first '{' and the next '}': the same for all of them.
    for (const key of own) expect(/\{([^}]*)\}/.exec(key)?.[1]).toBe('bot');
    const head = cluster.chatbotKeyHead('runsOfChatbot');
    expect(cluster.chatbotOfKey(head, cluster.runsOfChatbot('a:b'))).toBe('a:b');
    expect(single.chatbotOfKey(single.chatbotKeyHead('tombstones', 'URL'), single.tombstones('x', 'URL'))).toBe('x');
  });
});
