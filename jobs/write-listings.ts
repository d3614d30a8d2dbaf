/**
 * write-listings: every listing write (a create, or an update, of one run) travels in a batch of
 * 1 or more listings, each written exactly as it would be alone: its own job id
 * (`create.….<runId>`), the same probe and key claim, the same outcome record.
 *
 * A batch of one whose item has the job's own id IS that listing's job: it retries, waits on a
 * claimed key, fails, shows in the failed list and re-runs as the listing (`jobs find KEY`,
 * `jobs retry`), its failures thrown to the queue. A small run is all such batches, and a large
 * run's listings that split off become them.
 *
 * A larger batch (a carrier, id `writes.…`) exists because the queue's own work per job (moving it
 * to active and to completed, its lock, its record) cost more CPU and Redis work than everything
 * listing-sync does per listing (BENCHMARKS.md, bench:sync's BullMQ floor); carried several to a
 * job (support/listing-batches.ts decides when), it is paid once per batch. A carrier never
 * retries a listing itself: at the first listing that throws, it returns a split (CarrierSplit)
 * of that listing and every one not yet written, with what was thrown. The queue decides
 * (src/queue/carrier-split.ts): a key claimed, an error the retry table retries or a rejection
 * gives each a batch of its own and the carrier completes; an outage, a rate limit or a held
 * queue puts the whole carrier back. A carrier started again (a stall, a crash, a put back in an
 * outage) at once returns a split of every listing that has no recorded outcome: any of them may
 * have reached the service, so their creates look up first.
 */
import { z } from 'zod';
import { SYNC_KEY_TYPES } from '../src/domain/listing.js';
import { outcomesAmong } from '../src/store/outcomes-among.js';
import { createListingJob } from './create-listing.js';
import type { CarriedListing, JobContext, JobDeps, JobKind, JobResult } from './support/job-context.js';
import { carried, listingsPerJob } from './support/listing-batches.js';
import { CREATE_LISTING, UPDATE_LISTING, WRITE_LISTINGS } from './support/listing-job-data.js';
import { listingJobSpecs, listingWriteCount } from './support/listing-job-specs.js';
import { recordFailure } from './support/record.js';
import { updateListingJob } from './update-listing.js';

export { WRITE_LISTINGS };

/** Most items a write-listings job of the previous release could carry (its LISTING_SYNC_LISTINGS_PER_JOB ceiling). */
const LEGACY_MOST_LISTINGS_PER_JOB = 64;

export const writeListingsDataSchema = z.object({
  runId: z.string().min(1),
  chatbot: z.string().min(1),
  keyType: z.enum(SYNC_KEY_TYPES),
  /** Each listing's own job: its id, what it does (create or update) and its data. */
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        name: z.enum([CREATE_LISTING, UPDATE_LISTING]),
        data: z.object({ key: z.string().min(1) }).passthrough(),
      }),
    )
    .min(1)
    // Why up to 64 when a batch is cut at 8 (MAX_LISTINGS_PER_JOB): the previous release let
    // LISTING_SYNC_LISTINGS_PER_JOB carry up to 64, and its carriers still in the queue must run.
    .max(LEGACY_MOST_LISTINGS_PER_JOB),
  /**
   * Starts its listing had inside a carrier before this batch of one (support/listing-job-data.ts
   * `startedBefore`): counted as earlier starts (src/queue/processor.ts contextOf).
   */
  startedBefore: z.number().int().min(0).optional(),
});
export type WriteListingsData = z.infer<typeof writeListingsDataSchema>;

const KIND_OF = { [CREATE_LISTING]: createListingJob, [UPDATE_LISTING]: updateListingJob } as const;

/** Runs one carried listing as its own job would run. Throws what its job would throw. */
async function writeOne(ctx: JobContext<WriteListingsData>, item: CarriedListing, deps: JobDeps): Promise<JobResult> {
  if (item.name === CREATE_LISTING) {
    const kind = KIND_OF[CREATE_LISTING];
    const data = kind.schema.parse(item.data);
    return await kind.process({ ...ctx, id: item.id, name: item.name, data }, deps);
  }
  const kind = KIND_OF[UPDATE_LISTING];
  const data = kind.schema.parse(item.data);
  return await kind.process({ ...ctx, id: item.id, name: item.name, data }, deps);
}

/**
 * The carried listings still to write: without a recorded outcome, or recorded as failed. Why the
 * failed ones too: only a carrier that failed for good records its listings as failed
 * (onFinalFailure), and `jobs retry` of that carrier must write them.
 */
async function unfinished(ctx: JobContext<WriteListingsData>, deps: JobDeps): Promise<CarriedListing[]> {
  const { runId, chatbot, items } = ctx.data;
  const outcomes = await outcomesAmong(
    deps.store,
    runId,
    chatbot,
    items.map((item) => item.id),
  );
  return items.filter((item) => {
    const outcome = outcomes.get(item.id);
    return outcome === undefined || outcome === 'failed';
  });
}

/** The listing a batch of one is the own job of (its item has the job's id); undefined for a carrier. */
export function ownListingOf(id: string, data: WriteListingsData): CarriedListing | undefined {
  const [item, ...others] = data.items;
  return item !== undefined && others.length === 0 && item.id === id ? item : undefined;
}

/** Whether job `id` of this kind is a carrier (several listings' jobs, counted by its run as those): its id says. */
export function isCarrierId(id: string): boolean {
  return id.startsWith('writes.');
}

export const writeListingsJob: JobKind<WriteListingsData> = {
  name: WRITE_LISTINGS,
  queue: 'listing-writes',
  carries: isCarrierId,
  schema: writeListingsDataSchema,
  async process(ctx, deps) {
    const own = ownListingOf(ctx.id, ctx.data);
    // A listing's own job: what it throws goes to the queue, which retries, delays or fails it.
    if (own !== undefined) return await writeOne(ctx, own, deps);
    if (!isCarrierId(ctx.id)) throw new Error(`${WRITE_LISTINGS} job ${ctx.id} carries several listings but has no carrier id (writes.…)`);
    const items: CarriedListing[] = ctx.data.items;
    if (ctx.attemptsStarted > 1) {
      const left = await unfinished(ctx, deps);
      return { outcome: 'carried', note: `started again: ${left.length} listing(s) moved to jobs of their own`, splitOff: { items: left } };
    }
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as CarriedListing;
      try {
        await writeOne(ctx, item, deps);
      } catch (thrown) {
        // Whatever was thrown: whether it splits the carrier or puts it back whole is the queue's to say.
        const note = `${i} written; ${items.length - i} moved to jobs of their own after ${item.id} failed`;
        return { outcome: 'carried', note, splitOff: { items: items.slice(i), cause: thrown } };
      }
    }
    return { outcome: 'carried', note: `${items.length} written` };
  },
  // A plan's creates and updates, one listing job each, carried several to a job when the run is large (listing-batches.ts).
  jobsFor: (plan, runId, options) => carried(listingJobSpecs(plan, runId), listingsPerJob(listingWriteCount(plan), options.listingsPerJob)),
  jobCountFor: (plan) => listingWriteCount(plan),
  async onFinalFailure(ctx, deps, failure) {
    const own = ownListingOf(ctx.id, ctx.data);
    if (own !== undefined) return await recordFailure(ctx, deps, [own.data.key], failure, 1);
    // Each listing without an outcome fails as its own job would (its key remembered for the next run).
    for (const item of await unfinished(ctx, deps)) await recordFailure({ ...ctx, id: item.id }, deps, [item.data.key], failure, 1);
  },
};
