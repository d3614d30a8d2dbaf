/**
 * A carrier's split is a result (jobs/write-listings.ts returns a CarrierSplit) that the queue
 * carries out (src/queue/carrier-split.ts, through processor.ts): a listing that failed in a way
 * the queue waits out puts the whole carrier back; any other failure gives the listings left
 * batches of their own, and BullMQ keeps only the carrier's outcome and note.
 */
import { type Job, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { JobDeps } from '../../jobs/support/job-context.js';
import { writeListingsDataSchema } from '../../jobs/write-listings.js';
import type { ApiClient } from '../../src/api/client-contract.js';
import { ApiError } from '../../src/api/errors.js';
import { DEFAULT_RETRY_TABLE } from '../../src/api/retry-policy.js';
import type { ErrorMappingContext } from '../../src/queue/error-mapping.js';
import { gatesOf } from '../../src/queue/job-gate.js';
import { unsealData } from '../../src/queue/job-seal.js';
import { createProcessor } from '../../src/queue/processor.js';
import { QUEUE_NAMES } from '../../src/queue/queues.js';
import { ErrorCode } from '../../src/shared/error-codes.js';
import { ListingSyncError } from '../../src/shared/errors.js';
import { feedOf, queueBenchPerTest, type QueueBench } from '../helpers/queue.js';

const BOT = 'bot-split';
const openBench = queueBenchPerTest();
const TOKEN = 'taker';
const sent = { endpoint: 'createListing', phase: 'sent' } as const;

/** `api`, except that its `failAt`-th create (1 = the first) throws `thrown`; the others are sent. */
function failingCreate(api: ApiClient, failAt: number, thrown: unknown): ApiClient {
  let creates = 0;
  const createListing: ApiClient['createListing'] = async (listing, ctx) => {
    creates += 1;
    if (creates === failAt) throw thrown;
    return await api.createListing(listing, ctx);
  };
  return new Proxy(api, {
    get: (target, name, receiver): unknown => (name === 'createListing' ? createListing : Reflect.get(target, name, receiver)),
  });
}

/** A run of 192 writes (carriers of 3) and the first carrier, taken off the queue as a worker would take it. */
async function takeCarrier(bench: QueueBench): Promise<{ job: Job; close(): Promise<void> }> {
  await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, 192)));
  const connection = bench.redis.duplicate();
  const taker = new Worker(bench.queues.writes.name, undefined, { connection, prefix: bench.queues.writes.opts.prefix, autorun: false });
  const job = (await taker.getNextJob(TOKEN)) as Job | undefined;
  if (job?.id?.startsWith('writes.') !== true) throw new Error(`no carrier to take (took ${job?.id})`);
  return {
    job,
    async close() {
      await taker.close();
      await connection.quit();
    },
  };
}

/** The processor a worker of the bench's writes queue runs, its creates sent through `api`. */
function processorOf(bench: QueueBench, api: ApiClient, breaker?: ErrorMappingContext['breaker']) {
  const deps: JobDeps = { api, retryTable: DEFAULT_RETRY_TABLE, store: bench.store, logger: bench.logger, now: () => Date.now() };
  const mapping: ErrorMappingContext = {
    queue: bench.queues.writes,
    logger: bench.logger,
    retryTable: DEFAULT_RETRY_TABLE,
    defaultRateLimitMs: 50,
    ...(breaker === undefined ? {} : { breaker }),
  };
  return createProcessor(deps, mapping, gatesOf(bench.seal, bench.logger)(QUEUE_NAMES.writes));
}

/** The ids of the listings carrier `job` carries. */
function carriedIds(job: Job): string[] {
  return writeListingsDataSchema.parse(unsealData(job.data).payload).items.map((item) => item.id);
}

describe('a carrier split is a result the queue carries out', () => {
  it.each([
    ['the open breaker refused the call', new ListingSyncError(ErrorCode.SERVICE_DOWN, 'not sent'), undefined],
    ['the service asked for a pause (429)', new ApiError('HTTP_STATUS', '429', { ...sent, status: 429 }), undefined],
    ['a 503 while the breaker is open', new ApiError('HTTP_STATUS', '503', { ...sent, status: 503 }), { isOpen: () => true, holdMs: 50 }],
  ])(
    'a listing that fails because %s puts the whole carrier back: no listing gets a job of its own',
    async (_why, thrown, breaker) => {
      const bench = await openBench({ chatbots: [BOT] }, 'split-outage');
      const { job, close } = await takeCarrier(bench);
      try {
        const processor = processorOf(bench, failingCreate(bench.api, 2, thrown), breaker);
        // The queue's answer to an outage: rate-limited, the carrier goes back without using an attempt.
        await expect(processor(job, TOKEN)).rejects.toThrow('bullmq:rateLimitExceeded');
        for (const id of carriedIds(job)) expect(await bench.queues.writes.getJob(id)).toBeUndefined();
      } finally {
        await close();
      }
    },
    60_000,
  );

  it('a listing rejected by the service splits the carrier, and BullMQ keeps only the outcome and note (never the cause)', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'split-rejected');
    const { job, close } = await takeCarrier(bench);
    try {
      const rejected = new ApiError('ENVELOPE_FAILURE', 'bad listing', { ...sent, envelopeCode: 400 });
      const [written, failed, after] = carriedIds(job);
      const result = await processorOf(bench, failingCreate(bench.api, 2, rejected))(job, TOKEN);
      expect(result).toStrictEqual({ outcome: 'carried', note: `1 written; 2 moved to jobs of their own after ${failed} failed` });

      // The listing that failed and the one after it are batches of one; the one written is not.
      expect(await bench.queues.writes.getJob(written ?? '')).toBeUndefined();
      const split = await Promise.all([failed, after].map(async (id) => await bench.queues.writes.getJob(id ?? '')));
      expect(split.map((own) => writeListingsDataSchema.parse(unsealData(own?.data).payload).startedBefore)).toEqual([1, undefined]);

      // As a worker completes the carrier: the stored return value is what the processor returned.
      await job.moveToCompleted(result, TOKEN, false);
      const stored = await bench.redis.hget(bench.queues.writes.toKey(job.id ?? ''), 'returnvalue');
      expect(JSON.parse(stored ?? 'null')).toStrictEqual({ outcome: 'carried', note: result.note });
      expect(stored).not.toMatch(/splitOff|cause|bad listing/);
    } finally {
      await close();
    }
  }, 60_000);
});
