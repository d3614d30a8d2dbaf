/**
 * Retention of run records: finding each chatbot's runs past the window, and removing one run
 * with everything that belongs to it in one atomic script. Used by retention.ts (removal) and by
 * the Redis report (counting what the reconciler should have removed).
 */
import type { RedisClient } from './redis-client.js';
import type { StoreKeys } from './keys.js';
import { luaScript } from './lua.js';
import { evalshaBatch } from './lua-batch.js';
import { FINAL_RUN_STATUSES } from './run-types.js';
import { SCAN_BATCH, scanKeys, startsWithPattern } from './scan.js';

/**
 * Removes one run if it still may go, deciding inside Redis so that concurrent passes and a run
 * changing meanwhile cannot make it remove the wrong one:
 * - it is not among the newest ARGV[3] runs of its chatbot (rank in the chatbot's index);
 * - its record is final (ARGV[4..]) and started and finished before the cutoff ARGV[2] — a run
 *   that ended recently is kept however early it started;
 * - a run whose record is already gone (a pass that stopped half way) only needs its leftovers
 *   removed.
 * KEYS: run, outcomes, attempts, jobs, rejected, runs of the chatbot (one chatbot's slot).
 * Returns {1 if it left the chatbot's index, keys unlinked}. The installation-wide indexes (all
 * runs, open runs, runId → chatbot) are cleaned by the caller afterwards: a script may touch only
 * one slot on a Redis Cluster. A crash in between leaves an id there whose record is gone, which
 * every reader of them skips.
 */
const REMOVE_RUN = luaScript(`
local runId, cutoff, keepRuns = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local rank = redis.call('ZREVRANK', KEYS[6], runId)
if rank and rank < keepRuns then return {0, 0} end
if redis.call('EXISTS', KEYS[1]) == 1 then
  local fields = redis.call('HMGET', KEYS[1], 'status', 'startedAt', 'finishedAt')
  local final = false
  for i = 4, #ARGV do
    if fields[1] == ARGV[i] then final = true end
  end
  if not final then return {0, 0} end
  local started, finished = tonumber(fields[2]), tonumber(fields[3])
  if started == nil or started >= cutoff then return {0, 0} end
  if finished ~= nil and finished >= cutoff then return {0, 0} end
else
  local score = redis.call('ZSCORE', KEYS[6], runId)
  if score and tonumber(score) >= cutoff then return {0, 0} end
end
local unlinked = redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return {redis.call('ZREM', KEYS[6], runId), unlinked}
`);

/** What removeRuns did. */
export interface RemovedRuns {
  /** Runs that were removed (or whose leftovers were). */
  runs: number;
  /** Keys unlinked. */
  keys: number;
  /** Runs that left the chatbot's index (what shifts the ranks walkOldRuns pages by). */
  unindexed: number;
}

/** Removes those of `runIds` (runs of `chatbot`) that may go; see REMOVE_RUN. */
export async function removeRuns(
  redis: RedisClient,
  keys: StoreKeys,
  chatbot: string,
  runIds: readonly string[],
  cutoff: number,
  keepRuns: number,
): Promise<RemovedRuns> {
  const calls = runIds.map((runId) => ({
    keys: [
      keys.run(chatbot, runId),
      keys.runOutcomes(chatbot, runId),
      keys.runAttempts(chatbot, runId),
      keys.runJobs(chatbot, runId),
      keys.runRejected(chatbot, runId),
      keys.runsOfChatbot(chatbot),
    ],
    args: [runId, cutoff, keepRuns, ...FINAL_RUN_STATUSES],
  }));
  const removed: RemovedRuns = { runs: 0, keys: 0, unindexed: 0 };
  const gone: string[] = [];
  (await evalshaBatch(redis, REMOVE_RUN, calls)).forEach((reply, n) => {
    const [unindexed, unlinked] = (Array.isArray(reply) ? reply : []).map(Number);
    if ((unindexed ?? 0) > 0 || (unlinked ?? 0) > 0) {
      removed.runs += 1;
      gone.push(runIds[n] as string);
    }
    removed.unindexed += unindexed ?? 0;
    removed.keys += unlinked ?? 0;
  });
  if (gone.length > 0) {
    await Promise.all([redis.zrem(keys.runsAll(), ...gone), redis.zrem(keys.runsOpen(), ...gone), redis.hdel(keys.runChatbots(), ...gone)]);
  }
  return removed;
}

/** Calls `visit` with every chatbot that has a run index, and the index's key (SCAN, never KEYS). */
export async function forEachRunIndex(
  redis: RedisClient,
  keys: StoreKeys,
  visit: (chatbot: string, index: string) => Promise<void>,
): Promise<void> {
  const head = keys.chatbotKeyHead('runsOfChatbot');
  for await (const batch of scanKeys(redis, startsWithPattern(head))) {
    for (const index of batch) await visit(keys.chatbotOfKey(head, index), index);
  }
}

/**
 * Hands `handle` the ids of runs in the chatbot index `index` that are beyond its newest
 * `keepRuns` and started before `cutoff`, oldest first, at most SCAN_BATCH at a time. `handle`
 * returns how many of them it removed from the index, so that paging by rank skips the runs it
 * kept (an open old run) and stays on those it did not see yet.
 */
export async function walkOldRuns(
  redis: RedisClient,
  index: string,
  keepRuns: number,
  cutoff: number,
  handle: (runIds: string[]) => Promise<number>,
): Promise<void> {
  let size = await redis.zcard(index);
  let position = 0;
  while (size - keepRuns - position > 0) {
    const take = Math.min(SCAN_BATCH, size - keepRuns - position);
    const flat = await redis.zrange(index, String(position), String(position + take - 1), 'WITHSCORES');
    const runIds: string[] = [];
    let reachedRecent = false;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      if (Number(flat[i + 1]) >= cutoff) {
        reachedRecent = true;
        break;
      }
      runIds.push(flat[i] as string);
    }
    if (runIds.length === 0) return;
    const removed = await handle(runIds);
    size -= removed;
    position += runIds.length - removed;
    if (reachedRecent || flat.length < take * 2) return;
  }
}

/**
 * How many runs a retention pass with this cutoff would remove (the same rule as REMOVE_RUN,
 * read without changing anything): the Redis report's sign that no reconciler is running.
 */
export async function countExpiredRuns(redis: RedisClient, keys: StoreKeys, keepRuns: number, cutoff: number): Promise<number> {
  let count = 0;
  await forEachRunIndex(redis, keys, async (chatbot, index) => {
    await walkOldRuns(redis, index, keepRuns, cutoff, async (runIds) => {
      const replies = await Promise.all(runIds.map((runId) => redis.hmget(keys.run(chatbot, runId), 'status', 'startedAt', 'finishedAt')));
      for (const fields of replies) {
        const [status, started, finished] = fields;
        const final = FINAL_RUN_STATUSES.some((s) => s === status);
        if (final && started !== null && Number(started) < cutoff && (finished === null || Number(finished) < cutoff)) count += 1;
      }
      return 0;
    });
  });
  return count;
}
