/**
 * Service-call metrics shared by every process through Redis: whoever makes calls (`worker`,
 * `sync --work`, `chatbot edit --many --work`, the demo) records them; the dashboard reads the
 * totals on each /metrics scrape. One hash, `{p}:ls:calls` (see keys.ts), with fields
 *
 *   c|{endpoint}|{outcome}  calls by endpoint and outcome ('ok' or the error's code)
 *   b|{endpoint}|{le}       calls whose latency fell in the bucket with upper bound `le` seconds
 *                           ('+Inf' for the rest); NOT cumulative
 *   s|{endpoint}            summed latency in milliseconds
 *   f|{code}                failed calls by envelope Code (the outcome when there was no envelope)
 *
 * Why the bucket bound is in the field name rather than an index: data written with other
 * bounds (an older version) still reads back correctly.
 */
import type { RedisClient } from './redis-client.js';
import { storeKeys } from './keys.js';

/** Latency bucket upper bounds in seconds (prom-client's defaults). */
export const CALL_LATENCY_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const INF = '+Inf';
const SEP = '|';

/** One settled call to the service, as the API client's `onCall` reports it. */
export interface CallEvent {
  endpoint: string;
  ms: number;
  outcome: string;
  envelopeCode?: number;
}

export interface CallRecorder {
  /** Counts one call in memory; never touches Redis. */
  observe(event: CallEvent): void;
  /** Sends what was counted since the last flush in one transaction (nothing when idle). */
  flush(): Promise<void>;
  /** Stops the timer and flushes the rest. Call before the Redis connection quits. */
  close(): Promise<void>;
}

export interface CallRecorderOptions {
  /** How often counts are sent to Redis; default 5000 ms. */
  flushMs?: number;
  /**
   * Told when a flush failed (the counts are kept for the next one): once per run of failures,
   * not per flush, so that a Redis outage is one line. `closing`: the failed flush was the last.
   */
  onError?: (err: unknown, closing: boolean) => void;
}

function bucketOf(seconds: number): string {
  const bound = CALL_LATENCY_BUCKETS.find((le) => seconds <= le);
  return bound === undefined ? INF : String(bound);
}

/** The hash fields one call moves, each by 1 except the latency sum (by `ms`). */
function fieldsOf(event: CallEvent): { counts: string[]; sumField: string } {
  const counts = [`c${SEP}${event.endpoint}${SEP}${event.outcome}`, `b${SEP}${event.endpoint}${SEP}${bucketOf(event.ms / 1000)}`];
  // Why 'ok' only: every other outcome (envelope failure, HTTP error, timeout) is a failed call.
  if (event.outcome !== 'ok') counts.push(`f${SEP}${event.envelopeCode === undefined ? event.outcome : String(event.envelopeCode)}`);
  return { counts, sumField: `s${SEP}${event.endpoint}` };
}

/**
 * Counts calls in memory and sends them as one MULTI of HINCRBY/HINCRBYFLOAT every `flushMs`
 * and on close. Why batch: the write path's throughput is the product; a Redis round trip per
 * service call would cost more than the metric is worth. Memory is bounded by the number of
 * distinct fields (endpoints × outcomes × buckets), not by the number of calls.
 */
export function createCallRecorder(redis: RedisClient, prefix: string, options: CallRecorderOptions = {}): CallRecorder {
  const key = storeKeys(prefix).callMetrics();
  let counts = new Map<string, number>();
  let sums = new Map<string, number>();
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  let inFlight = false;
  let failing = false;

  const add = (into: Map<string, number>, field: string, by: number): void => void into.set(field, (into.get(field) ?? 0) + by);

  async function send(): Promise<void> {
    if (counts.size === 0 && sums.size === 0) return;
    const batch = { counts, sums };
    counts = new Map();
    sums = new Map();
    // MULTI (still one round trip) so a scrape never sees a call counted without its bucket.
    const tx = redis.multi();
    for (const [field, by] of batch.counts) tx.hincrby(key, field, by);
    for (const [field, by] of batch.sums) tx.hincrbyfloat(key, field, by);
    inFlight = true;
    try {
      const replies = await tx.exec();
      const failed = replies?.find(([err]) => err !== null)?.[0];
      if (failed) throw failed;
      failing = false;
    } catch (err) {
      // Why keep them: a Redis blip must not lose counts; the next flush sends them again (a
      // reply lost after EXEC ran would count one batch twice, which a metric can afford).
      for (const [field, by] of batch.counts) add(counts, field, by);
      for (const [field, by] of batch.sums) add(sums, field, by);
      if (!failing || closed) options.onError?.(err, closed);
      failing = true;
    } finally {
      inFlight = false;
    }
  }

  function flush(): Promise<void> {
    chain = chain.then(send);
    return chain;
  }

  // Why skip while a flush is in flight: during an outage the flush waits for Redis, and the
  // counts of every tick meanwhile simply go with the next one instead of piling up flushes.
  const timer = setInterval(() => {
    if (!inFlight) void flush();
  }, options.flushMs ?? 5000);
  timer.unref(); // never what keeps a process alive; close() sends the rest

  return {
    observe(event) {
      if (closed) return;
      const { counts: fields, sumField } = fieldsOf(event);
      for (const field of fields) add(counts, field, 1);
      add(sums, sumField, event.ms);
    },
    flush,
    async close() {
      closed = true;
      clearInterval(timer);
      await flush();
    },
  };
}

/** Calls of one endpoint, as stored. */
export interface EndpointCallStats {
  endpoint: string;
  /** outcome ('ok' or an error code) → calls */
  outcomes: Record<string, number>;
  /** Calls per latency bucket, aligned with `buckets` plus a last one above every bound; not cumulative. */
  bucketCounts: number[];
  sumSeconds: number;
}

/** Every process's service calls so far. */
export interface CallMetricsSnapshot {
  /** Upper bounds in seconds, ascending (the +Inf bucket is implicit). */
  buckets: number[];
  endpoints: EndpointCallStats[];
  /** envelope Code (or the outcome when there was none) → failed calls */
  failures: Record<string, number>;
}

/** Reads the stored totals (one HGETALL). */
export async function readCallMetrics(redis: RedisClient, prefix: string): Promise<CallMetricsSnapshot> {
  const hash = await redis.hgetall(storeKeys(prefix).callMetrics());
  const bounds = new Set<number>(CALL_LATENCY_BUCKETS);
  const byEndpoint = new Map<string, { outcomes: Record<string, number>; byBound: Map<number, number>; sumSeconds: number }>();
  const endpointOf = (name: string) => {
    let stats = byEndpoint.get(name);
    if (!stats) byEndpoint.set(name, (stats = { outcomes: {}, byBound: new Map(), sumSeconds: 0 }));
    return stats;
  };
  const failures: Record<string, number> = {};
  for (const [field, text] of Object.entries(hash)) {
    const value = Number(text);
    if (!Number.isFinite(value)) continue;
    const [kind = '', name = '', ...rest] = field.split(SEP);
    const tail = rest.join(SEP);
    if (kind === 'c') endpointOf(name).outcomes[tail] = value;
    else if (kind === 's') endpointOf(name).sumSeconds = value / 1000;
    else if (kind === 'f') failures[[name, ...rest].join(SEP)] = value;
    else if (kind === 'b') {
      const le = tail === INF ? Number.POSITIVE_INFINITY : Number(tail);
      if (Number.isNaN(le)) continue;
      if (Number.isFinite(le)) bounds.add(le);
      const stats = endpointOf(name);
      stats.byBound.set(le, (stats.byBound.get(le) ?? 0) + value);
    }
  }
  const buckets = [...bounds].sort((a, b) => a - b);
  const endpoints = [...byEndpoint].map(([endpoint, stats]): EndpointCallStats => ({
    endpoint,
    outcomes: stats.outcomes,
    bucketCounts: [...buckets, Number.POSITIVE_INFINITY].map((le) => stats.byBound.get(le) ?? 0),
    sumSeconds: stats.sumSeconds,
  }));
  return { buckets, endpoints, failures };
}
