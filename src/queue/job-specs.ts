/**
 * Plan → job specs (name, deterministic id, data), and the specs of the per-chatbot kinds (bulk
 * edits: one job per chatbot). Pure: no Redis, so a dry run or a test can see exactly which jobs
 * a plan or a bulk edit becomes. Every job carries its run, chatbot, key and the exact
 * payload it will send (never a secret: credentials live only in the worker's API client).
 */
import type { CreateListingData } from '../../jobs/create-listing.js';
import { CREATE_LISTING } from '../../jobs/create-listing.js';
import { DELETE_LISTINGS, type DeleteListingsData } from '../../jobs/delete-listings.js';
import { EDIT_CHATBOT, type EditChatbotData } from '../../jobs/edit-chatbot.js';
import { EDIT_KNOWLEDGE, type EditKnowledgeData } from '../../jobs/edit-knowledge.js';
import { UPDATE_LISTING, type UpdateListingData } from '../../jobs/update-listing.js';
import { WRITE_LISTINGS, type WriteListingsData } from '../../jobs/write-listings.js';
import type { ChatbotSettings, KnowledgeEdit } from '../api/schemas.js';
import { jobId } from '../domain/job-id.js';
import { recordedHash } from '../domain/hash.js';
import type { Plan, PlannedDelete } from '../domain/plan.js';

export interface JobSpec {
  name: string;
  id: string;
  data: CreateListingData | UpdateListingData | DeleteListingsData | EditChatbotData | EditKnowledgeData | WriteListingsData;
  /** Listing keys the job is about (for `jobs find KEY`). */
  touches: string[];
  /** Its turn in the writes queue (a BullMQ priority, set as the run is enqueued: fair-turns.ts); unset: plain FIFO. */
  priority?: number;
  /**
   * A carrier's listings (job-carriers.ts): the ids of the listing jobs it carries, which are the
   * run's jobs (its counts and outcomes are theirs); unset: the job is one of the run's jobs itself.
   */
  carries?: string[];
}

/** The ids of the run's jobs `spec` stands for: its own, or those it carries. */
export function runJobIdsOf(spec: JobSpec): readonly string[] {
  return spec.carries ?? [spec.id];
}

/** The job name of each kind a listing job's id starts with (see jobSpecs). */
const NAME_OF_KIND: Readonly<Record<string, string>> = {
  create: CREATE_LISTING,
  update: UPDATE_LISTING,
  delete: DELETE_LISTINGS,
  writes: WRITE_LISTINGS,
};

/** The name of the listing job `id` names ('' for any other id): what `jobs find` shows for a job no longer in the queue. */
export function listingJobNameOf(id: string): string {
  return NAME_OF_KIND[id.slice(0, Math.max(0, id.indexOf('.')))] ?? '';
}

function deleteBatches(
  deletes: readonly PlannedDelete[],
  batchSize: number,
): Array<{ keyType: PlannedDelete['keyType']; items: PlannedDelete[] }> {
  const byType = new Map<PlannedDelete['keyType'], PlannedDelete[]>();
  for (const planned of deletes) {
    const ofType = byType.get(planned.keyType);
    if (ofType === undefined) byType.set(planned.keyType, [planned]);
    else ofType.push(planned);
  }
  const batches: Array<{ keyType: PlannedDelete['keyType']; items: PlannedDelete[] }> = [];
  for (const [keyType, items] of byType) {
    for (let i = 0; i < items.length; i += batchSize) batches.push({ keyType, items: items.slice(i, i + batchSize) });
  }
  return batches;
}

/** How many jobs of its own the run of `plan` has (each listing write is one, carried or not), without building them. */
export function jobCountOf(plan: Plan, deleteBatchSize: number): number {
  const deletesByType = new Map<PlannedDelete['keyType'], number>();
  for (const planned of plan.deletes) deletesByType.set(planned.keyType, (deletesByType.get(planned.keyType) ?? 0) + 1);
  let batches = 0;
  for (const count of deletesByType.values()) batches += Math.ceil(count / Math.max(1, deleteBatchSize));
  return plan.creates.length + plan.updates.length + batches;
}

/**
 * The jobs a plan becomes, creates first, then updates, then delete batches, each listing its own
 * job (job-carriers.ts `queueJobSpecs` carries them several to a queue job).
 */
export function jobSpecsOf(plan: Plan, runId: string, deleteBatchSize: number): JobSpec[] {
  return [...jobSpecs(plan, runId, deleteBatchSize)];
}

/**
 * The jobs of `plan` one at a time, in `jobSpecsOf`'s order. Why a generator: each job's data is
 * a copy of its listing; built chunk by chunk as they are enqueued, a migration of 100k listings
 * never holds a second copy of every listing (bench:sync measures the peak RSS); a sync's plan
 * spools its creates and updates to a file (src/sync/plan-spool.ts), read back here one by one.
 */
export function* jobSpecs(plan: Plan, runId: string, deleteBatchSize: number): Generator<JobSpec> {
  const { chatbot, keyType } = plan;
  for (const create of plan.creates) {
    const data: CreateListingData = {
      runId,
      chatbot,
      keyType,
      key: create.key,
      // The same hash the plan would have taken: the spool's JSON round trip keeps every value canonicalListingJson writes.
      hash: recordedHash(create.listing),
      listing: { ...create.listing, SerialNumber: chatbot },
    };
    yield {
      name: CREATE_LISTING,
      id: jobId({ kind: 'create', chatbot, keyType, key: create.key, runId }),
      data,
      touches: [create.key],
    };
  }
  for (const update of plan.updates) {
    const data: UpdateListingData = {
      runId,
      chatbot,
      keyType,
      key: update.key,
      hash: update.hash,
      update: { ...update.listing, SerialNumber: chatbot, Key: update.key, KeyType: keyType },
      ...(update.remoteId === undefined ? {} : { remoteId: update.remoteId }),
    };
    yield {
      name: UPDATE_LISTING,
      id: jobId({ kind: 'update', chatbot, keyType, key: update.key, runId }),
      data,
      touches: [update.key],
    };
  }
  for (const batch of deleteBatches(plan.deletes, Math.max(1, deleteBatchSize))) {
    const keys = batch.items.map((d) => d.key);
    const data: DeleteListingsData = {
      runId,
      chatbot,
      keyType,
      deleteKeyType: batch.keyType,
      keys,
      ledgerKeys: batch.items.filter((d) => d.reason === 'gone').map((d) => d.listingKey),
    };
    // Why the first key and the count name the batch: the same plan gives the same batches, so
    // the same ids (an enqueue repeated after a crash adds nothing).
    const batchKey = `${keys[0] ?? ''}+${keys.length}`;
    yield {
      name: DELETE_LISTINGS,
      id: jobId({ kind: 'delete', chatbot, keyType: batch.keyType, key: batchKey, runId }),
      data,
      touches: [...new Set(batch.items.map((d) => d.listingKey))],
    };
  }
}

/**
 * A job kind enqueued once per chatbot, each job carrying one request body for that chatbot (the
 * bulk edits: `chatbot edit --many`, `chatbot knowledge --many`).
 */
export interface PerChatbotJobKind<P extends { serialNumber: string }> {
  /** The job's name, also the kind part of its id. */
  name: string;
  /** The job's data for the body `payload` of run `runId`. */
  data(runId: string, payload: P): EditChatbotData | EditKnowledgeData;
}

/** Settings changes (api-spec 2.1): one edit-chatbot job per chatbot. */
export const EDIT_CHATBOT_JOBS: PerChatbotJobKind<ChatbotSettings> = {
  name: EDIT_CHATBOT,
  data: (runId, settings) => ({ runId, chatbot: settings.serialNumber, settings }),
};

/** Knowledge-base edits (api-spec 2.2): one edit-knowledge job per chatbot. */
export const EDIT_KNOWLEDGE_JOBS: PerChatbotJobKind<KnowledgeEdit> = {
  name: EDIT_KNOWLEDGE,
  data: (runId, edit) => ({ runId, chatbot: edit.serialNumber, edit }),
};

/**
 * One `kind` job per body, in order. The id is fixed by kind, chatbot and run (never by the
 * body): the same run enqueued again after a crash adds nothing, so no edit is applied twice,
 * while two kinds, or two runs, for one chatbot never share an id.
 */
export function perChatbotJobSpecs<P extends { serialNumber: string }>(
  kind: PerChatbotJobKind<P>,
  payloads: readonly P[],
  runId: string,
): JobSpec[] {
  return payloads.map((payload) => ({
    name: kind.name,
    id: jobId({ kind: kind.name, chatbot: payload.serialNumber, keyType: 'chatbot', key: payload.serialNumber, runId }),
    data: kind.data(runId, payload),
    touches: [],
  }));
}
