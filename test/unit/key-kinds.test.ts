/** The doctor's key classification (src/store/key-kinds.ts) and its text rendering. */
import { describe, expect, it } from 'vitest';
import { formatBytes, formatRedisReport } from '../../src/cli/output/doctor-format.js';
import { keyKind } from '../../src/store/key-kinds.js';
import { storeKeys } from '../../src/store/keys.js';
import { alertKeys } from '../../src/store/alert-keys.js';
import type { RedisReport } from '../../src/store/redis-report.js';

const P = '{ls}';
const keys = storeKeys(P);
const alerts = alertKeys(P);
const RUN = 'run-00mhx3k2q0-9f2c';

describe('keyKind', () => {
  it.each([
    [keys.ledger('bot:1', 'MLSNumber'), 'ledger'],
    [keys.ledger('bot', 'URL'), 'ledger'],
    [keys.tombstones('bot', 'MLSNumber'), 'tombstones'],
    [keys.tombstones('bot', 'URL'), 'tombstones'],
    [keys.failed('bot', 'URL'), 'failed-keys'],
    [keys.claims('bot', 'MLSNumber'), 'claims'],
    [keys.lease('bot'), 'leases'],
    [keys.runsAll(), 'run-indexes'],
    [keys.runsOpen(), 'run-indexes'],
    [keys.runsOfChatbot('bot'), 'run-indexes'],
    [keys.run('bot', RUN), 'run-records'],
    [keys.runOutcomes('bot', RUN), 'run-outcomes'],
    [keys.runAttempts('bot', RUN), 'run-attempts'],
    [keys.runJobs('bot', RUN), 'run-job-lists'],
    [keys.runRejected('bot', RUN), 'run-rejected-rows'],
    [keys.keyIndex('https://x.example/a:b'), 'key-index'],
    [keys.keyTouches('bot:1', 20000), 'key-index'],
    [storeKeys(P, 'cluster').keyTouches('bot', 20000), 'key-index'],
    [keys.keyTouchDays(), 'key-index'],
    [keys.callMetrics(), 'call-metrics'],
    [keys.mediaMetrics(), 'media-metrics'],
    [keys.requestPermits(), 'request-permits'],
    [storeKeys(P, 'cluster').requestPermits(), 'request-permits'],
    [keys.feedShape('bot:1', 'abc123'), 'feed-shapes'],
    [storeKeys(P, 'cluster').feedShape('bot', 'abc123'), 'feed-shapes'],
    [keys.feedMetadata('abc123'), 'feed-metadata'],
    [alerts.configs(), 'alerts'],
    [alerts.deliveries(), 'alerts'],
    [alerts.state('bot:1'), 'health'],
    [alerts.trackedChatbots(), 'health'],
    [`${P}:ls:retention-lock`, 'locks'],
    [`${P}:ls:something-new:x`, 'ls-other'],
    [`${P}:listing-writes:create.bot.MLSNumber.1.${RUN}`, 'bullmq:listing-writes:jobs'],
    [`${P}:listing-writes:create.bot.MLSNumber.1.${RUN}:logs`, 'bullmq:listing-writes:jobs'],
    [`${P}:listing-writes:events`, 'bullmq:listing-writes:events'],
    [`${P}:listing-writes:completed`, 'bullmq:listing-writes:completed'],
    [`${P}:listing-writes:failed`, 'bullmq:listing-writes:failed'],
    [`${P}:listing-writes:wait`, 'bullmq:listing-writes:waiting'],
    [`${P}:listing-writes:delayed`, 'bullmq:listing-writes:waiting'],
    [`${P}:sync-runs:meta`, 'bullmq:sync-runs:other'],
    [`${P}:sync-runs:repeat:abc:123`, 'bullmq:sync-runs:other'],
    [`${P}:sync-runs:metrics:completed`, 'bullmq:sync-runs:other'],
    ['elsewhere:ls:ledger:bot', 'other'],
  ])('%s is %s', (key, kind) => {
    expect(keyKind(P, key)).toBe(kind);
  });
});

describe('doctor text', () => {
  it('formats bytes', () => {
    expect([formatBytes(0), formatBytes(1023), formatBytes(1536), formatBytes(5 * 1024 ** 3)]).toEqual([
      '0 B',
      '1023 B',
      '1.5 KiB',
      '5.0 GiB',
    ]);
  });

  it('shows unknown settings with the reason, estimates with ~, and each warning', () => {
    const report: RedisReport = {
      prefix: 'p',
      memory: { usedBytes: 900, maxBytes: 1000, usedShare: 0.9 },
      settings: {
        maxmemoryPolicy: { value: 'noeviction', source: 'INFO' },
        appendonly: { value: 'yes', source: 'CONFIG GET' },
        appendfsync: { value: null, source: 'unknown', reason: 'CONFIG GET refused (NOPERM)' },
      },
      keys: {
        total: 30_000,
        bytes: 2048,
        measuredKeys: 20_000,
        estimated: true,
        kinds: [{ kind: 'key-index', keys: 30_000, bytes: 2048, measuredKeys: 20_000 }],
      },
      retention: { keepDays: 30, keepRuns: 200, runsPastRetention: 0 },
      warnings: [{ code: 'MEMORY_HIGH', message: 'used memory is 90%' }],
    };
    const text = formatRedisReport(report, 'redis://:***@h:1');
    expect(text).toContain('Redis redis://:***@h:1, prefix p');
    expect(text).toContain('memory:           900 B used of maxmemory 1000 B (90%)');
    expect(text).toContain('maxmemory-policy: noeviction (from INFO)');
    expect(text).toContain('appendfsync:      unknown: CONFIG GET refused (NOPERM)');
    expect(text).toMatch(/key-index\s+30,000\s+~2\.0 KiB/);
    expect(text).toContain('~ estimated: 20,000 of 30,000 keys measured');
    expect(text).toContain('warnings:\n  - used memory is 90%');
  });
});
