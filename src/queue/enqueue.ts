/**
 * Executes a plan's first half: adds the jobs of a run (a sync's, whose record runSync saved
 * first, or a bulk edit's of settings or knowledge bases, recorded here) to the writes queue
 * with addBulk in chunks. While it does, the run is `enqueuing`: its jobs may already finish,
 * but it cannot end. Each chunk's ids are listed under the run before the chunk is added, and
 * the total is recorded (the run "sealed") only once every job is in, in one atomic step. A
 * process that dies halfway leaves an enqueuing run the reconciler ends: it counts the jobs that
 * made it into the queue and records the listed ones that did not as lost.
 */
import type { JobsOptions, Queue } from 'bullmq';
import type { Plan } from '../domain/plan.js';
import type { Store } from '../store/store.js';
import { listedEntry, type ListedJob } from '../store/carried-ids.js';
import type { NewRun } from '../store/run-types.js';
import { BACKOFF_TYPE } from './backoff.js';
import { UNPACED, type EnqueuePace } from './enqueue-pace.js';
import { enqueueStop, interruptedWhileEnqueuing } from './enqueue-stop.js';
import { runTurns, type TurnStep } from './fair-turns.js';
import { jobCountOf, perChatbotJobSpecs, queueJobSpecs } from '../../jobs/plan-jobs.js';
import { runJobIdsOf, type JobSpec } from '../../jobs/support/job-spec.js';

/** Retention: a count of jobs to keep, `true` (remove at once) or `false` (keep all). */
export type Retention = boolean | number | { count: number } | { age: number; count?: number };

/**
 * The attempts a write job is enqueued with: a ceiling only (the most LISTING_SYNC_ATTEMPTS
 * allows). Why: the worker that runs a job decides when its failure is final, from its own
 * LISTING_SYNC_ATTEMPTS (processor.ts `isLastAttempt`), so a setting on a `worker` takes effect
 * whatever process enqueued; BullMQ's own count must never end a job before the worker does.
 */
export const ATTEMPTS_CEILING = 1000;

export interface JobQueueSettings {
  /** Attempts recorded on each job: a ceiling (ATTEMPTS_CEILING); the worker's own setting decides within it. */
  attempts: number;
  backoffMs: number;
  keepCompleted: Retention;
  keepFailed: Retention;
  deleteBatchSize: number;
  /** Most listings a queue job carries (jobs/support/listing-batches.ts; default MAX_LISTINGS_PER_JOB; 1: a job each). */
  listingsPerJob?: number;
}

export interface EnqueueOptions {
  writes: Queue;
  store: Store;
  jobs: JobQueueSettings;
  /** Jobs per addBulk call (default CHUNK). */
  chunkSize?: number;
  /** Where the chunks go (default: added here, one after another; threaded-enqueue.ts hands them to a thread). */
  sink?: ChunkSink;
  /** When each chunk of a sync's run may go in (default: at once; enqueue-pace.ts for `sync --work`). */
  pace?: EnqueuePace;
  /** The command's stop: the rest goes in at once, for a bounded time (enqueue-stop.ts). */
  signal?: AbortSignal;
}

/**
 * Adds the chunks of a run's jobs. `add` may return before its chunk is in the queue (a thread
 * adds it); `settle` resolves once every chunk given to `add` is in, or throws why one is not.
 */
export interface ChunkSink {
  /** Called once per run before its first chunk, with the run's job count (large-run-thread.ts decides by it). */
  begin?(total: number): void;
  add(part: JobSpec[], runId: string, chatbot: string, at: number): Promise<void>;
  settle(): Promise<void>;
}

export interface EnqueuedRun {
  runId: string;
  jobIds: string[];
}

/** The BullMQ options every write job gets (attempts, backoff, retention) plus its id and turn (fair-turns.ts). */
export function jobOptions(id: string, jobs: JobQueueSettings, priority?: number): JobsOptions {
  return {
    jobId: id,
    ...(priority === undefined ? {} : { priority }),
    attempts: jobs.attempts,
    backoff: { type: BACKOFF_TYPE, delay: jobs.backoffMs },
    removeOnComplete: jobs.keepCompleted,
    removeOnFail: jobs.keepFailed,
  };
}

/**
 * Chunk sizes: the first chunk small, so that workers already running (`sync --work`, worker
 * processes) start writing within a round trip or two of the guard passing, instead of after
 * the whole plan is in the queue; later chunks at `chunkSize`. Why 16: enough jobs for every
 * request slot of a worker at the default concurrency, while a chunk of carriers (8 listings
 * each) is built and sent in one burst before the first write: every job more in it is 8 more
 * listings' hashes, key index entries and job data built before anything is written.
 */
export const FIRST_CHUNK = 16;

/**
 * Jobs per addBulk call after the first. Why a small chunk: workers of the same process write
 * while the rest is enqueued, and a chunk is built in one synchronous burst during which their
 * responses wait; a smaller burst keeps them fed for a few more round trips (figures:
 * BENCHMARKS.md, "tried and dropped").
 */
export const CHUNK = 100;

/** `specs` in chunks: the first FIRST_CHUNK (at most `size`), then `size` each. */
export function* chunksOf(specs: Iterable<JobSpec>, size: number): Generator<JobSpec[]> {
  let part: JobSpec[] = [];
  let limit = Math.min(FIRST_CHUNK, size);
  for (const spec of specs) {
    part.push(spec);
    if (part.length >= limit) {
      yield part;
      part = [];
      limit = size;
    }
  }
  if (part.length > 0) yield part;
}

/**
 * The keys `spec` touches, each with the job `jobs find KEY` shows for it: the spec itself, or
 * for a carrier each listing's own job, named with its carrier (carried-ids.ts).
 */
function touchesOf(spec: JobSpec): Array<{ key: string; jobId: string }> {
  if (spec.carries === undefined) return spec.touches.map((key) => ({ key, jobId: spec.id }));
  return spec.carries.map((id, i) => ({ key: spec.touches[i] ?? '', jobId: listedEntry({ id, carrier: spec.id }) }));
}

/** Where the jobs of one chunk go: the store (key index, the run's job list) and the writes queue. */
export type ChunkTarget = Pick<EnqueueOptions, 'writes' | 'store' | 'jobs'>;

/**
 * Adds one chunk of jobs to run `runId`: key index and job ids first, then the jobs, so that a
 * crash in between leaves ids the reconciler records as lost, never jobs the run does not know.
 */
export async function addChunk(part: readonly JobSpec[], runId: string, chatbot: string, target: ChunkTarget, at: number): Promise<void> {
  const { store, writes, jobs } = target;
  await store.keyIndex.recordTouches(part.flatMap((spec) => touchesOf(spec).map(({ key, jobId }) => ({ chatbot, key, runId, jobId, at }))));
  await store.runs.addRunJobs(
    runId,
    chatbot,
    part.flatMap((spec): Array<string | ListedJob> =>
      spec.carries === undefined ? [spec.id] : spec.carries.map((id) => ({ id, carrier: spec.id })),
    ),
  );
  await writes.addBulk(part.map((spec) => ({ name: spec.name, data: spec.data, opts: jobOptions(spec.id, jobs, spec.priority) })));
}

/**
 * Adds `specs` (`run.total` of them) as jobs of the existing run, chunk by chunk (addChunk) at
 * the pace `options.pace` allows; the total last, once every job is in. Returns how many jobs
 * were added.
 */
async function addRunJobs(
  specs: Iterable<JobSpec>,
  run: { runId: string; chatbot: string; total: number; step?: TurnStep },
  options: EnqueueOptions,
  at: number,
): Promise<number> {
  const { runId, chatbot, total } = run;
  const sink = options.sink ?? inThisThread(options);
  const pace = options.pace ?? UNPACED;
  // Why each chunk takes its turns just before it goes in (not the whole run at once): a paced
  // chunk added late starts from the queue's clock of that moment (see fair-turns.ts).
  const turns = runTurns(options.store.redis, options.writes, run.step);
  const stop = enqueueStop(options.signal);
  let added = 0;
  /** Jobs whose chunk the sink took (for a thread's sink: handed over, acknowledged by `settle`). */
  let taken = 0;
  sink.begin?.(total);
  try {
    for (const part of chunksOf(specs, Math.max(1, options.chunkSize ?? CHUNK))) {
      await stop.within(pace.beforeChunk(runId, added, total));
      for (const spec of part) added += runJobIdsOf(spec).length;
      await stop.within(sink.add(await stop.within(turns.take(part)), runId, chatbot, at));
      taken = added;
    }
    await stop.within(sink.settle());
    await stop.within(options.store.runs.sealRun(runId, chatbot, added, Date.now()));
  } catch (thrown) {
    if (stop.gaveUp(thrown)) throw interruptedWhileEnqueuing(runId, taken, total);
    throw thrown;
  } finally {
    stop.end();
  }
  return added;
}

/** The default sink: each chunk added here, before the next is built. */
export function inThisThread(target: ChunkTarget): ChunkSink {
  return {
    add: (part, runId, chatbot, at) => addChunk(part, runId, chatbot, target, at),
    settle: () => Promise.resolve(),
  };
}

/**
 * Enqueues the jobs of `plan` under a run whose record already exists (the sync saved it with its
 * summary and rejected rows). A plan without jobs marks the run done. Returns the job count.
 */
export async function enqueueRunJobs(plan: Plan, runId: string, options: EnqueueOptions, now: number = Date.now()): Promise<number> {
  const { deleteBatchSize } = options.jobs;
  const run = { runId, chatbot: plan.chatbot, total: jobCountOf(plan, deleteBatchSize) };
  return await addRunJobs(queueJobSpecs(plan, runId, deleteBatchSize, options.jobs.listingsPerJob), run, options, now);
}

/**
 * Records `run` and enqueues one job of kind `kind` per body (a bulk edit: settings or
 * knowledge-base edits), with ids fixed by run and chatbot (jobs/support/per-chatbot-jobs.ts).
 */
export async function enqueuePerChatbot(
  kind: string,
  payloads: readonly { serialNumber: string }[],
  run: NewRun,
  options: EnqueueOptions,
): Promise<EnqueuedRun> {
  const specs = perChatbotJobSpecs(kind, payloads, run.id);
  await options.store.runs.createRun({ ...run, status: 'enqueuing' });
  // Why one turn for all: each job is a different chatbot's, so each is that chatbot's first turn.
  await addRunJobs(specs, { runId: run.id, chatbot: run.chatbot, total: specs.length, step: 'per-chatbot' }, options, run.startedAt);
  return { runId: run.id, jobIds: specs.map((spec) => spec.id) };
}
