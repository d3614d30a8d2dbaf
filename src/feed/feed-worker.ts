/**
 * The importer in a worker thread (see threaded-feed.ts): opens the feed with the options it was
 * given, exactly as `openFeed` does in-thread, and posts its rows in batches, one batch per
 * credit, so a slow planner holds back the reading instead of queueing the whole feed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  FEED_WORKER_BATCH_ROWS,
  FEED_WORKER_CREDITS,
  type FeedWorkerCredit,
  type FeedWorkerData,
  type FromFeedWorker,
} from './feed-worker-protocol.js';
import { openFeedInThisThread, type FeedRow } from './open-feed.js';
import { sendableError } from '../runtime/worker-thread.js';

const port = parentPort;
if (port === null) throw new Error('feed-worker runs as a worker thread only');

let credits = FEED_WORKER_CREDITS;
let onCredit: (() => void) | undefined;
port.on('message', (message: FeedWorkerCredit) => {
  if (message.type !== 'credit') return;
  credits += 1;
  onCredit?.();
  onCredit = undefined;
});

const send = (message: FromFeedWorker): void => port.postMessage(message);

async function run(): Promise<void> {
  const { options } = workerData as FeedWorkerData;
  const feed = await openFeedInThisThread(options);
  send({ type: 'opened', progress: feed.progress(), header: feed.header });
  let rows: FeedRow[] = [];
  try {
    for await (const row of feed.rows) {
      rows.push(row);
      if (rows.length < FEED_WORKER_BATCH_ROWS) continue;
      while (credits === 0) await new Promise<void>((resolve) => (onCredit = resolve));
      credits -= 1;
      send({ type: 'rows', rows, stats: feed.stats(), progress: feed.progress() });
      rows = [];
    }
  } finally {
    // Also before a failure: the rows read before damage later in the file are delivered, as in-thread.
    if (rows.length > 0) send({ type: 'rows', rows, stats: feed.stats(), progress: feed.progress() });
  }
  send({ type: 'end', stats: feed.stats(), progress: feed.progress(), shape: feed.shape() });
}

run().catch((thrown: unknown) => send({ type: 'failed', error: sendableError(thrown) }));
