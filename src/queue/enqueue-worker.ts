/**
 * The enqueue thread (see threaded-enqueue.ts): its own Redis connection, store and writes
 * queue; adds each chunk it is sent, in order, and acknowledges it. After a failure it adds
 * nothing more (the sync reports the failure, as an enqueue in-thread would).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createStore } from '../store/store.js';
import { lowerThreadPriority } from '../runtime/thread-priority.js';
import { sendableError } from '../runtime/worker-thread.js';
import { closeConnection, createWorkerConnection } from './connection.js';
import { addChunk } from './enqueue.js';
import {
  ENQUEUE_THREAD_NICENESS,
  type EnqueueThreadData,
  type FromEnqueueThread,
  type ToEnqueueThread,
} from './enqueue-thread-protocol.js';
import { openQueues } from './queues.js';

const port = parentPort;
if (port === null) throw new Error('enqueue-worker runs as a worker thread only');
lowerThreadPriority(ENQUEUE_THREAD_NICENESS);

const { redis: settings, jobs, seal } = workerData as EnqueueThreadData;
// Why a worker connection: like the sync's own, it waits through a Redis outage or restart and
// carries on (the sync's connection reports the outage; this one stays quiet).
const redis = createWorkerConnection(settings);
const store = createStore(redis, settings.prefix);
const queues = openQueues(redis, settings.prefix, seal);
for (const queue of [queues.writes, queues.syncRuns, queues.alerts]) queue.on('error', () => undefined);

const send = (message: FromEnqueueThread): void => port.postMessage(message);
let ready = false;
let failed = false;
let work: Promise<void> = Promise.resolve();
void redis.ping().then(() => {
  ready = true;
  send({ type: 'ready' });
});

async function close(): Promise<void> {
  await queues.close();
  await closeConnection(redis);
  port?.close();
}

async function add(message: Extract<ToEnqueueThread, { type: 'chunk' }>): Promise<void> {
  if (failed) return;
  try {
    await addChunk(message.specs, message.runId, message.chatbot, { store, writes: queues.writes, jobs }, message.at);
    send({ type: 'added' });
  } catch (thrown) {
    failed = true;
    send({ type: 'failed', error: sendableError(thrown) });
  }
}

// Why a chain: chunks are added one after another, in the order they were sent, and a close
// waits for them. Chunks come only once this thread said it is ready; a close before that
// (Redis never answered) ends at once.
port.on('message', (message: ToEnqueueThread) => {
  if (message.type === 'close' && !ready) void close();
  else work = work.then(() => (message.type === 'close' ? close() : add(message)));
});
