import { describe, expect, it } from 'vitest';
import { anyJobKind, jobKind } from '../../jobs/registry.js';
import { QUEUE_NAMES } from '../../src/queue/queues.js';

describe('job registry', () => {
  it('finds each kind only in its own queue', () => {
    expect(jobKind(QUEUE_NAMES.alerts, 'deliver-alert')?.name).toBe('deliver-alert');
    expect(jobKind(QUEUE_NAMES.writes, 'deliver-alert')).toBeUndefined();
    expect(jobKind(QUEUE_NAMES.writes, 'write-listings')?.queue).toBe(QUEUE_NAMES.writes);
    expect(jobKind(QUEUE_NAMES.syncRuns, 'sync-run')?.queue).toBe(QUEUE_NAMES.syncRuns);
    expect(jobKind(QUEUE_NAMES.alerts, 'sync-run')).toBeUndefined();
    expect(anyJobKind('no-such-kind')).toBeUndefined();
  });

  it('says a delivery that cannot succeed on retry is final', () => {
    const kind = jobKind(QUEUE_NAMES.alerts, 'deliver-alert');
    expect(kind?.finalOn?.(Object.assign(new Error('404'), { retryable: false }))).toBe(true);
    expect(kind?.finalOn?.(Object.assign(new Error('503'), { retryable: true }))).toBe(false);
  });
});
