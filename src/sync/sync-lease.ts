/** The chatbot lease as a sync uses it (src/queue/chatbot-lease.ts over the store and the write queue). */
import { hostname } from 'node:os';
import { acquireChatbot } from '../queue/chatbot-lease.js';
import type { Queues } from '../queue/queues.js';
import type { Store } from '../store/store.js';
import type { SyncLease } from './hold-chatbot.js';

/** This process as a lease holder, as a refused sync names it ("host pid 42", "host pid 42 (resume)"). */
export function processHolder(note?: string): string {
  return `${hostname()} pid ${process.pid}${note === undefined ? '' : ` (${note})`}`;
}

/**
 * Whether `holder` (as processHolder wrote it) names a process of this host that no longer runs.
 * Why: a lease beats with every job of its run that finishes, wherever it is worked, so only the
 * holder's own process can tell a sync still enqueuing from one that was stopped.
 */
export function holderIsGone(holder: string): boolean {
  const named = /^(.+) pid (\d+)(?: \(.*\))?$/.exec(holder);
  if (named === null || named[1] !== hostname()) return false;
  try {
    process.kill(Number(named[2]), 0);
    return false;
  } catch (thrown) {
    return (thrown as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export function syncLease(store: Store, writes: Queues['writes']): SyncLease {
  const holder = processHolder();
  return {
    acquire: (chatbot, runId, waitMs, signal) =>
      acquireChatbot(store, writes, { chatbot, runId, holder, waitMs, ...(signal ? { signal } : {}) }),
    beat: async (chatbot, runId) => void (await store.leases.beat(chatbot, runId)),
    // Why only if idle: once the run's jobs are in the queue, they hold the chatbot until the run ends.
    release: async (chatbot, runId) => void (await store.leases.releaseIfIdle(chatbot, runId)),
    markIdle: (chatbot, runId) => store.leases.markIdle(chatbot, runId),
  };
}
