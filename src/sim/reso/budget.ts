/**
 * The request budget of an MLS (MLS Grid: 2/s, 7200/h, 40000/day, 4 GB/h). Windows roll (any
 * second, any hour, any day): the strictest reading of a published budget, so a client that
 * passes here passes a server counting calendar windows too. Exceeding it SUSPENDS the client,
 * as MLS Grid does: every request is refused with 429 until an admin resets the budget.
 */
import type { ResoBudget } from './types.js';

const SECOND = 1000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Amounts added at instants, summed over the last `spanMs`. */
class RollingWindow {
  private at: number[] = [];
  private amounts: number[] = [];
  private head = 0;
  private sum = 0;

  constructor(private readonly spanMs: number) {}

  add(now: number, amount: number): number {
    this.at.push(now);
    this.amounts.push(amount);
    this.sum += amount;
    return this.total(now);
  }

  /** The sum of what was added in (now − span, now]. */
  total(now: number): number {
    while (this.head < this.at.length && (this.at[this.head] ?? now) <= now - this.spanMs) {
      this.sum -= this.amounts[this.head] ?? 0;
      this.head += 1;
    }
    // Why compact: a day window over a long benchmark would otherwise keep every entry.
    if (this.head > 4096 && this.head * 2 > this.at.length) {
      this.at = this.at.slice(this.head);
      this.amounts = this.amounts.slice(this.head);
      this.head = 0;
    }
    return this.sum;
  }
}

/** Requests in the rolling second, hour and day that ends with the request just seen. */
export interface WindowCounts {
  perSecond: number;
  perHour: number;
  perDay: number;
}

export class RequestBudget {
  private limits: ResoBudget;
  private second = new RollingWindow(SECOND);
  private hour = new RollingWindow(HOUR);
  private day = new RollingWindow(DAY);
  private bytes = new RollingWindow(HOUR);
  private suspension: string | undefined;

  constructor(limits: ResoBudget = {}) {
    this.limits = { ...limits };
  }

  setLimits(limits: ResoBudget): void {
    this.limits = { ...limits };
  }

  current(): ResoBudget {
    return { ...this.limits };
  }

  /**
   * Counts a request at `now` (every request the server sees counts, refused ones too) and
   * suspends the client when it breaks a limit. Returns the window counts.
   */
  count(now: number): WindowCounts {
    const counts = { perSecond: this.second.add(now, 1), perHour: this.hour.add(now, 1), perDay: this.day.add(now, 1) };
    const { perSecond, perHour, perDay } = this.limits;
    if (perSecond !== undefined && counts.perSecond > perSecond)
      this.suspend(`${counts.perSecond} requests in one second (budget ${perSecond}/s)`);
    else if (perHour !== undefined && counts.perHour > perHour)
      this.suspend(`${counts.perHour} requests in one hour (budget ${perHour}/h)`);
    else if (perDay !== undefined && counts.perDay > perDay) this.suspend(`${counts.perDay} requests in one day (budget ${perDay}/day)`);
    return counts;
  }

  /** Adds response bytes; the answer that crosses the byte budget is served, the next ones are refused. */
  countBytes(now: number, bytes: number): void {
    const total = this.bytes.add(now, bytes);
    const limit = this.limits.bytesPerHour;
    if (limit !== undefined && total > limit) this.suspend(`${total} bytes in one hour (budget ${limit} bytes/h)`);
  }

  /** Why the client is suspended, or undefined. */
  suspended(): string | undefined {
    return this.suspension;
  }

  /** Lifts a suspension and forgets every window (the limits stay). */
  reset(): void {
    this.suspension = undefined;
    this.second = new RollingWindow(SECOND);
    this.hour = new RollingWindow(HOUR);
    this.day = new RollingWindow(DAY);
    this.bytes = new RollingWindow(HOUR);
  }

  private suspend(reason: string): void {
    this.suspension ??= reason;
  }
}
