/**
 * The enqueue of `sync --work` in a thread of its own (enqueue-worker.ts).
 *
 * Why: this process's workers read the service's answers on this thread's event loop, and
 * adding a job to BullMQ (the job record, its options packed, the commands encoded, the key
 * index) costs about 75 µs of CPU here. Done here, during the first seconds of the writes, it
 * holds their answers back (bench:sync compares the writes phase with a bare request loop).
 * The thread's own CPU outweighs that for all but large runs, so
 * the CLI starts it only for a run of 50,000 jobs or more (large-run-thread.ts). The run is
 * sealed here, once the thread has acknowledged every chunk.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { ListingSyncError } from '../shared/errors.js';
import { receivedError, startModuleThread } from '../runtime/worker-thread.js';
import { addChunk, type ChunkSink, type ChunkTarget } from './enqueue.js';
import { ENQUEUE_THREAD_WINDOW, type EnqueueThreadData, type FromEnqueueThread, type ToEnqueueThread } from './enqueue-thread-protocol.js';
import { ErrorCode } from '../shared/error-codes.js';

/** How long `close` lets the thread finish its chunks and quit Redis before stopping it. */
export const CLOSE_GRACE_MS = 5000;

/**
 * How long the chunks after the first wait for a thread that is not ready yet before they are
 * added here instead. Why wait at all: the first chunk, added here, keeps the workers busy for a
 * moment, and the thread is usually ready a few tenths of a second after the session opened;
 * adding the next chunks here meanwhile held the workers' answers back (bench:sync: ~1.5% more
 * writes/s and ~0.15 s less for the whole command when they wait). Why not for ever: a thread
 * whose own connection never answers must not stop a sync that this thread's connection can do.
 */
export const THREAD_READY_WAIT_MS = 1000;

export interface EnqueueThread {
  /** Chunks go to the thread once it is connected, and are added here until then (or after close). */
  sink: ChunkSink;
  /** Resolves once the thread is connected and takes chunks. */
  ready: Promise<void>;
  /** Lets the thread add what it was sent, quit its connection and end (stopped after CLOSE_GRACE_MS). */
  close(): Promise<void>;
}

/** Whether a second thread can run beside this one: on one core it would only take turns with the workers. */
export function enqueueThreadPays(): boolean {
  return availableParallelism() > 1;
}

export interface EnqueueThreadOptions {
  /** How long the chunks after the first wait for a thread not ready yet (default THREAD_READY_WAIT_MS). */
  readyWaitMs?: number;
}

/** Starts the enqueue thread; `here` is where chunks go while it is not ready. */
export function startEnqueueThread(data: EnqueueThreadData, here: ChunkTarget, options: EnqueueThreadOptions = {}): EnqueueThread {
  const readyWaitMs = options.readyWaitMs ?? THREAD_READY_WAIT_MS;
  // Why a small young generation: the thread's garbage (chunks, encoded commands) is short-lived.
  const worker: Worker = startModuleThread(import.meta.url, './enqueue-worker.js', data, { maxYoungGenerationSizeMb: 8 });
  let ready = false;
  let closing = false;
  let exited = false;
  let failure: Error | undefined;
  /** Chunks sent to the thread and not yet acknowledged. */
  let pending = 0;
  /** Set by the first chunk added here: until when the next chunks wait for the thread to be ready. */
  let readyBy: number | undefined;
  let waiters: Array<() => void> = [];
  let connected: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (connected = resolve));
  const changed = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));
  const wake = (): void => {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
  };

  worker.on('message', (message: FromEnqueueThread) => {
    if (message.type === 'ready') {
      ready = true;
      connected();
    } else if (message.type === 'added') pending -= 1;
    else failure ??= receivedError(message.error);
    wake();
  });
  worker.on('error', (thrown: Error) => {
    failure ??= thrown;
    wake();
  });
  worker.on('exit', (code) => {
    exited = true;
    if (!closing)
      failure ??= new ListingSyncError(ErrorCode.ENQUEUE_THREAD_EXIT, `The enqueue thread stopped unexpectedly (exit code ${code}).`);
    wake();
  });
  const post = (message: ToEnqueueThread): void => worker.postMessage(message);

  /** Waits until the thread is ready, broken or gone, or `deadline` passed. */
  const untilReady = async (deadline: number): Promise<void> => {
    const timer = setTimeout(wake, Math.max(0, deadline - Date.now()));
    while (!ready && !exited && failure === undefined && Date.now() < deadline) await changed();
    clearTimeout(timer);
  };
  /** Throws what broke the thread, if anything did. */
  const unlessBroken = (): void => {
    if (failure !== undefined) throw failure;
  };
  const sink: ChunkSink = {
    async add(part, runId, chatbot, at) {
      unlessBroken();
      if (!ready && !closing && readyBy !== undefined) {
        await untilReady(readyBy);
        unlessBroken();
      }
      if (!ready || closing) {
        readyBy ??= Date.now() + readyWaitMs;
        return await addChunk(part, runId, chatbot, here, at);
      }
      while (pending >= ENQUEUE_THREAD_WINDOW && failure === undefined) await changed();
      unlessBroken();
      pending += 1;
      post({ type: 'chunk', runId, chatbot, at, specs: part });
    },
    async settle() {
      while (pending > 0 && failure === undefined) await changed();
      unlessBroken();
    },
  };

  return {
    sink,
    ready: readyPromise,
    async close() {
      if (closing) return;
      closing = true;
      if (exited) return;
      post({ type: 'close' });
      const timer = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
      while (!exited) await changed();
      clearTimeout(timer);
    },
  };
}
