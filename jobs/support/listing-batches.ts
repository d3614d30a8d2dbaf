/**
 * When the listing jobs of a run travel several to a queue job (write-listings.ts), and how they
 * are grouped. Pure: the same plan always gives the same carriers, so the same ids (an enqueue
 * repeated after a crash adds nothing).
 */
import type { SYNC_KEY_TYPES } from '../../src/domain/listing.js';
import { jobId } from '../../src/domain/job-id.js';
import type { CarriedListing } from './job-context.js';
import type { JobSpec } from './job-spec.js';
import { CREATE_LISTING, UPDATE_LISTING, WRITE_LISTINGS } from './listing-job-data.js';

/** The jobs a carrier takes: listing creates and updates. */
const CARRIED_NAMES: ReadonlySet<string> = new Set([CREATE_LISTING, UPDATE_LISTING]);

/** A carrier's payload (write-listings.ts parses it). */
type CarrierData = {
  runId: string;
  chatbot: string;
  keyType: (typeof SYNC_KEY_TYPES)[number];
  items: CarriedListing[];
};

/**
 * Most listings one carrier takes by default (LISTING_SYNC_LISTINGS_PER_JOB). Why 8: the queue's
 * work per job, paid once per 8, is then small beside the request's.
 */
export const MAX_LISTINGS_PER_JOB = 8;

/**
 * Fewest carriers a carried run has. A run of fewer than 2 × 64 = 128 writes gets a job per
 * listing, 128–191 two per job, …, 512 and more MAX_LISTINGS_PER_JOB. Why: the carriers of a run
 * are what workers run side by side (a carrier writes its listings one after another), and 64 is
 * twice the jobs a worker process holds at once at the default concurrency (2 × 16,
 * request-gate.ts), so carrying never leaves a worker's request slots idle for want of jobs. A
 * smaller run pays the queue's cost per listing, which is small in absolute terms.
 */
export const MIN_CARRIERS = 64;

/** Listings per job for a run that writes `writes` listings (creates plus updates), at most `most`. */
export function listingsPerJob(writes: number, most: number = MAX_LISTINGS_PER_JOB): number {
  return Math.max(1, Math.min(most, Math.floor(writes / MIN_CARRIERS)));
}

/** A carrier's id: its kind, chatbot and key type, its first listing's key and count, and the run (like a delete batch's). */
function carrierId(first: JobSpec, count: number, data: CarrierData): string {
  return jobId({
    kind: 'writes',
    chatbot: data.chatbot,
    keyType: data.keyType,
    key: `${first.touches[0] ?? first.id}+${count}`,
    runId: data.runId,
  });
}

/**
 * The write-listings job of `group` (listing jobs of one run, chatbot and key type, all of one
 * name). Why a group of one keeps its listing's own id and is no carrier: it IS the listing's job
 * (`jobs find`, `jobs retry`, the failed list, the run's counts name it as such).
 */
function batchOf(group: readonly JobSpec[]): JobSpec {
  const [first] = group;
  if (first === undefined) throw new RangeError('batchOf: an empty group');
  const { runId, chatbot, keyType } = first.data as Pick<CarrierData, 'runId' | 'chatbot' | 'keyType'>;
  const items = group.map((spec) => ({ id: spec.id, name: spec.name, data: spec.data }) as CarriedListing);
  const data: CarrierData = { runId, chatbot, keyType, items };
  if (group.length === 1) return { name: WRITE_LISTINGS, id: first.id, data, touches: first.touches };
  return {
    name: WRITE_LISTINGS,
    id: carrierId(first, group.length, data),
    data,
    touches: group.flatMap((spec) => spec.touches),
    carries: items.map((item) => item.id),
  };
}

/**
 * `specs` (listing jobs of one run, in order) as write-listings batches: every run of `perJob`
 * consecutive jobs of the same name one carrier; `perJob` 1 makes each a batch of one.
 */
export function* carried(specs: Iterable<JobSpec>, perJob: number): Generator<JobSpec> {
  let group: JobSpec[] = [];
  const flush = function* (): Generator<JobSpec> {
    if (group.length > 0) yield batchOf(group);
    group = [];
  };
  for (const spec of specs) {
    if (group.length > 0 && (group.length >= Math.max(1, perJob) || group[0]?.name !== spec.name)) yield* flush();
    // Why deletes are never carried: a delete job already sends a batch of keys in one request.
    if (CARRIED_NAMES.has(spec.name)) group.push(spec);
    else yield spec;
  }
  yield* flush();
}
