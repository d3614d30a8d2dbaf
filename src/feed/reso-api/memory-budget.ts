/**
 * A feed request budget held in this process's memory: the same windows and the same promise as
 * the Redis budget (src/store/feed-budget.ts), for one process alone (tests, a single local run).
 * Windows roll (any second, hour, day), the strictest reading of a published limit.
 */
import { sleep as abortableSleep } from '../../net/abortable-sleep.js';
import { budgetExhausted, type FeedRequestBudget } from './budget.js';
import type { FeedBudgetSpec } from './budget-spec.js';

const SPAN_MS = { perSecond: 1000, perHour: 3_600_000, perDay: 86_400_000, bytesPerHour: 3_600_000 } as const;

export interface MemoryBudgetOptions {
  /** The clock, epoch ms (default Date.now). */
  now?: () => number;
  /** How the budget waits (default the project's abortable sleep). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Added to every window's span. Why: a request counted here reaches the server a little later,
   * so two requests counted 1000 ms apart may arrive 990 ms apart; default 250 ms, as the Redis budget.
   */
  marginMs?: number;
}

/** Amounts recorded at instants; what a window still holds at `now`. */
class Window {
  private readonly entries: Array<{ at: number; amount: number }> = [];

  constructor(
    readonly name: keyof FeedBudgetSpec,
    private readonly limit: number,
    private readonly spanMs: number,
  ) {}

  record(at: number, amount: number): void {
    this.entries.push({ at, amount });
  }

  /** Ms until the window holds less than its limit (0: now). */
  waitAt(now: number): number {
    while (this.entries.length > 0 && (this.entries[0]?.at ?? now) <= now - this.spanMs) this.entries.shift();
    let held = this.entries.reduce((sum, entry) => sum + entry.amount, 0);
    for (const entry of this.entries) {
      if (held < this.limit) break;
      held -= entry.amount;
      // This entry leaves the window at entry.at + span; past that instant the rest fits.
      if (held < this.limit) return entry.at + this.spanMs - now + 1;
    }
    return 0;
  }
}

/** A budget that waits in memory; `acquired` counts the requests it let through. */
export function memoryBudget(spec: FeedBudgetSpec, options: MemoryBudgetOptions = {}): FeedRequestBudget & { readonly acquired: number } {
  const now = options.now ?? Date.now;
  const wait = options.sleep ?? abortableSleep;
  const margin = options.marginMs ?? 250;
  const windows = (Object.keys(SPAN_MS) as Array<keyof FeedBudgetSpec>).flatMap((name) => {
    const limit = spec[name];
    return limit === undefined ? [] : [new Window(name, limit, SPAN_MS[name] + margin)];
  });
  const requestWindows = windows.filter((window) => window.name !== 'bytesPerHour');
  const bytesWindow = windows.find((window) => window.name === 'bytesPerHour');
  let acquired = 0;
  return {
    get acquired() {
      return acquired;
    },
    async acquire({ maxWaitMs, signal }) {
      const started = now();
      for (;;) {
        signal?.throwIfAborted();
        const at = now();
        const [binding, ms] = windows.reduce<[Window | undefined, number]>(
          (most, window) => {
            const ms = window.waitAt(at);
            return ms > most[1] ? [window, ms] : most;
          },
          [undefined, 0],
        );
        if (binding === undefined) {
          for (const window of requestWindows) window.record(at, 1);
          acquired += 1;
          return;
        }
        if (at - started + ms > maxWaitMs) throw budgetExhausted(binding.name, at + ms);
        await wait(ms, signal);
      }
    },
    addBytes(bytes) {
      bytesWindow?.record(now(), bytes);
      return Promise.resolve();
    },
    bytesRoom() {
      return Promise.resolve(bytesWindow === undefined || bytesWindow.waitAt(now()) === 0);
    },
  };
}
