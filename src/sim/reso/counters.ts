/**
 * What the simulator counts: the figures tests and benchmarks assert (requests ÷ minimal pages,
 * records served by an incremental pull, the most requests seen in a second) and a capped log.
 */
import type { WindowCounts } from './budget.js';
import type { ResoCounters, ResoRequestLog } from './types.js';

/** The log keeps the newest entries only: a 100k replication must not grow it without bound. */
const LOG_LIMIT = 10_000;

const zero = (): ResoCounters => ({
  requests: 0,
  recordsServed: 0,
  mediaServed: 0,
  bytesServed: 0,
  maxPerSecond: 0,
  maxPerHour: 0,
  maxPerDay: 0,
  tokensIssued: 0,
  tooManyRequests: 0,
  unauthorized: 0,
  serverErrors: 0,
  badRequests: 0,
});

export class ResoCounterBook {
  private counts = zero();
  private log: ResoRequestLog[] = [];

  /** A resource request was seen; `windows` are the budget's rolling counts including it. */
  seen(windows: WindowCounts): void {
    const counts = this.counts;
    counts.requests += 1;
    counts.maxPerSecond = Math.max(counts.maxPerSecond, windows.perSecond);
    counts.maxPerHour = Math.max(counts.maxPerHour, windows.perHour);
    counts.maxPerDay = Math.max(counts.maxPerDay, windows.perDay);
  }

  /** A resource request was answered. */
  answered(entry: ResoRequestLog & { media: number }): void {
    const counts = this.counts;
    counts.recordsServed += entry.records;
    counts.mediaServed += entry.media;
    counts.bytesServed += entry.bytes;
    if (entry.status === 429) counts.tooManyRequests += 1;
    else if (entry.status === 401) counts.unauthorized += 1;
    else if (entry.status === 400) counts.badRequests += 1;
    else if (entry.status >= 500) counts.serverErrors += 1;
    const { media: _media, ...logged } = entry;
    this.log.push(logged);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  tokenIssued(): void {
    this.counts.tokensIssued += 1;
  }

  current(): ResoCounters {
    return { ...this.counts };
  }

  requests(): ResoRequestLog[] {
    return [...this.log];
  }

  reset(): void {
    this.counts = zero();
    this.log = [];
  }
}
