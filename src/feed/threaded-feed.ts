/**
 * An OpenFeed whose importer runs in a worker thread (feed-worker.ts): the same rows, stats,
 * progress and errors as reading the feed in-thread, while this thread is free to plan.
 *
 * Why: reading a feed (csv-parse, mapping, validation) and planning each row take about the
 * same time; on a machine with a second core a large sync runs them side by side. Rows cross
 * the thread boundary by structured clone (~1 µs to send, ~2 µs to receive a row), which only
 * pays for itself on large feeds (see openFeed).
 */
import type { Worker } from 'node:worker_threads';
import type { FeedHeader, FeedShape } from '../domain/feed-shape.js';
import { ListingSyncError } from '../shared/errors.js';
import { feedInterrupted } from './feed-error.js';
import { displaySource } from './feed-source.js';
import { type FeedProgress, type FeedWorkerCredit, type FeedWorkerData, type FromFeedWorker } from './feed-worker-protocol.js';
import type { FeedOptions, FeedRow, FeedStats, OpenFeed } from './feed-types.js';
import { receivedError, startModuleThread } from '../runtime/worker-thread.js';
import { ErrorCode } from '../shared/error-codes.js';

/** Starts the worker module next to this one (feed-worker.ts). */
function startFeedWorker(workerData: FeedWorkerData): Worker {
  // Why a 16 MiB young generation: the importer's garbage is short-lived, so a small nursery
  // keeps it from growing the resident set without costing time.
  return startModuleThread(import.meta.url, './feed-worker.js', workerData, { maxYoungGenerationSizeMb: 16 });
}

type Waiter = { resolve: () => void };

/**
 * Opens the feed in a worker; resolves once the worker opened it (or rejects with its error).
 * `signal` (which cannot cross to the thread) stops the worker and fails the feed FEED_INTERRUPTED.
 */
export async function openFeedInWorker(options: FeedOptions, signal?: AbortSignal): Promise<OpenFeed> {
  const worker = startFeedWorker({ options: { ...options, thread: 'main' } });
  const batches: FeedRow[][] = [];
  let stats: FeedStats | undefined;
  let header: FeedHeader | undefined;
  let shape: FeedShape | undefined;
  let progress: FeedProgress = { bytes: 0 };
  let opened = false;
  let ended = false;
  let failure: Error | undefined;
  let stopped = false;
  let waiter: Waiter | undefined;
  const wake = (): void => {
    waiter?.resolve();
    waiter = undefined;
  };
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    signal?.removeEventListener('abort', onAbort);
    await worker.terminate();
  };

  worker.on('message', (message: FromFeedWorker) => {
    if (message.type === 'failed') failure = receivedError(message.error);
    else {
      progress = message.progress;
      if (message.type === 'opened') {
        opened = true;
        header = message.header;
      } else {
        stats = message.stats;
        if (message.type === 'rows') batches.push(message.rows);
        else {
          ended = true;
          shape = message.shape;
        }
      }
    }
    wake();
  });
  worker.on('error', (thrown: Error) => {
    failure ??= thrown;
    wake();
  });
  worker.on('exit', (code) => {
    if (!stopped && !ended)
      failure ??= new ListingSyncError(ErrorCode.FEED_WORKER_EXIT, `The feed reader thread stopped unexpectedly (exit code ${code}).`);
    wake();
  });
  const onAbort = (): void => {
    failure ??= feedInterrupted(displaySource(options.source));
    void stop();
    wake();
  };
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  /** Waits for the next message that changes what `ready` looks at. */
  const nextMessage = (): Promise<void> => new Promise<void>((resolve) => (waiter = { resolve }));

  while (!opened && failure === undefined) await nextMessage();
  if (failure !== undefined) {
    await stop();
    throw failure;
  }

  let batch: FeedRow[] = [];
  let index = 0;
  const credit: FeedWorkerCredit = { type: 'credit' };
  /** The next batch, or undefined after the last; throws the worker's error in file order. */
  const nextBatch = async (): Promise<FeedRow[] | undefined> => {
    for (;;) {
      const ready = batches.shift();
      if (ready !== undefined) {
        if (!stopped) worker.postMessage(credit);
        return ready;
      }
      if (failure !== undefined) {
        await stop();
        throw failure;
      }
      if (ended || stopped) {
        await stop();
        return undefined;
      }
      await nextMessage();
    }
  };
  const next = async (): Promise<IteratorResult<FeedRow>> => {
    while (index >= batch.length) {
      const ready = await nextBatch();
      if (ready === undefined) return { done: true, value: undefined };
      batch = ready;
      index = 0;
    }
    return { done: false, value: batch[index++] as FeedRow };
  };
  // Why hand-written: most calls are answered from the current batch with a resolved promise.
  const iterator: AsyncIterator<FeedRow> = {
    next: () => (index < batch.length ? Promise.resolve({ done: false, value: batch[index++] as FeedRow }) : next()),
    return: async () => {
      await stop();
      return { done: true, value: undefined };
    },
  };
  return {
    rows: { [Symbol.asyncIterator]: () => iterator },
    stats: () => stats ?? { rows: 0, valid: 0, rejected: 0, excluded: 0, duplicates: 0, filledDefaults: {} },
    progress: () => progress,
    readIn: 'worker',
    ...(header === undefined ? {} : { header }),
    shape: () => shape,
  };
}
