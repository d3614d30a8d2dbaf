import { describe, expect, it } from 'vitest';
import { requireApiBase, requireSiteUrl, resolveConfig } from '../../src/config/config.js';
import { secretValues } from '../../src/config/config-display.js';
import { displayRedisUrl } from '../../src/config/redis-url-display.js';
import { DEFAULT_RETRY_TABLE } from '../../src/api/retry-policy.js';

function configError(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (thrown) {
    const err = thrown as { code: string; message: string };
    return { code: err.code, message: err.message };
  }
  throw new Error('expected a CONFIG error');
}

describe('resolveConfig', () => {
  it('opens as many connections to the service as --concurrency when that is more than 16, unless LISTING_SYNC_CONNECTIONS says', () => {
    expect(resolveConfig({ env: {}, flags: { concurrency: '64' } }).api.connections).toBe(64);
    expect(resolveConfig({ env: { LISTING_SYNC_CONCURRENCY: '4' } }).api.connections).toBe(16);
    expect(resolveConfig({ env: { LISTING_SYNC_CONNECTIONS: '8' }, flags: { concurrency: '64' } }).api.connections).toBe(8);
  });

  it('fills every default from an empty env', () => {
    const config = resolveConfig({ env: {} });
    expect(config.api.baseUrl).toBeUndefined();
    expect(config.api.siteUrl).toBeUndefined();
    expect(config.api.credentials).toEqual({ secretKey: undefined, sessionKey: undefined, projectAuthToken: undefined });
    expect(config.api.timeouts).toEqual({ connectMs: 5000, headersMs: 30_000, bodyMs: 30_000 });
    expect(config.api.connections).toBe(16);
    expect(config.api.retryOverride).toEqual({});
    expect(config.api.retryTable).toEqual(DEFAULT_RETRY_TABLE);
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'listing-sync' });
    expect(config.worker).toEqual({
      concurrency: 8,
      globalConcurrency: undefined,
      permitTtlMs: 10_000,
      rate: undefined,
      reconcileMs: 30_000,
      stuckAfterMs: 30 * 60_000,
    });
    expect(config.jobs).toEqual({
      attempts: 10,
      backoffMs: 1000,
      backoffMaxMs: 60_000,
      keepCompleted: 0,
      keepFailed: 10_000,
      deleteBatchSize: 100,
      listingsPerJob: 8,
    });
    expect(config.logLevel).toBe('info');
  });

  it('reads every env name', () => {
    const config = resolveConfig({
      env: {
        API_BASE_URL: 'https://api.example.com/v/',
        SITE_URL: 'https://site.example.com',
        API_SECRET_KEY: 'sk',
        API_SESSION_KEY: 'ss',
        PROJECT_AUTH_TOKEN: 'pt',
        REDIS_URL: 'rediss://user:pw@redis.example:6380/2',
        LISTING_SYNC_PREFIX: '{ls}',
        LISTING_SYNC_CONCURRENCY: '3',
        LISTING_SYNC_GLOBAL_CONCURRENCY: '20',
        LISTING_SYNC_PERMIT_TTL_MS: '2500',
        LISTING_SYNC_RATE: '300/min',
        LISTING_SYNC_ATTEMPTS: '4',
        LISTING_SYNC_BACKOFF_MS: '10',
        LISTING_SYNC_BACKOFF_MAX_MS: '100',
        LISTING_SYNC_KEEP_COMPLETED: '0',
        LISTING_SYNC_KEEP_FAILED: '5',
        LISTING_SYNC_DELETE_BATCH: '7',
        LISTING_SYNC_RECONCILE_MS: '500',
        LISTING_SYNC_STUCK_AFTER_MIN: '2',
        LISTING_SYNC_TIMEOUT_CONNECT_MS: '11',
        LISTING_SYNC_TIMEOUT_HEADERS_MS: '12',
        LISTING_SYNC_TIMEOUT_BODY_MS: '13',
        LISTING_SYNC_CONNECTIONS: '2',
        LISTING_SYNC_RETRY_ENVELOPE_CODES: '500,1001-1003',
        LISTING_SYNC_RETRY_HTTP_STATUSES: '503',
        LOG_LEVEL: 'DEBUG',
      },
    });
    expect(config.api.baseUrl).toBe('https://api.example.com/v');
    expect(config.api.siteUrl).toBe('https://site.example.com');
    expect(config.api.credentials).toEqual({ secretKey: 'sk', sessionKey: 'ss', projectAuthToken: 'pt' });
    expect(config.api.timeouts).toEqual({ connectMs: 11, headersMs: 12, bodyMs: 13 });
    expect(config.api.connections).toBe(2);
    expect(config.api.retryOverride).toEqual({ envelopeCodes: [500, { from: 1001, to: 1003 }], httpStatuses: [503] });
    expect(config.api.retryTable.envelopeCodes).toEqual([500, { from: 1001, to: 1003 }]);
    expect(config.api.retryTable.errorCodes).toEqual(DEFAULT_RETRY_TABLE.errorCodes);
    expect(config.redis).toEqual({ url: 'rediss://user:pw@redis.example:6380/2', prefix: '{ls}' });
    expect(config.worker).toEqual({
      concurrency: 3,
      globalConcurrency: 20,
      permitTtlMs: 2500,
      rate: { max: 300, durationMs: 60_000 },
      reconcileMs: 500,
      stuckAfterMs: 120_000,
    });
    expect(config.jobs).toEqual({
      attempts: 4,
      backoffMs: 10,
      backoffMaxMs: 100,
      keepCompleted: 0,
      keepFailed: 5,
      deleteBatchSize: 7,
      listingsPerJob: 8,
    });
    expect(config.logLevel).toBe('debug');
  });

  it('LISTING_SYNC_PERMIT_TTL_MS: a whole number of ms from 200 (a lease renewed every TTL/10 at most)', () => {
    for (const bad of ['0', '199', '1.5', 'ten'])
      expect(() => resolveConfig({ env: { LISTING_SYNC_PERMIT_TTL_MS: bad } }), bad).toThrow(/LISTING_SYNC_PERMIT_TTL_MS/);
    expect(resolveConfig({ env: { LISTING_SYNC_PERMIT_TTL_MS: '200' } }).worker.permitTtlMs).toBe(200);
  });

  it('LISTING_SYNC_LISTINGS_PER_JOB: a listing write is a batch of 1 to 8', () => {
    for (const bad of ['0', '9', '64', '2.5'])
      expect(() => resolveConfig({ env: { LISTING_SYNC_LISTINGS_PER_JOB: bad } }), bad).toThrow(/LISTING_SYNC_LISTINGS_PER_JOB/);
    expect(resolveConfig({ env: { LISTING_SYNC_LISTINGS_PER_JOB: '1' } }).jobs.listingsPerJob).toBe(1);
    expect(resolveConfig({ env: {} }).jobs.listingsPerJob).toBe(8);
  });

  it('defaults SITE_URL to the origin of API_BASE_URL', () => {
    expect(resolveConfig({ env: { API_BASE_URL: 'http://127.0.0.1:8080/api' } }).api.siteUrl).toBe('http://127.0.0.1:8080');
  });

  it('lets flags override env, and env override the file', () => {
    const config = resolveConfig({
      env: { API_BASE_URL: 'http://env.example', LISTING_SYNC_CONCURRENCY: '4', REDIS_URL: 'redis://env:6379' },
      flags: { apiBaseUrl: 'http://flag.example', concurrency: '5', rate: '10', logLevel: 'warn', prefix: 'p1' },
      file: { REDIS_URL: 'redis://file:6379', LISTING_SYNC_ATTEMPTS: 3, LISTING_SYNC_CONCURRENCY: 9 },
    });
    expect(config.api.baseUrl).toBe('http://flag.example');
    expect(config.worker.concurrency).toBe(5);
    expect(config.worker.rate).toEqual({ max: 10, durationMs: 1000 });
    expect(config.logLevel).toBe('warn');
    expect(config.redis).toEqual({ url: 'redis://env:6379', prefix: 'p1' });
    expect(config.jobs.attempts).toBe(3);
  });

  it('treats empty strings as unset in env and flags', () => {
    const config = resolveConfig({
      env: { API_BASE_URL: '', API_SECRET_KEY: '', LISTING_SYNC_CONCURRENCY: '  ', REDIS_URL: '' },
      flags: { logLevel: '', apiBaseUrl: '' },
    });
    expect(config.api.baseUrl).toBeUndefined();
    expect(config.api.credentials.secretKey).toBeUndefined();
    expect(config.worker.concurrency).toBe(8);
    expect(config.redis.url).toBe('redis://127.0.0.1:6379');
    expect(config.logLevel).toBe('info');
  });

  it('reports every problem at once, one line each, naming the flag when a flag set it', () => {
    const err = configError(() =>
      resolveConfig({
        env: { API_BASE_URL: 'foo', REDIS_URL: 'http://x', LISTING_SYNC_PREFIX: 'a:b', LISTING_SYNC_ATTEMPTS: 'many', LOG_LEVEL: 'loud' },
        flags: { concurrency: '0', rate: 'fast' },
      }),
    );
    expect(err.code).toBe('CONFIG');
    const lines = err.message.split('\n');
    expect(lines[0]).toBe('invalid configuration:');
    expect(lines.slice(1)).toEqual([
      "  API_BASE_URL: must be an http(s) URL (got 'foo')",
      "  REDIS_URL: must be a redis:// or rediss:// URL (got 'http://x')",
      "  LISTING_SYNC_PREFIX: may hold only letters, digits and _ { } . - (a Redis Cluster hash tag like {ls} works) (got 'a:b')",
      "  LISTING_SYNC_CONCURRENCY (--concurrency): must be a whole number from 1 to 256 (got '0')",
      "  LISTING_SYNC_RATE (--rate): must be a rate like '50/s', '300/min', '10/500ms' or '50' (per second), at least 1 (got 'fast')",
      "  LISTING_SYNC_ATTEMPTS: must be a whole number from 1 to 1000 (got 'many')",
      "  LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got 'loud')",
    ]);
  });

  it('checks backoff max against backoff and reports file problems', () => {
    const err = configError(() =>
      resolveConfig({
        env: { LISTING_SYNC_BACKOFF_MS: '5000', LISTING_SYNC_BACKOFF_MAX_MS: '100' },
        file: { NOPE: '1', LISTING_SYNC_ATTEMPTS: {} },
      }),
    );
    expect(err.message).toContain("config file: unknown setting 'NOPE'");
    expect(err.message).toContain('config file: LISTING_SYNC_ATTEMPTS must be a string or a number');
    expect(err.message).toContain("LISTING_SYNC_BACKOFF_MAX_MS: must be at least LISTING_SYNC_BACKOFF_MS (5000) (got '100')");
    expect(configError(() => resolveConfig({ env: {}, file: [1] })).message).toContain('config file: must be a JSON object');
  });

  it('never puts a secret value in a message', () => {
    const err = configError(() =>
      resolveConfig({
        env: {
          API_SECRET_KEY: 'Sekr3tValue\n',
          API_SESSION_KEY: 'Sess10nValue\u0001',
          PROJECT_AUTH_TOKEN: 'Tok3nValue\u007f',
          REDIS_URL: 'http://:RedisPw1@host:6379',
          API_BASE_URL: 'ftp://user:UrlPw2@host',
        },
      }),
    );
    expect(err.message).toContain('API_SECRET_KEY: must not contain line breaks or control characters');
    expect(err.message).toContain('PROJECT_AUTH_TOKEN: must not contain');
    expect(err.message).toContain("REDIS_URL: must be a redis:// or rediss:// URL (got 'http://:***@host:6379')");
    for (const secret of ['Sekr3tValue', 'Sess10nValue', 'Tok3nValue', 'RedisPw1', 'UrlPw2']) expect(err.message).not.toContain(secret);
    const malformed = configError(() => resolveConfig({ env: { REDIS_URL: 'redis//:Hidden9@host' } }));
    expect(malformed.message).not.toContain('Hidden9');
  });

  it.each([
    ['50', { max: 50, durationMs: 1000 }],
    ['50/s', { max: 50, durationMs: 1000 }],
    ['50 / sec', { max: 50, durationMs: 1000 }],
    ['300/min', { max: 300, durationMs: 60_000 }],
    ['300/m', { max: 300, durationMs: 60_000 }],
    ['1000/h', { max: 1000, durationMs: 3_600_000 }],
    ['10/500ms', { max: 10, durationMs: 500 }],
  ])('parses the rate %s', (text, expected) => {
    expect(resolveConfig({ env: { LISTING_SYNC_RATE: text } }).worker.rate).toEqual(expected);
  });

  it.each(['0', '0/s', '-5', '5/d', '5/0ms', '1.5/s', 'x/s'])('rejects the rate %s', (text) => {
    expect(configError(() => resolveConfig({ env: { LISTING_SYNC_RATE: text } })).message).toContain('LISTING_SYNC_RATE');
  });

  it('rejects a bad retry override through the retry policy schema', () => {
    const err = configError(() => resolveConfig({ env: { LISTING_SYNC_RETRY_HTTP_STATUSES: '503,abc' } }));
    expect(err.message).toMatch(/LISTING_SYNC_RETRY_HTTP_STATUSES: .*abc/);
  });
});

describe('secretValues and displayRedisUrl', () => {
  it('lists the credentials and the Redis password (raw and decoded)', () => {
    const config = resolveConfig({
      env: {
        API_SECRET_KEY: 'a-secret',
        API_SESSION_KEY: 'a-session',
        PROJECT_AUTH_TOKEN: 'a-token',
        REDIS_URL: 'redis://u:p%40ss-w0rd@h:1/0',
      },
    });
    expect(secretValues(config).sort()).toEqual(['a-secret', 'a-session', 'a-token', 'p%40ss-w0rd', 'p@ss-w0rd'].sort());
    expect(secretValues(resolveConfig({ env: {} }))).toEqual([]);
  });

  it('masks the password only', () => {
    expect(displayRedisUrl('redis://:SuperSecretRedisPw@127.0.0.1:1/0')).toBe('redis://:***@127.0.0.1:1/0');
    expect(displayRedisUrl('rediss://user:pw@host:6380')).toBe('rediss://user:***@host:6380');
    expect(displayRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(displayRedisUrl('redis://user@host')).toBe('redis://user@host');
  });
});

describe('feed auth (FEED_OAUTH_*, FEED_TOKEN)', () => {
  const oauthEnv = {
    FEED_OAUTH_TOKEN_URL: 'https://mls.example/oauth2/token/',
    FEED_OAUTH_CLIENT_ID: 'client-1',
    FEED_OAUTH_CLIENT_SECRET: 'feed-secret-value',
    FEED_OAUTH_SCOPE: '',
  };

  it('resolves the client-credentials set (empty scope = unset) and scrubs the secret', () => {
    const config = resolveConfig({ env: oauthEnv });
    expect(config.feedAuth).toEqual({
      oauth: { tokenUrl: 'https://mls.example/oauth2/token', clientId: 'client-1', clientSecret: 'feed-secret-value' },
    });
    expect(secretValues(config)).toEqual(['feed-secret-value']);
    expect(resolveConfig({ env: {} }).feedAuth).toEqual({});
  });

  it('resolves a static token, a secret too', () => {
    const config = resolveConfig({ env: { FEED_TOKEN: 'static-feed-token', FEED_OAUTH_CLIENT_ID: '' } });
    expect(config.feedAuth).toEqual({ token: 'static-feed-token' });
    expect(secretValues(config)).toEqual(['static-feed-token']);
  });

  it('refuses a half-configured OAuth set in one CONFIG error naming what is missing, never the secret', () => {
    const err = configError(() => resolveConfig({ env: { FEED_OAUTH_CLIENT_SECRET: 'feed-secret-value', FEED_OAUTH_CLIENT_ID: 'c' } }));
    expect(err.code).toBe('CONFIG');
    expect(err.message).toMatch(/missing: FEED_OAUTH_TOKEN_URL$/m);
    expect(err.message).not.toContain('feed-secret-value');
    const both = configError(() => resolveConfig({ env: { ...oauthEnv, FEED_TOKEN: 'static-feed-token' } }));
    expect(both.message).toContain('not both');
    expect(both.message).not.toContain('static-feed-token');
  });

  it('never echoes a malformed secret', () => {
    const err = configError(() => resolveConfig({ env: { FEED_TOKEN: 'bad\ntoken-value' } }));
    expect(err.message).toContain('FEED_TOKEN');
    expect(err.message).not.toContain('token-value');
  });
});

describe('requireApiBase / requireSiteUrl', () => {
  it('names the env var and the flag', () => {
    const err = configError(() => requireApiBase(resolveConfig({ env: {} })));
    expect(err.code).toBe('CONFIG');
    expect(err.message).toContain('API_BASE_URL');
    expect(err.message).toContain('--api-base-url');
    expect(() => requireApiBase(resolveConfig({ env: { API_BASE_URL: 'http://x' } }))).not.toThrow();
    expect(configError(() => requireSiteUrl(resolveConfig({ env: {} }))).message).toContain('SITE_URL');
    expect(() => requireSiteUrl(resolveConfig({ env: { SITE_URL: 'http://x' } }))).not.toThrow();
  });
});
