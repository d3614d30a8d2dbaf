/**
 * Photo download counters shared by every process through Redis: whoever hosts photos (`sync
 * --replicate`, `worker`, the demo) records its downloads; the dashboard reads the totals on each
 * /metrics scrape. One hash, `{p}:ls:media` (see keys.ts), with fields
 *
 *   downloads   photos downloaded and stored
 *   bytes       bytes received by downloads, failed ones included (what the media byte budget counts)
 *   f|{reason}  downloads that failed, by reason (timeout, connection, rate-limited, …: a fixed set)
 *
 * Why no host in a field: a feed's media hosts are the operator's to choose and may be many (a
 * CDN per region, signed hostnames); the run summary counts failures by host, the metric by reason.
 */
import type { RedisClient } from './redis-client.js';
import { storeKeys } from './keys.js';

const FAILURE = 'f|';

/** One download as it ended: stored, or why not, with the bytes it received either way. */
export interface MediaDownloadEvent {
  ok: boolean;
  reason?: string;
  bytes: number;
}

export interface MediaRecorder {
  /** Counts one download in memory; never touches Redis. */
  observe(event: MediaDownloadEvent): void;
  /** Sends what was counted since the last flush in one MULTI (nothing when idle). */
  flush(): Promise<void>;
  /** Stops the timer and flushes the rest. Call before the Redis connection quits. */
  close(): Promise<void>;
}

/**
 * Counts downloads in memory and sends them every `flushMs` and on close. Why batch: a run
 * downloads thousands of photos; a Redis round trip each would cost more than the metric is worth.
 * A failed flush keeps its counts for the next one (a metric may count a batch twice, never lose it).
 */
export function createMediaRecorder(redis: RedisClient, prefix: string, options: { flushMs?: number } = {}): MediaRecorder {
  const key = storeKeys(prefix).mediaMetrics();
  let counts = new Map<string, number>();
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  const add = (into: Map<string, number>, field: string, by: number): void => void into.set(field, (into.get(field) ?? 0) + by);

  async function send(): Promise<void> {
    if (counts.size === 0) return;
    const batch = counts;
    counts = new Map();
    const tx = redis.multi();
    for (const [field, by] of batch) tx.hincrby(key, field, by);
    try {
      const replies = await tx.exec();
      const failed = replies?.find(([err]) => err !== null)?.[0];
      if (failed) throw failed;
    } catch {
      for (const [field, by] of batch) add(counts, field, by);
    }
  }

  const flush = (): Promise<void> => (chain = chain.then(send));
  // Why a timer armed by the first count rather than an interval: a run that ended without close()
  // (it threw) then leaves no timer behind in a long-lived worker, once its counts are sent.
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    if (timer !== undefined || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush().then(() => {
        if (counts.size > 0) arm();
      });
    }, options.flushMs ?? 5000);
    timer.unref(); // never what keeps a process alive; close() sends the rest
  };

  return {
    observe(event) {
      if (closed) return;
      if (event.ok) add(counts, 'downloads', 1);
      else add(counts, `${FAILURE}${event.reason ?? 'connection'}`, 1);
      if (event.bytes > 0) add(counts, 'bytes', event.bytes);
      arm();
    },
    flush,
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await flush();
    },
  };
}

/** Every process's photo downloads so far. */
export interface MediaMetricsSnapshot {
  downloads: number;
  bytes: number;
  /** reason → failed downloads */
  failures: Record<string, number>;
}

/** Reads the stored totals (one HGETALL). */
export async function readMediaMetrics(redis: RedisClient, prefix: string): Promise<MediaMetricsSnapshot> {
  const hash = await redis.hgetall(storeKeys(prefix).mediaMetrics());
  const snapshot: MediaMetricsSnapshot = { downloads: 0, bytes: 0, failures: {} };
  for (const [field, text] of Object.entries(hash)) {
    const value = Number(text);
    if (!Number.isFinite(value)) continue;
    if (field === 'downloads') snapshot.downloads = value;
    else if (field === 'bytes') snapshot.bytes = value;
    else if (field.startsWith(FAILURE)) snapshot.failures[field.slice(FAILURE.length)] = value;
  }
  return snapshot;
}
