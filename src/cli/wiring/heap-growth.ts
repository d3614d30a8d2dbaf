/**
 * The heap growth policy of `sync --work`: after each full garbage collection V8 lets the old
 * generation grow to this much more than what survived before it collects again.
 *
 * Why: V8's own factor is dynamic, up to 4× what is live when collecting is cheap compared to
 * allocating, and a `sync --work` allocates fast (jobs read back from the plan's spool, BullMQ's
 * job records, the workers' requests and answers) while what it keeps is small, so holding the
 * old generation near what is live trades a little CPU for a much lower peak RSS.
 * A small feed's run pays the CPU without needing the memory, so the policy is only set for a
 * large or unknown feed (`heapPolicyPays`). Why a growing factor and not a heap cap: a feed that
 * needs more than a cap fails with out-of-memory, whereas a factor only makes V8 collect more often.
 *
 * Set at run time with `v8.setFlagsFromString` (Node 20, V8 11.3: flags are not frozen after
 * start, and V8 reads `heap_growing_percent` each time it sets the next limit), so it applies to
 * this process's heap and to the threads the command starts (the feed reader, the enqueue).
 */
import { setFlagsFromString } from 'node:v8';
import { localFileBytes } from '../../feed/feed-source.js';

/** The old generation may grow to (1 + this / 100) × what survived the last full collection. */
export const HEAP_GROWING_PERCENT = 20;

/**
 * A local feed file smaller than this keeps V8's own policy. Why: its plan and jobs never make
 * the heap large, and collecting more often then only costs CPU. 16 MiB is ~30,000 listings of
 * native JSON.
 */
export const HEAP_POLICY_MIN_FEED_BYTES = 16 * 1024 * 1024;

/**
 * Whether a `sync --work` of `source` keeps its heap near what is live: yes for a feed URL or a
 * replication (their size is not known up front) and for a local file of at least
 * HEAP_POLICY_MIN_FEED_BYTES; a file that cannot be stat'ed is left to the feed reader to report.
 */
export async function heapPolicyPays(source: string, replicating: boolean): Promise<boolean> {
  if (replicating) return true;
  const size = await localFileBytes(source);
  return size === undefined || size >= HEAP_POLICY_MIN_FEED_BYTES;
}

/** Keeps the heap of this process close to what is live (see the module's comment). Call once, early. */
export function keepHeapNearLive(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
