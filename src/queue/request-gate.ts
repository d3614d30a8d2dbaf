/**
 * Caps the service requests in flight from one process at `--concurrency` (or at the permits it
 * leased from the pool under --global-concurrency, request-permits.ts), while BullMQ runs a
 * few more jobs than that. Why: each job also spends a little time on Redis (ledger probe,
 * outcome script, BullMQ's move to completed and fetch of the next job); with BullMQ concurrency
 * equal to the request limit, a request slot sits idle during that bookkeeping. A few extra
 * active jobs keep every request slot busy (the benchmark's "≥ 0.85 of concurrency/latency"),
 * and this gate keeps the promise that the service never sees more than `limit` at once.
 */
import pLimit from 'p-limit';
import type { RequestGate } from '../api/gated-client.js';

/**
 * BullMQ concurrency for a request limit: twice the limit, at least one more. Why twice: the
 * store batches the probes and finishes of concurrent jobs into one script call each
 * (store/group-commit.ts), which holds each job a couple of milliseconds in its bookkeeping; at
 * 800 writes/s that is ~6 jobs off the request slots at any moment, more than a quarter of 16.
 * Where the bookkeeping is shorter, 1.25×, 2× and 3× give the same throughput, so the extra
 * prefetch costs nothing there.
 */
export function jobConcurrencyFor(requestLimit: number): number {
  return requestLimit + Math.max(1, requestLimit);
}

/** At most `limit` calls in flight from this process. */
export function localGate(limit: number): RequestGate {
  const gate = pLimit(limit);
  return (call) => gate(call);
}
