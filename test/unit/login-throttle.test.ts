/** The lockout's clock (src/dashboard/login-throttle.ts): the window slides, and a lockout ends after a minute. */
import { describe, expect, it } from 'vitest';
import { createLoginThrottle, LOCKOUT_MS, MAX_FAILURES, WINDOW_MS } from '../../src/dashboard/login-throttle.js';
import { silentLogger } from '../../src/runtime/logger.js';

describe('createLoginThrottle', () => {
  it('locks a client out after more than MAX_FAILURES wrong attempts within the window, for LOCKOUT_MS', () => {
    let now = 1_000_000;
    const throttle = createLoginThrottle(silentLogger(), () => now);
    for (let i = 0; i < MAX_FAILURES; i += 1) throttle.failed('a');
    expect(throttle.lockedFor('a')).toBe(0);
    throttle.failed('a');
    expect(throttle.lockedFor('a')).toBe(LOCKOUT_MS);
    expect(throttle.lockedFor('b')).toBe(0);
    now += LOCKOUT_MS - 1;
    expect(throttle.lockedFor('a')).toBe(1);
    now += 1;
    expect(throttle.lockedFor('a')).toBe(0);
    // After the lockout the count starts again.
    throttle.failed('a');
    expect(throttle.lockedFor('a')).toBe(0);
  });

  it('counts only the attempts within the last minute', () => {
    let now = 0;
    const throttle = createLoginThrottle(silentLogger(), () => now);
    for (let i = 0; i < 30; i += 1) {
      throttle.failed('slow');
      now += WINDOW_MS / MAX_FAILURES;
    }
    expect(throttle.lockedFor('slow')).toBe(0);
  });
});
