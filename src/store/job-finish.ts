/**
 * Records a job's final outcome in ONE Redis call: the ledger (conditional on run order), the
 * failed-key memory, and the run's live counts. One Lua script instead of five round trips keeps
 * per-job overhead small (throughput), and makes the whole update atomic: a worker that dies
 * between the service call and this call simply re-runs the job, which then records once.
 *
 * Idempotency: the run keeps jobId → outcome. Recording the same outcome again changes nothing;
 * a different outcome (failed, then retried from the dashboard and created) moves the count.
 * `retried` rises by the attempts beyond the first, taking the highest attempt number seen.
 */
import type { RedisClient } from './redis-client.js';
import type { LedgerEntry } from '../domain/ledger-entry.js';
import type { SyncKeyType } from '../domain/listing.js';
import type { StoreKeys } from './keys.js';
import { NEWER_WRITER_LUA, encodeLedgerEntry } from './ledger.js';
import { luaScript, runLua } from './lua.js';
import { BEAT_LEASE_LUA, NOW_LUA, SETTLE_RUN_LUA } from './run-lua.js';
import type { JobOutcome } from './run-types.js';
import type { RunStore } from './runs.js';

const FINISH = luaScript(`${NEWER_WRITER_LUA}${NOW_LUA}${BEAT_LEASE_LUA}${SETTLE_RUN_LUA}
local ledgerKey, tombKey, failedKey, runKey, outcomesKey, attemptsKey, claimsKey, leaseKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local jobId, outcome, weight, attempt, now, runId, mode, n = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], ARGV[6], ARGV[7], tonumber(ARGV[8])
local function ownClaim(key)
  local claim = redis.call('HGET', claimsKey, key)
  return claim and string.match(claim, '^([^\\t]*)') == jobId
end
local superseded = 0
local i = 9
for _ = 1, n do
  local key = ARGV[i]
  if newerWriter(ledgerKey, tombKey, key, runId) then
    superseded = superseded + 1
  elseif mode == 'write' then
    redis.call('HSET', ledgerKey, key, ARGV[i + 1])
    redis.call('HDEL', tombKey, key)
    redis.call('HDEL', failedKey, key)
  elseif mode == 'delete' then
    redis.call('HDEL', ledgerKey, key)
    redis.call('HSET', tombKey, key, runId)
    redis.call('HDEL', failedKey, key)
  elseif mode == 'fail' then
    redis.call('HSET', failedKey, key, ARGV[i + 1])
  end
  -- The claim ends with the write; a job that failed for good may have sent its request, so its
  -- claim stays as 'doubt' and the next writer of the key looks it up first.
  if ownClaim(key) then
    if mode == 'fail' then redis.call('HSET', claimsKey, key, jobId .. '\t0\tdoubt')
    else redis.call('HDEL', claimsKey, key) end
  end
  if mode == 'delete' then i = i + 1 else i = i + 2 end
end
if redis.call('EXISTS', runKey) == 0 then return {superseded, false} end
beatLease(leaseKey, runId, nowMs())
local previous = redis.call('HGET', outcomesKey, jobId)
local current = outcome .. '\t' .. weight
if previous ~= current then
  if previous then
    local prevOutcome, prevWeight = string.match(previous, '^([^\t]*)\t(.*)$')
    redis.call('HINCRBY', runKey, 'c:' .. prevOutcome, -tonumber(prevWeight))
    if prevOutcome == 'failed' then redis.call('HINCRBY', runKey, 'j:failed', -1) end
  else
    redis.call('HINCRBY', runKey, 'j:finished', 1)
  end
  redis.call('HSET', outcomesKey, jobId, current)
  redis.call('HINCRBY', runKey, 'c:' .. outcome, weight)
  if outcome == 'failed' then redis.call('HINCRBY', runKey, 'j:failed', 1) end
  redis.call('HSET', runKey, 'j:progressAt', now)
end
local seen = tonumber(redis.call('HGET', attemptsKey, jobId) or '1')
if attempt > seen then
  redis.call('HINCRBY', runKey, 'c:retried', attempt - seen)
  redis.call('HSET', attemptsKey, jobId, attempt)
elseif not redis.call('HEXISTS', attemptsKey, jobId) then
  redis.call('HSET', attemptsKey, jobId, attempt)
end
return {superseded, settleRun(runKey, leaseKey, runId, now)}
`);

/** A listing key a job failed on for good: remembered until a later write of the key succeeds. */
export interface FailedKey {
  key: string;
  jobId: string;
  runId: string;
  code: string;
  message: string;
  attempts: number;
  at: number;
}

interface FinishBase {
  chatbot: string;
  /** The key type of the keys written, deleted or failed (which ledger); omit for jobs about no key. */
  keyType?: SyncKeyType;
  runId: string;
  jobId: string;
  outcome: JobOutcome;
  /** How many listings the outcome counts for (a delete batch counts each key). */
  weight: number;
  /** The job's attempt number (1 = first). */
  attempt: number;
  now: number;
}

/** What a finished job changes besides its run counts. */
export type FinishEffect =
  | { mode: 'write'; writes: ReadonlyArray<{ key: string; entry: LedgerEntry }> }
  | { mode: 'delete'; keys: readonly string[] }
  | { mode: 'fail'; failures: readonly FailedKey[] }
  | { mode: 'none' };

export type JobFinish = FinishBase & FinishEffect;

export class JobFinishStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    private readonly runs: Pick<RunStore, 'closeOpen'>,
  ) {}

  /** Applies a job's final outcome atomically; returns how many keys a newer run had already touched. */
  async finishJob(finish: JobFinish): Promise<number> {
    const { keys } = this;
    const keyType = finish.keyType ?? 'MLSNumber';
    const items: string[] = [];
    if (finish.mode === 'write') for (const w of finish.writes) items.push(w.key, encodeLedgerEntry(w.entry));
    if (finish.mode === 'delete') items.push(...finish.keys);
    if (finish.mode === 'fail') for (const f of finish.failures) items.push(f.key, JSON.stringify(f));
    const count =
      finish.mode === 'write'
        ? finish.writes.length
        : finish.mode === 'delete'
          ? finish.keys.length
          : finish.mode === 'fail'
            ? finish.failures.length
            : 0;
    const [superseded, settled] = (await runLua(
      this.redis,
      FINISH,
      [
        keys.ledger(finish.chatbot, keyType),
        keys.tombstones(finish.chatbot, keyType),
        keys.failed(finish.chatbot, keyType),
        keys.run(finish.chatbot, finish.runId),
        keys.runOutcomes(finish.chatbot, finish.runId),
        keys.runAttempts(finish.chatbot, finish.runId),
        keys.claims(finish.chatbot, keyType),
        keys.lease(finish.chatbot),
      ],
      [finish.jobId, finish.outcome, finish.weight, finish.attempt, finish.now, finish.runId, finish.mode, count, ...items],
    )) as [number, string | null];
    // The run ended with this job: off the open list (a separate command: see SETTLE_RUN_LUA).
    if (typeof settled === 'string') await this.runs.closeOpen(finish.runId);
    return superseded;
  }
}
