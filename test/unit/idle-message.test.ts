/**
 * The line a waiting command prints when its run shows no progress: it names the likeliest
 * cause from what the queue is doing (no worker, a paused queue, jobs held by another or a
 * stopped process), and the general line when the queue could not be read.
 */
import { describe, expect, it } from 'vitest';
import { idleMessage } from '../../src/cli/output/idle-message.js';
import { quietForMs } from '../../src/store/lease.js';

const base = { runId: 'run-1', idleMs: 11_400, workersHere: true };

describe('idleMessage', () => {
  it('without workers here: start a worker, or finish the run here', () => {
    expect(idleMessage({ ...base, workersHere: false })).toBe(
      'run run-1: no worker is working on it (nothing for 11 s): start `listing-sync worker`, or finish it here with `listing-sync runs resume run-1 --work`',
    );
  });

  it('a paused queue: says so and how to resume it', () => {
    const line = idleMessage({ ...base, queue: { paused: true, active: 3, ready: 10 } });
    expect(line).toMatch(
      /^run run-1: no job started or finished for 11 s: the writes queue is paused; resume it with `listing-sync jobs resume`$/,
    );
  });

  it('jobs held elsewhere and none ready: another process holds them, or one that stopped, for up to its send window', () => {
    const line = idleMessage({ ...base, queue: { paused: false, active: 4, ready: 0 }, heldForMs: 69_500 });
    expect(line).toMatch(/4 jobs are held by another worker process, or by one that stopped/);
    expect(line).toMatch(/up to ~70 s after it stopped/);
    expect(line).not.toMatch(/is Redis answering/);
  });

  it('a run not all in the queue yet and nothing ready: its enqueuer may have stopped, and what follows once its lease is stale', () => {
    for (const queue of [undefined, { paused: false, active: 0, ready: 0 }]) {
      const line = idleMessage({ ...base, enqueuing: true, ...(queue === undefined ? {} : { queue }) });
      expect(line).toMatch(/the run is not all in the queue yet, and the process adding its jobs may have stopped/);
      expect(line).toMatch(/the jobs it never added are recorded as failed and the rest finishes here/);
      expect(line).not.toMatch(/is Redis answering/);
    }
    // Jobs ready but none started is not the enqueuer's doing: the general line.
    expect(idleMessage({ ...base, enqueuing: true, queue: { paused: false, active: 0, ready: 3 } })).toMatch(/is Redis answering/);
  });

  it('the queue unread (Redis away) or jobs ready but none started: the general line', () => {
    const general =
      /^run run-1: no job started or finished for 11 s \(is Redis answering\? is the queue paused\? see `listing-sync jobs resume`\)$/;
    expect(idleMessage(base)).toMatch(general);
    expect(idleMessage({ ...base, queue: { paused: false, active: 2, ready: 5 } })).toMatch(general);
  });
});

describe('how long a run has been quiet', () => {
  const lease = { runId: 'run-1', holder: 'host pid 1 (cli)', since: 1_700_000_000_000, readAt: 1_700_000_600_000 };

  it('counts from the stop a Ctrl-C noted, not from 1970, once the lease was marked stale', () => {
    expect(quietForMs({ ...lease, beat: 0, stoppedAt: 1_700_000_300_000 })).toBe(300_000);
    expect(quietForMs({ ...lease, beat: 0 })).toBeUndefined();
    expect(quietForMs({ ...lease, beat: 1_700_000_590_000 })).toBe(10_000);
  });

  it('is said in words in the idle line', () => {
    expect(idleMessage({ ...base, workersHere: false, idleMs: 7_500_000 })).toContain('(nothing for 2 h 05 min)');
  });
});
