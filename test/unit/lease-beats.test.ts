import { describe, expect, it } from 'vitest';
import { BEAT_EVERY_MS, LeaseBeats } from '../../src/store/lease-beats.js';

describe('LeaseBeats', () => {
  it('asks for a beat at most once a second per run, each run on its own', () => {
    let now = 10_000;
    const beats = new LeaseBeats(() => now);
    expect(beats.due('bot', 'run-a')).toBe(true);
    expect(beats.due('bot', 'run-a')).toBe(false);
    expect(beats.due('bot', 'run-b')).toBe(true);
    expect(beats.due('other', 'run-a')).toBe(true);
    now += BEAT_EVERY_MS - 1;
    expect(beats.due('bot', 'run-a')).toBe(false);
    now += 1;
    expect(beats.due('bot', 'run-a')).toBe(true);
  });

  it('forgets old runs once it remembers many, and still asks for their beat when they come back', () => {
    let now = 0;
    const beats = new LeaseBeats(() => now);
    for (let i = 0; i < 300; i += 1) expect(beats.due('bot', `run-${i}`)).toBe(true);
    now += BEAT_EVERY_MS;
    expect(beats.due('bot', 'run-0')).toBe(true);
    expect(beats.due('bot', 'run-0')).toBe(false);
  });
});
