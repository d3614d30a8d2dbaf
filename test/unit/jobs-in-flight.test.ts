import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { jobsInFlight } from '../../src/queue/jobs-in-flight.js';

const job = (id: string): Job => ({ id }) as Job;
const renewalFailed = (id: string): Error => new Error(`could not renew lock for job ${id}`);

describe('jobsInFlight', () => {
  it('calls a failed renewal late only once the processor has let the job go', async () => {
    const inFlight = jobsInFlight();
    let finish: () => void = () => undefined;
    const processor = inFlight.track(() => new Promise<string>((resolve) => (finish = () => resolve('done'))));
    const running = processor(job('42'));
    expect(inFlight.isLateRenewal(renewalFailed('42'))).toBe(false);
    finish();
    await expect(running).resolves.toBe('done');
    expect(inFlight.isLateRenewal(renewalFailed('42'))).toBe(true);
  });

  it('keeps a job in flight while a second run of the same id is still going, and after a processor throws lets it go', async () => {
    const inFlight = jobsInFlight();
    const releases: Array<() => void> = [];
    const processor = inFlight.track(() => new Promise<void>((resolve) => releases.push(resolve)));
    const first = processor(job('7'));
    const second = processor(job('7'));
    releases[0]?.();
    await first;
    expect(inFlight.isLateRenewal(renewalFailed('7'))).toBe(false);
    releases[1]?.();
    await second;
    expect(inFlight.isLateRenewal(renewalFailed('7'))).toBe(true);

    const failing = inFlight.track(() => Promise.reject(new Error('boom')));
    await expect(failing(job('8'))).rejects.toThrow('boom');
    expect(inFlight.isLateRenewal(renewalFailed('8'))).toBe(true);
  });

  it('never hides another error, nor a lock lost at the finish', () => {
    const inFlight = jobsInFlight();
    expect(inFlight.isLateRenewal(new Error('Missing lock for job 42. moveToFinished'))).toBe(false);
    expect(inFlight.isLateRenewal(new Error('Connection is closed.'))).toBe(false);
  });
});
