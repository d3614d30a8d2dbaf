/**
 * Jobs whose record is in Redis but that no list of the queue holds (BullMQ's state "unknown"):
 * no worker will ever take them, and no move of theirs will ever finish. They appear when the
 * queue's lists are deleted while jobs are added (a `DEL` of the queue's keys by hand that passes
 * the wait list after an enqueue wrote new job records behind it), or when Redis loses some keys of
 * a queue and not others. To the reconciler they are as lost as a job whose record is gone.
 *
 * Why one script over the lists, and when: telling "in no list" needs every list's members (LPOS
 * per job is O(list) each; BullMQ's own removeOrphanedJobs does that). The script reads each list
 * once into a set, atomically (no job moves between two lists unseen), and only when the lists hold
 * fewer jobs than the run has unfinished ones, so that some of those must be orphans. A paused or
 * busy queue holding the run's waiting jobs is then never read job by job, and orphans behind other
 * work are found once the workers have drained the lists below their count (the run waits for those
 * workers anyway). ORPHAN_SCAN_MAX_JOBS bounds what one look may read.
 */
import type { Queue } from 'bullmq';
import { luaScript, runLua } from '../store/lua.js';
import type { RedisClient } from '../store/redis-client.js';

/** The most jobs the queue's lists may hold for one orphan check to read them. */
export const ORPHAN_SCAN_MAX_JOBS = 50_000;

/** BullMQ's lists and sorted sets a job waits, runs or is parked in (not completed/failed: finished jobs have finishedOn). */
const LISTS = ['wait', 'paused', 'active'] as const;
const SORTED_SETS = ['delayed', 'prioritized', 'waiting-children'] as const;

// KEYS: the lists, then the sorted sets. ARGV[1]: the most jobs to read (the candidates' count, at
// most ORPHAN_SCAN_MAX_JOBS); ARGV[2..]: candidates. Returns the candidates no list or set holds, or
// false when the lists hold that many jobs or more (not read).
const FIND_ORPHANS = luaScript(`
local lists = ${LISTS.length}
local total = 0
for i = 1, #KEYS do
  if i <= lists then total = total + redis.call('LLEN', KEYS[i]) else total = total + redis.call('ZCARD', KEYS[i]) end
end
if total >= tonumber(ARGV[1]) then return false end
local held = {}
for i = 1, lists do
  for _, id in ipairs(redis.call('LRANGE', KEYS[i], 0, -1)) do held[id] = true end
end
local orphans = {}
for c = 2, #ARGV do
  local id = ARGV[c]
  local found = held[id]
  if not found then
    for i = lists + 1, #KEYS do
      if redis.call('ZSCORE', KEYS[i], id) then found = true break end
    end
  end
  if not found then orphans[#orphans + 1] = id end
end
return orphans
`);

/** Candidates sent to one script call. */
const CHUNK = 5000;

/**
 * Of `candidates` (ids of unfinished jobs whose record exists and that no worker holds), those that
 * no list of `queue` holds. Empty when the lists hold as many jobs as there are candidates or more
 * (not read, see the module comment).
 */
export async function orphanJobs(redis: RedisClient, queue: Queue, candidates: readonly string[]): Promise<string[]> {
  const keys = [...LISTS, ...SORTED_SETS].map((name) => queue.toKey(name));
  const most = Math.min(candidates.length, ORPHAN_SCAN_MAX_JOBS);
  const orphans: string[] = [];
  for (let i = 0; i < candidates.length; i += CHUNK) {
    const reply = await runLua(redis, FIND_ORPHANS, keys, [most, ...candidates.slice(i, i + CHUNK)]);
    if (!Array.isArray(reply)) return [];
    for (const id of reply) orphans.push(String(id));
  }
  return orphans;
}
