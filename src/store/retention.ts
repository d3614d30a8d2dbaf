/**
 * Bounded Redis: removes what listing-sync keeps only for looking back (run records with their
 * per-job data, key-index entries, tombstones) once it is past the retention window. Under the
 * required `noeviction` policy nothing else would ever free it (about 135 bytes per job in a
 * run's outcome hash and job list alone).
 *
 * Never touched: the ledger, the failed keys, leases and claims — they are the tool's memory of
 * what the service holds, not history.
 *
 * Every step works in bounded batches (SCAN/HSCAN COUNT 1000, pipelines of at most 1000
 * commands) and every removal re-checks its condition atomically in Redis, so it is idempotent
 * and safe to run from several processes at once.
 */
import { randomBytes } from 'node:crypto';
import { mastersOf, type RedisClient } from './redis-client.js';
import { SYNC_KEY_TYPES } from '../domain/listing.js';
import { compareRunIds, newRunId } from '../domain/job-id.js';
import type { StoreKeys } from './keys.js';
import { luaScript, runLua } from './lua.js';
import { forEachRunIndex, removeRuns, walkOldRuns } from './retention-runs.js';
import { scanHash, scanKeys, startsWithPattern } from './scan.js';
import { touchBucketOf, touchDay } from './key-index.js';

export interface RetentionSettings {
  /** Days a run (and its per-job data, key-index entries, tombstones) is kept at least. */
  keepDays: number;
  /** Newest runs kept per chatbot whatever their age. */
  keepRuns: number;
}

/** What one pass removed. */
export interface RetentionResult {
  /** Time before which data counted as old (ms since the epoch). */
  cutoff: number;
  /** Chatbots whose run index was looked at. */
  chatbots: number;
  /** Run records removed (their hash, outcomes, attempts, job list, rejected rows, index entries). */
  runs: number;
  /** Redis keys those runs held (up to 5 each). */
  runKeys: number;
  /** Key-index touches removed (whole days of them; in the former layout, members of per-key zsets). */
  keyIndexEntries: number;
  /** Tombstones (hash fields) removed. */
  tombstones: number;
}

export const DAY_MS = 86_400_000;

/** The time before which data is old under `settings`. */
export function retentionCutoff(settings: RetentionSettings, now: number): number {
  return now - settings.keepDays * DAY_MS;
}

function checkSettings(settings: RetentionSettings): void {
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`retention: ${name} must be a whole number ≥ 0, got ${String(value)}`);
  }
}

/**
 * Removes the listed tombstones whose run id is still older than ARGV[1]: a field read by HSCAN
 * may meanwhile have been overwritten by a newer run's delete, and that tombstone must stay.
 */
const DROP_OLD_TOMBSTONES = luaScript(`
local removed = 0
for i = 2, #ARGV do
  local runId = redis.call('HGET', KEYS[1], ARGV[i])
  if runId and runId < ARGV[1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
    removed = removed + 1
  end
end
return removed
`);

/**
 * Removes every run beyond the newest `keepRuns` of its chatbot that is final and older than
 * `keepDays` (both: a chatbot synced rarely keeps its last `keepRuns` runs however old they are,
 * one synced often keeps `keepDays` of them however many).
 */
async function removeOldRuns(
  redis: RedisClient,
  keys: StoreKeys,
  settings: RetentionSettings,
  cutoff: number,
  result: RetentionResult,
): Promise<void> {
  await forEachRunIndex(redis, keys, async (chatbot, index) => {
    result.chatbots += 1;
    await walkOldRuns(redis, index, settings.keepRuns, cutoff, async (runIds) => {
      const removed = await removeRuns(redis, keys, chatbot, runIds, cutoff, settings.keepRuns);
      result.runs += removed.runs;
      result.runKeys += removed.keys;
      return removed.unindexed;
    });
  });
}

/**
 * Drops the key-index day sets whose whole day lies before the cutoff (key-index.ts): one UNLINK
 * per chatbot and day, however many listings it holds, so a touch is kept between `keepDays`
 * and a day longer. The set goes before its index entry, so a pass cut short leaves the entry
 * for the next pass to find.
 */
async function dropOldTouchDays(redis: RedisClient, keys: StoreKeys, cutoff: number, result: RetentionResult): Promise<void> {
  const lastOldDay = touchDay(cutoff) - 1;
  const old = await redis.zrangebyscore(keys.keyTouchDays(), '-inf', lastOldDay);
  for (const member of old) {
    const { chatbot, day } = touchBucketOf(member);
    const set = keys.keyTouches(chatbot, day);
    result.keyIndexEntries += await redis.zcard(set);
    await redis.unlink(set);
    await redis.zrem(keys.keyTouchDays(), member);
  }
}

/**
 * Drops members of the former key index (a zset per listing key) scored before the cutoff
 * (ZREMRANGEBYSCORE is atomic per key). Nothing writes those sets any more: once their last
 * member is old they are gone, and this finds none.
 */
async function trimLegacyKeyIndex(redis: RedisClient, keys: StoreKeys, cutoff: number, result: RetentionResult): Promise<void> {
  // Per master, one pipeline per SCAN batch (one round trip for up to SCAN_BATCH keys): the keys a
  // master's SCAN lists are its own, so the pipeline can go to it even on a Redis Cluster.
  for (const server of mastersOf(redis)) {
    for await (const batch of scanKeys(server, startsWithPattern(keys.keyIndex('')))) {
      const pipe = server.pipeline();
      for (const key of batch) pipe.zremrangebyscore(key, '-inf', `(${cutoff}`);
      for (const [error, removed] of (await pipe.exec()) ?? []) {
        if (error) throw error;
        result.keyIndexEntries += Number(removed);
      }
    }
  }
}

/**
 * Drops tombstones written by runs older than the cutoff. Why that is safe: a tombstone only
 * stops a job of an OLDER run from resurrecting the key; such a job has ended long before, and
 * once failed it is kept for retrying for the same window (cli/queue-wiring.ts jobSettings).
 */
async function trimTombstones(redis: RedisClient, keys: StoreKeys, cutoff: number, result: RetentionResult): Promise<void> {
  // Why '0' as the random part: the smallest hex digit, so only ids of strictly earlier ms sort below it.
  const cutoffRunId = newRunId(Math.max(0, cutoff), '0');
  for (const keyType of SYNC_KEY_TYPES) {
    for await (const batch of scanKeys(redis, startsWithPattern(keys.chatbotKeyHead('tombstones', keyType)))) {
      for (const tombKey of batch) {
        for await (const pairs of scanHash(redis, tombKey)) {
          const old = pairs.filter(([, runId]) => compareRunIds(runId, cutoffRunId) < 0).map(([field]) => field);
          if (old.length > 0) result.tombstones += Number(await runLua(redis, DROP_OLD_TOMBSTONES, [tombKey], [cutoffRunId, ...old]));
        }
      }
    }
  }
}

/**
 * One retention pass over the installation whose keys are `keys` (see the module comment).
 * Call it through runRetentionOnce unless the caller already ensures one pass at a time;
 * running it concurrently is safe, only wasteful.
 */
export async function applyRetention(
  redis: RedisClient,
  keys: StoreKeys,
  settings: RetentionSettings,
  now: number,
): Promise<RetentionResult> {
  checkSettings(settings);
  const cutoff = retentionCutoff(settings, now);
  const result: RetentionResult = { cutoff, chatbots: 0, runs: 0, runKeys: 0, keyIndexEntries: 0, tombstones: 0 };
  await removeOldRuns(redis, keys, settings, cutoff, result);
  await dropOldTouchDays(redis, keys, cutoff, result);
  await trimLegacyKeyIndex(redis, keys, cutoff, result);
  await trimTombstones(redis, keys, cutoff, result);
  return result;
}

/** The lock key `{p}:ls:retention-lock` (see keys.ts). */
export function retentionLockKey(keys: StoreKeys): string {
  return keys.retentionLock();
}

const RELEASE_IF_OURS = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/**
 * Runs applyRetention unless another process did within the last `lockMs`: returns undefined
 * then. Why the lock is left to expire after a pass instead of being released: every process's
 * reconciler may call this on its own timer, and the lock makes that one pass per `lockMs` per
 * installation (not one per process). It is released early only when the pass failed, so the
 * next call may try again. A pass longer than `lockMs` may overlap another; that is safe.
 */
export async function runRetentionOnce(
  redis: RedisClient,
  keys: StoreKeys,
  settings: RetentionSettings,
  now: number,
  lockMs: number,
): Promise<RetentionResult | undefined> {
  if (!Number.isSafeInteger(lockMs) || lockMs < 1)
    throw new RangeError(`runRetentionOnce: lockMs must be a whole number ≥ 1, got ${lockMs}`);
  const lockKey = retentionLockKey(keys);
  const token = randomBytes(8).toString('hex');
  if ((await redis.set(lockKey, token, 'PX', lockMs, 'NX')) !== 'OK') return undefined;
  try {
    return await applyRetention(redis, keys, settings, now);
  } catch (thrown) {
    await runLua(redis, RELEASE_IF_OURS, [lockKey], [token]).catch(() => undefined);
    throw thrown;
  }
}
