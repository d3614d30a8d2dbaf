import { describe, expect, it } from 'vitest';
import { carried, listingsPerJob, MAX_LISTINGS_PER_JOB } from '../../jobs/support/listing-batches.js';
import { jobCountOf, jobSpecs, listingJobNameOf, queueJobSpecs } from '../../jobs/plan-jobs.js';
import { runJobIdsOf, type JobSpec } from '../../jobs/support/job-spec.js';
import { WRITE_LISTINGS, writeListingsDataSchema } from '../../jobs/write-listings.js';
import { listingHash } from '../../src/domain/hash.js';
import type { Plan } from '../../src/domain/plan.js';
import { sampleListing } from '../../src/sim/sample-listings.js';

function fields(i: number) {
  const { SerialNumber: _s, ...rest } = sampleListing(i);
  return rest;
}

function planOf(creates: number, updates: number, deletes = 0): Plan {
  return {
    chatbot: 'bot-1',
    keyType: 'MLSNumber',
    mode: 'mirror',
    deleteScope: 'all',
    unchanged: 0,
    creates: Array.from({ length: creates }, (_, i) => ({ key: `C${i}`, listing: fields(i) })),
    updates: Array.from({ length: updates }, (_, i) => {
      const listing = fields(100_000 + i);
      return { key: `U${i}`, listing, hash: listingHash(listing), changes: [] };
    }),
    deletes: Array.from({ length: deletes }, (_, i) => ({
      key: `D${i}`,
      keyType: 'MLSNumber' as const,
      reason: 'gone' as const,
      listingKey: `D${i}`,
    })),
  };
}

const RUN = 'run-0000000001-ab';

describe('listings carried several to a queue job', () => {
  it('a run below 128 writes keeps a job per listing; larger runs carry one more per 64, up to 8', () => {
    expect([0, 1, 127, 128, 191, 192, 300, 511, 512, 1_000_000].map((writes) => listingsPerJob(writes))).toEqual([
      1, 1, 1, 2, 2, 3, 4, 7, 8, 8,
    ]);
    expect(MAX_LISTINGS_PER_JOB).toBe(8);
    const small = planOf(100, 27, 3);
    // LISTING_SYNC_LISTINGS_PER_JOB=1: every listing its own job, whatever the run's size; 3: at most 3.
    const large = planOf(1000, 0);
    expect([...queueJobSpecs(large, RUN, 100, 1)]).toEqual([...jobSpecs(large, RUN, 100)]);
    expect(listingsPerJob(1000, 3)).toBe(3);
    expect([...queueJobSpecs(small, RUN, 100)]).toEqual([...jobSpecs(small, RUN, 100)]);
  });

  it('carriers hold every listing job once, in order, creates and updates apart, and the run counts the listings', () => {
    const plan = planOf(255, 21, 250);
    const specs = [...queueJobSpecs(plan, RUN, 100)];
    const alone = [...jobSpecs(plan, RUN, 100)];
    // Every listing job and delete batch, in the order it would have had alone.
    expect(specs.flatMap(runJobIdsOf)).toEqual(alone.map((spec) => spec.id));
    expect(specs.flatMap((spec) => spec.touches)).toEqual(alone.flatMap((spec) => spec.touches));
    expect(jobCountOf(plan, 100)).toBe(alone.length);
    const carriers = specs.filter((spec) => spec.carries !== undefined);
    // 276 writes, four to a job: 255 creates in 63 carriers of 4 and one of 3; 21 updates in 5 of 4 and 1 left over (a batch of one).
    expect(carriers.map((spec) => spec.carries?.length)).toEqual([...Array<number>(63).fill(4), 3, ...Array<number>(5).fill(4)]);
    const alones = specs.filter((spec) => spec.name === WRITE_LISTINGS && spec.carries === undefined);
    expect(alones.map((spec) => writeListingsDataSchema.parse(spec.data).items.map((item) => [item.id, item.name]))).toEqual([
      [[alones[0]?.id, 'update-listing']],
    ]);
    // Delete batches are never carried: a delete job already sends many keys in one request.
    expect(specs.filter((spec) => spec.name === 'delete-listings').length).toBe(3);
    for (const carrier of carriers) {
      const data = writeListingsDataSchema.parse(carrier.data);
      expect(new Set(data.items.map((item) => item.name)).size).toBe(1);
      expect(data.items.map((item) => item.id)).toEqual(carrier.carries);
      expect(listingJobNameOf(carrier.id)).toBe(WRITE_LISTINGS);
    }
    expect(new Set(specs.map((spec) => spec.id)).size).toBe(specs.length);
    // The same plan gives the same carriers (an enqueue repeated after a crash adds nothing); another run, other ids.
    expect([...queueJobSpecs(plan, RUN, 100)].map((spec) => spec.id)).toEqual(specs.map((spec) => spec.id));
    expect([...queueJobSpecs(plan, 'run-0000000002-ab', 100)].map((spec) => spec.id)).not.toContain(specs[0]?.id);
  });

  it('a batch of one listing is that listing job itself: its id, its touches, no carrier', () => {
    const one: JobSpec = {
      name: 'create-listing',
      id: 'a',
      data: { runId: RUN, chatbot: 'b', keyType: 'MLSNumber', key: 'k', hash: 'h', listing: sampleListing(1) },
      touches: ['k'],
    };
    const batchOfOne: JobSpec = {
      name: WRITE_LISTINGS,
      id: 'a',
      data: { runId: RUN, chatbot: 'b', keyType: 'MLSNumber', items: [{ id: 'a', name: 'create-listing', data: one.data }] },
      touches: ['k'],
    };
    expect([...carried([one], 8)]).toEqual([batchOfOne]);
    expect(runJobIdsOf(batchOfOne)).toEqual(['a']);
    expect([...carried([one, { ...one, id: 'b' }], 1)].map((spec) => spec.id)).toEqual(['a', 'b']);
  });
});
