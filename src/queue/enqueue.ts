/**
 * Executes a plan's first half: records the run, then adds its jobs to the writes queue with
 * addBulk in chunks. The run's job total is stored BEFORE the jobs exist, so the run can only
 * be "done" once every job recorded its final outcome.
 */
import type { JobsOptions, Queue } from 'bullmq';
import type { Plan } from '../domain/plan.js';
import type { Store } from '../store/store.js';
import type { NewRun } from '../store/run-types.js';
import { BACKOFF_TYPE } from './backoff.js';
import { jobId } from '../domain/job-id.js';
import { jobSpecsOf, type JobSpec } from './job-specs.js';
import { EDIT_CHATBOT } from '../../jobs/edit-chatbot.js';
import { EDIT_KNOWLEDGE } from '../../jobs/edit-knowledge.js';
import type { ChatbotSettings, KnowledgeEdit } from '../api/schemas.js';

/** Retention: a count of jobs to keep, `true` (remove at once) or `false` (keep all). */
export type Retention = boolean | number | { count: number } | { age: number; count?: number };

export interface JobQueueSettings {
  /** Attempts per job (default 10: a run converges when a third of requests fail transiently). */
  attempts: number;
  backoffMs: number;
  keepCompleted: Retention;
  keepFailed: Retention;
  deleteBatchSize: number;
}

export interface EnqueueOptions {
  writes: Queue;
  store: Store;
  jobs: JobQueueSettings;
  /** Jobs per addBulk call (default 500). */
  chunkSize?: number;
}

export interface EnqueuedRun {
  runId: string;
  jobIds: string[];
}

/** The BullMQ options every write job gets (attempts, backoff, retention) plus its id. */
export function jobOptions(id: string, jobs: JobQueueSettings): JobsOptions {
  return {
    jobId: id,
    attempts: jobs.attempts,
    backoff: { type: BACKOFF_TYPE, delay: jobs.backoffMs },
    removeOnComplete: jobs.keepCompleted,
    removeOnFail: jobs.keepFailed,
  };
}

/** Adds `specs` as jobs of the existing run `runId` (job total first, then the jobs). */
async function addRunJobs(specs: readonly JobSpec[], runId: string, chatbot: string, options: EnqueueOptions, at: number): Promise<string[]> {
  const { store, writes } = options;
  const jobIds = specs.map((spec) => spec.id);
  if (specs.length === 0) {
    await store.runs.updateRun(runId, { status: 'done', finishedAt: at });
    return jobIds;
  }
  await store.runs.addRunJobs(runId, jobIds);
  const touches = store.redis.pipeline();
  for (const spec of specs) for (const key of spec.touches) store.keyIndex.addTouch(touches, { chatbot, key, runId, jobId: spec.id, at });
  await touches.exec();
  const chunk = Math.max(1, options.chunkSize ?? 500);
  for (let i = 0; i < specs.length; i += chunk) {
    await writes.addBulk(specs.slice(i, i + chunk).map((spec) => ({ name: spec.name, data: spec.data, opts: jobOptions(spec.id, options.jobs) })));
  }
  return jobIds;
}

async function enqueueSpecs(specs: readonly JobSpec[], run: NewRun, options: EnqueueOptions): Promise<EnqueuedRun> {
  await options.store.runs.createRun({ ...run, status: 'running' });
  return { runId: run.id, jobIds: await addRunJobs(specs, run.id, run.chatbot, options, run.startedAt) };
}

/**
 * Enqueues the jobs of `plan` under a run whose record already exists (the sync saved it with its
 * summary and rejected rows). A plan without jobs marks the run done. Returns the job count.
 */
export async function enqueueRunJobs(plan: Plan, runId: string, options: EnqueueOptions, now: number = Date.now()): Promise<number> {
  const specs = jobSpecsOf(plan, runId, options.jobs.deleteBatchSize);
  return (await addRunJobs(specs, runId, plan.chatbot, options, now)).length;
}

/** Records `run` and enqueues every job of `plan` under it. */
export async function enqueuePlan(plan: Plan, run: NewRun, options: EnqueueOptions): Promise<EnqueuedRun> {
  return await enqueueSpecs(jobSpecsOf(plan, run.id, options.jobs.deleteBatchSize), run, options);
}

/** Records `run` and enqueues one edit-chatbot job per settings object (bulk settings changes). */
export async function enqueueChatbotEdits(edits: readonly ChatbotSettings[], run: NewRun, options: EnqueueOptions): Promise<EnqueuedRun> {
  const specs = edits.map((settings) => ({
    name: EDIT_CHATBOT, id: jobId({ kind: 'edit-chatbot', chatbot: settings.serialNumber, keyType: 'chatbot', key: settings.serialNumber, runId: run.id }),
    data: { runId: run.id, chatbot: settings.serialNumber, settings }, touches: [],
  }));
  return await enqueueSpecs(specs, run, options);
}

/** Records `run` and enqueues one edit-knowledge job per edit. */
export async function enqueueKnowledgeEdits(edits: readonly KnowledgeEdit[], run: NewRun, options: EnqueueOptions): Promise<EnqueuedRun> {
  const specs = edits.map((edit) => ({
    name: EDIT_KNOWLEDGE, id: jobId({ kind: 'edit-knowledge', chatbot: edit.serialNumber, keyType: 'chatbot', key: edit.serialNumber, runId: run.id }),
    data: { runId: run.id, chatbot: edit.serialNumber, edit }, touches: [],
  }));
  return await enqueueSpecs(specs, run, options);
}
