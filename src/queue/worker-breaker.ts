import type { Queue } from 'bullmq';
import type { JobDeps } from '../../jobs/support/job-context.js';
import type { RetryTable } from '../api/retry-policy.js';
import type { Logger } from '../runtime/logger.js';
import type { RedisWatch } from './redis-watch.js';
import type { RequestGate } from '../api/gated-client.js';
import { startServiceBreaker, type ServiceBreaker, type ServiceBreakerOptions } from './service-breaker.js';

/** The breaker's thresholds and intervals a worker may set (tests shorten them). */
export type BreakerTiming = Partial<Pick<ServiceBreakerOptions, 'openAfter' | 'probeFirstMs' | 'probeMaxMs' | 'tickMs'>>;

/** What a worker process hands its breaker: the jobs' deps, where to log and report, its timings. */
export interface BreakerOwner {
  deps: Omit<JobDeps, 'retryTable'>;
  logger: Logger;
  retryTable: RetryTable;
  watch: RedisWatch;
  breaker?: BreakerTiming;
}

/**
 * This process's service breaker (service-breaker.ts). Its probe goes through the request limit
 * but not through the breaker, and is one list page of size 1: a read, never a write.
 */
export function serviceBreakerOf(queue: Pick<Queue, 'rateLimit'>, gate: RequestGate, options: BreakerOwner): ServiceBreaker {
  const { deps, logger, retryTable, watch } = options;
  return startServiceBreaker({
    ...options.breaker,
    store: deps.store.breaker,
    queue,
    logger,
    retryTable,
    probe: (chatbot) => gate(() => deps.api.listListings({ SerialNumber: chatbot, PageNumber: 1, PageSize: 1 })),
    // Why the send window: it bounds how long one request can be in flight (send-window.ts).
    probeLeaseMs: deps.sendWindowMs ?? DEFAULT_PROBE_LEASE_MS,
    onError: (err) => watch.report(err, 'breaker'),
  });
}

/** A probe's lease without a configured send window: the default client timeouts and some margin. */
const DEFAULT_PROBE_LEASE_MS = 70_000;
