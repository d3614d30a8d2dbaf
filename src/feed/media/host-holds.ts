/**
 * Per-host pauses asked by a 429's Retry-After: a media host that paces us holds every download
 * to it (not to other hosts) until the moment it named.
 */
import { sleep } from '../../net/abortable-sleep.js';

export interface HostHolds {
  /** Waits until `host` is no longer held (at once when it is not). */
  wait(host: string, signal?: AbortSignal): Promise<void>;
  /** Holds `host` for `ms` from now (a longer hold already set stays). */
  hold(host: string, ms: number): void;
}

export function hostHolds(now: () => number = Date.now): HostHolds {
  const until = new Map<string, number>();
  return {
    async wait(host, signal) {
      for (let left = (until.get(host) ?? 0) - now(); left > 0; left = (until.get(host) ?? 0) - now()) {
        await sleep(left, signal);
        if (signal?.aborted === true) return;
      }
      until.delete(host);
    },
    hold(host, ms) {
      until.set(host, Math.max(until.get(host) ?? 0, now() + ms));
    },
  };
}
