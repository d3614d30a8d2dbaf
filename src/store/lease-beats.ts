/**
 * Which lease beats this process still has to send. Every job start and finish may beat its
 * run's lease (run-lua.ts beatLease), and the script writes a beat at most once a second; but
 * even deciding that costs the script two Redis commands (read the lease, read the clock) per
 * call. So each process asks for a beat at most once a second per run, and its other calls skip
 * it. Why that is safe: a lease is judged stale after tens of seconds without a beat
 * (reconcile.staleLeaseMs), and a process working on a run still asks at least once a second.
 * The local clock only spaces the requests; the beat written is Redis's time.
 */

/** Least time between two beats this process asks for, per run. */
export const BEAT_EVERY_MS = 1000;

/** How many runs' last beats are kept before the old ones are forgotten. */
const REMEMBERED = 256;

export class LeaseBeats {
  private readonly sentAt = new Map<string, number>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** True when this call should beat `runId`'s lease of `chatbot` (and notes that it did). */
  due(chatbot: string, runId: string): boolean {
    const now = this.clock();
    const name = `${chatbot}\t${runId}`;
    const last = this.sentAt.get(name);
    if (last !== undefined && now - last < BEAT_EVERY_MS) return false;
    this.sentAt.set(name, now);
    if (this.sentAt.size > REMEMBERED) this.forgetOld(now);
    return true;
  }

  private forgetOld(now: number): void {
    for (const [name, at] of this.sentAt) if (now - at >= BEAT_EVERY_MS) this.sentAt.delete(name);
  }
}
