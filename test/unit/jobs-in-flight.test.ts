import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { jobsInFlight } from '../../src/queue/jobs-in-flight.js';

const job = (id: string): Job => ({ id }) as Job;
const renewalFailed = (id: string): Error => new Error(`could not renew lock for job ${id}`);
/** BullMQ's timer renews runs older than 7.5 s with the default 30 s lock. */
const RENEWED_AFTER_MS = 7500;

function clocked(): { now: { ms: number }; inFlight: ReturnType<typeof jobsInFlight> } {
  const now = { ms: 1_000_000 };
  return { now, inFlight: jobsInFlight({ renewedAfterMs: RENEWED_AFTER_MS, clock: () => now.ms }) };
}

describe('jobsInFlight', () => {
  it('a failed renewal while a run old enough to be renewed is in the processor is a lost lock; once it ends, late', async () => {
    const { now, inFlight } = clocked();
    let finish: () => void = () => undefined;
    const processor = inFlight.track(() => new Promise<string>((resolve) => (finish = () => resolve('done'))));
    const running = processor(job('42'));
    now.ms += 20_000;
    expect(inFlight.isLateRenewal(renewalFailed('42'))).toBe(false);
    finish();
    await expect(running).resolves.toBe('done');
    expect(inFlight.isLateRenewal(renewalFailed('42'))).toBe(true);
  });

  it('a job taken again under a new lock (put back at the end of an outage): the failed renewal of its earlier run is late', async () => {
    const { now, inFlight } = clocked();
    const releases: Array<() => void> = [];
    const processor = inFlight.track(() => new Promise<void>((resolve) => releases.push(resolve)));
    const earlier = processor(job('9'));
    now.ms += 20_000;
    releases[0]?.();
    await earlier;
    const again = processor(job('9'));
    now.ms += 50;
    expect(inFlight.isLateRenewal(renewalFailed('9'))).toBe(true);
    // The new run, once old enough for BullMQ to renew it, is watched again.
    now.ms += RENEWED_AFTER_MS;
    expect(inFlight.isLateRenewal(renewalFailed('9'))).toBe(false);
    releases[1]?.();
    await again;
  });

  it('keeps an old run counted while a second run of the same id goes on, and lets a run go when its processor throws', async () => {
    const { now, inFlight } = clocked();
    const releases: Array<() => void> = [];
    const processor = inFlight.track(() => new Promise<void>((resolve) => releases.push(resolve)));
    const first = processor(job('7'));
    now.ms += 20_000;
    const second = processor(job('7'));
    expect(inFlight.isLateRenewal(renewalFailed('7'))).toBe(false);
    releases[1]?.();
    await second;
    expect(inFlight.isLateRenewal(renewalFailed('7'))).toBe(false);
    releases[0]?.();
    await first;
    expect(inFlight.isLateRenewal(renewalFailed('7'))).toBe(true);

    const failing = inFlight.track(() => Promise.reject(new Error('boom')));
    await expect(failing(job('8'))).rejects.toThrow('boom');
    expect(inFlight.isLateRenewal(renewalFailed('8'))).toBe(true);
  });

  it('never hides another error, nor a lock lost at the finish', () => {
    const { inFlight } = clocked();
    expect(inFlight.isLateRenewal(new Error('Missing lock for job 42. moveToFinished'))).toBe(false);
    expect(inFlight.isLateRenewal(new Error('Connection is closed.'))).toBe(false);
  });
});
