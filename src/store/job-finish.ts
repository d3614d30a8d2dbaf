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
import type { LedgerEntry } from '../domain/ledger-entry.js';
import type { SyncKeyType } from '../domain/listing.js';
import type { StoreKeys } from './keys.js';
import { NEWER_WRITER_LUA, encodeLedgerEntry } from './ledger.js';
import { luaScript, runLua } from './lua.js';
import { BEAT_LEASE_LUA, NOW_LUA, SETTLE_RUN_LUA } from './run-lua.js';
import { groupCommit } from './group-commit.js';
import type { RedisClient } from './redis-client.js';
import type { JobOutcome } from './run-types.js';
import type { RunStore } from './runs.js';

/**
 * ARGV: runId, jobs, then per job: jobId, outcome, weight, attempt, now, mode, n and its n items
 * (key and value, or key alone for deletes). The finishes of several jobs of one run (one chatbot,
 * one key type; group-commit.ts) in one call, each applied as if alone, in order; the lease beat
 * and the settling of the run once at the end. Returns {per job how many keys a newer run had
 * already touched, the run's final status if it ended here (else false)}.
 */
const FINISH = luaScript(`${NEWER_WRITER_LUA}${NOW_LUA}${BEAT_LEASE_LUA}${SETTLE_RUN_LUA}
local ledgerKey, tombKey, failedKey, runKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local outcomesKey, attemptsKey, claimsKey, leaseKey = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local runId, jobs = ARGV[1], tonumber(ARGV[2])
local runExists = redis.call('EXISTS', runKey) == 1
-- Why read once per call: most syncs delete nothing and fail nothing, so these hashes are empty
-- and the per-key lookups and removals in them would be commands that change nothing.
local hasTombs = redis.call('EXISTS', tombKey) == 1
local hasFailed = redis.call('EXISTS', failedKey) == 1
local function ownClaim(key, jobId)
  local claim = redis.call('HGET', claimsKey, key)
  return claim and string.match(claim, '^([^\\t]*)') == jobId
end
local function applyKeys(jobId, mode, n, i)
  local superseded = 0
  for _ = 1, n do
    local key = ARGV[i]
    if newerWriter(ledgerKey, tombKey, key, runId, not hasTombs) then
      superseded = superseded + 1
    elseif mode == 'write' then
      redis.call('HSET', ledgerKey, key, ARGV[i + 1])
      if hasTombs then redis.call('HDEL', tombKey, key) end
      if hasFailed then redis.call('HDEL', failedKey, key) end
    elseif mode == 'delete' then
      redis.call('HDEL', ledgerKey, key)
      redis.call('HSET', tombKey, key, runId)
      hasTombs = true
      if hasFailed then redis.call('HDEL', failedKey, key) end
    elseif mode == 'fail' then
      redis.call('HSET', failedKey, key, ARGV[i + 1])
      hasFailed = true
    end
    -- The claim ends with the write; a job that failed for good may have sent its request, so its
    -- claim stays as 'doubt' and the next writer of the key looks it up first.
    if ownClaim(key, jobId) then
      if mode == 'fail' then redis.call('HSET', claimsKey, key, jobId .. '\t0\tdoubt')
      else redis.call('HDEL', claimsKey, key) end
    end
    if mode == 'delete' then i = i + 1 else i = i + 2 end
  end
  return superseded, i
end
-- The run's counters change once per call, by the sum of its jobs' changes (one HINCRBY per field).
local increments, fields = {}, {}
local function add(field, by)
  if increments[field] == nil then increments[field] = 0; fields[#fields + 1] = field end
  increments[field] = increments[field] + by
end
local progressAt = false
local function countOutcome(jobId, outcome, weight, attempt, now)
  local current = outcome .. '\t' .. weight
  -- Usually the job's first outcome: HSETNX records it in one command.
  if redis.call('HSETNX', outcomesKey, jobId, current) == 1 then
    add('j:finished', 1)
    add('c:' .. outcome, weight)
    if outcome == 'failed' then add('j:failed', 1) end
    progressAt = now
  else
    local previous = redis.call('HGET', outcomesKey, jobId)
    if previous ~= current then
      local prevOutcome, prevWeight = string.match(previous, '^([^\t]*)\t(.*)$')
      add('c:' .. prevOutcome, -tonumber(prevWeight))
      if prevOutcome == 'failed' then add('j:failed', -1) end
      redis.call('HSET', outcomesKey, jobId, current)
      add('c:' .. outcome, weight)
      if outcome == 'failed' then add('j:failed', 1) end
      progressAt = now
    end
  end
  -- A job without an entry is at attempt 1 (the entry is written only for later attempts).
  if attempt > 1 then
    local seen = tonumber(redis.call('HGET', attemptsKey, jobId) or '1')
    if attempt > seen then
      add('c:retried', attempt - seen)
      redis.call('HSET', attemptsKey, jobId, attempt)
    end
  end
end
local replies = {}
local i = 3
local lastNow = false
for j = 1, jobs do
  local jobId, outcome, weight, attempt = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
  local now, mode, n = ARGV[i + 4], ARGV[i + 5], tonumber(ARGV[i + 6])
  replies[j], i = applyKeys(jobId, mode, n, i + 7)
  if runExists then
    countOutcome(jobId, outcome, weight, attempt, now)
    lastNow = now
  end
end
for _, field in ipairs(fields) do redis.call('HINCRBY', runKey, field, increments[field]) end
if progressAt then redis.call('HSET', runKey, 'j:progressAt', progressAt) end
local settled = false
if lastNow then
  beatLease(leaseKey, runId, nowMs())
  settled = settleRun(runKey, leaseKey, runId, lastNow)
end
return {replies, settled}
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

/** A job's ARGV part of the FINISH script. */
function finishArgs(finish: JobFinish): Array<string | number> {
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
  return [finish.jobId, finish.outcome, finish.weight, finish.attempt, finish.now, finish.mode, count, ...items];
}

export class JobFinishStore {
  private readonly batches = groupCommit<JobFinish, number>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    private readonly runs: Pick<RunStore, 'closeOpen'>,
  ) {}

  /**
   * Applies a job's final outcome atomically; returns how many keys a newer run had already
   * touched. The finishes of concurrent jobs of one run (one chatbot, one key type) share one
   * call; each resolves only once that call returned.
   */
  async finishJob(finish: JobFinish): Promise<number> {
    const group = `${finish.chatbot}\t${finish.keyType ?? 'MLSNumber'}\t${finish.runId}`;
    return await this.batches.submit(group, finish, (finishes) => this.finishAll(finishes));
  }

  private async finishAll(finishes: readonly JobFinish[]): Promise<number[]> {
    const { keys } = this;
    const finish = finishes[0] as JobFinish;
    const keyType = finish.keyType ?? 'MLSNumber';
    const reply = await runLua(
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
      [finish.runId, finishes.length, ...finishes.flatMap(finishArgs)],
    );
    const [superseded, settled] = Array.isArray(reply) ? (reply as [unknown, unknown]) : [[], null];
    // The run ended with these jobs: off the open list (a separate command: see SETTLE_RUN_LUA).
    if (typeof settled === 'string') await this.runs.closeOpen(finish.runId);
    return finishes.map((_, i) => {
      const count: unknown = Array.isArray(superseded) ? superseded[i] : 0;
      return typeof count === 'number' ? count : 0;
    });
  }
}
