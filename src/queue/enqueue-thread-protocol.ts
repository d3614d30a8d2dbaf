/**
 * The messages between a sync and the enqueue thread (threaded-enqueue.ts on the sync's side,
 * enqueue-worker.ts in the thread). The thread only adds chunks of jobs (enqueue.ts `addChunk`);
 * the sync builds the chunks and seals the run itself, once every chunk is acknowledged.
 */
import type { SentError } from '../runtime/worker-thread.js';
import type { RedisSettings } from './connection.js';
import type { JobQueueSettings } from './enqueue.js';
import type { JobSpec } from '../../jobs/support/job-spec.js';
import type { JobSeal } from './job-seal.js';

/**
 * Chunks the sync may send ahead of the thread's acknowledgements. Why 4: the thread always
 * has the next chunk at hand while the jobs it holds stay a few hundred at most (a 100k-listing
 * migration must not queue its whole plan in the thread's inbox).
 */
export const ENQUEUE_THREAD_WINDOW = 4;

/**
 * How many nice levels below the sync's own thread the enqueue thread runs (Linux; see
 * src/runtime/thread-priority.ts). Why: while it adds a run's jobs it keeps a core busy, and on a small
 * machine the workers' thread of the same process, Redis and the service's answers then wait
 * for a core; the enqueue only has to stay ahead of the workers. Why 10 and not 19: when other busy processes share the machine the thread
 * still gets about a tenth of a core rather than almost nothing, so a run still gets sealed.
 */
export const ENQUEUE_THREAD_NICENESS = 10;

/** What the thread gets at start: where Redis is (secrets included; never logged), the job settings and the seal. */
export interface EnqueueThreadData {
  redis: RedisSettings;
  jobs: JobQueueSettings;
  /** What the jobs it adds are sealed with (job-seal.ts; its key never logged). */
  seal: JobSeal;
}

export type ToEnqueueThread =
  /** Add these jobs to run `runId` (answered by one `added`, in order). */
  | { type: 'chunk'; runId: string; chatbot: string; at: number; specs: JobSpec[] }
  /** Close the connection and end. */
  | { type: 'close' };

export type FromEnqueueThread =
  /** Connected: chunks sent now are added at once. */
  | { type: 'ready' }
  /** One more chunk is in the queue. */
  | { type: 'added' }
  /** A chunk failed; the thread adds nothing more. */
  | { type: 'failed'; error: SentError };
