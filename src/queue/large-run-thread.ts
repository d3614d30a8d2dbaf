/**
 * The enqueue thread (threaded-enqueue.ts) only for a run large enough to repay it.
 *
 * Why not for every `sync --work`: a thread is a second V8 isolate that loads its own bundle,
 * connects, and compiles the enqueue's hot code again, and every chunk crosses to it by
 * postMessage: it costs CPU and memory on every run and saves time only on some (figures:
 * BENCHMARKS.md, "tried and dropped"). It pays only when this thread's event loop is the bottleneck: a fast service and a plan long
 * enough that enqueueing competes with the workers for seconds, i.e. a migration, not a
 * nightly diff. The thread starts when the run's size is known (ChunkSink `begin`); the chunks
 * go in here until it is ready, without waiting for it.
 */
import { addChunk, type ChunkSink, type ChunkTarget } from './enqueue.js';
import type { EnqueueThread } from './threaded-enqueue.js';

/** Jobs a run needs for the thread to start: below this, every chunk is added in this thread. */
export const THREAD_MIN_JOBS = 50_000;

/** A sink for the runs of one session, and its release. */
export interface LargeRunThread {
  sink: ChunkSink;
  /** Whether a run has started the thread (what the tests check: a small run starts none). */
  started(): boolean;
  /** Closes the thread if one started; afterwards no run starts one. */
  close(): Promise<void>;
}

/**
 * Chunks of a run of at least `minJobs` go to the thread `start` makes (once, for the first such
 * run); those of smaller runs, and any before `begin`, are added here, into `here`.
 */
export function largeRunThread(start: () => EnqueueThread, here: ChunkTarget, minJobs = THREAD_MIN_JOBS): LargeRunThread {
  let thread: EnqueueThread | undefined;
  let closed = false;
  /** The sink of the run under way: the thread's, or undefined for here. */
  let current: ChunkSink | undefined;
  return {
    sink: {
      begin(total) {
        if (total >= minJobs && !closed) thread ??= start();
        current = total >= minJobs ? thread?.sink : undefined;
      },
      add: (part, runId, chatbot, at) => (current ? current.add(part, runId, chatbot, at) : addChunk(part, runId, chatbot, here, at)),
      settle: () => (current ? current.settle() : Promise.resolve()),
    },
    started: () => thread !== undefined,
    async close() {
      closed = true;
      current = undefined;
      await thread?.close();
    },
  };
}
