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
import { encodeLedgerEntry } from './ledger.js';
import { HASH_VIEW_LUA } from './hash-view-lua.js';
import { luaScript, runLua } from './lua.js';
import { BEAT_LEASE_LUA, NOW_LUA, SETTLE_RUN_LUA } from './run-lua.js';
import { groupCommit } from './group-commit.js';
import { LeaseBeats } from './lease-beats.js';
import type { RedisClient } from './redis-client.js';
import type { JobOutcome } from './run-types.js';
import type { RunStore } from './runs.js';

/**
 * ARGV: runId, jobs, beat ('1': beat the lease, lease-beats.ts), then per job: jobId, outcome,
 * weight, attempt, now, mode, n and its n items (key and value, or key alone for deletes). The
 * finishes of several jobs of one run (one chatbot, one key type; group-commit.ts) in one call,
 * each applied as if alone, in order; the lease beat and the settling of the run once at the
 * end. Returns {per job how many keys a newer run had already touched, the run's final status
 * if it ended here (else false)}.
 *
 * Every hash is read once and written once per call (hash-view-lua.ts), whatever the number of
 * jobs: the ledger, tombstones, failed keys and claims of all the call's keys, the outcomes and
 * attempts of its jobs, and the run record (its status and job counts read once, so settling
 * needs no second read).
 */
const FINISH = luaScript(`${HASH_VIEW_LUA}${NOW_LUA}${BEAT_LEASE_LUA}${SETTLE_RUN_LUA}
local ledgerKey, tombKey, failedKey, runKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local outcomesKey, attemptsKey, claimsKey, leaseKey = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local runId, jobCount, beat = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local run = redis.call('HMGET', runKey, 'status', 'totalJobs', 'j:finished', 'j:failed')
-- Every run record has a status; EXISTS only for one without (a record written by hand).
local runExists = run[1] ~= false or redis.call('EXISTS', runKey) == 1
-- Why one EXISTS for both: most syncs delete nothing and fail nothing, so these hashes are
-- empty, and reading them would be commands that find nothing.
local present = redis.call('EXISTS', tombKey, failedKey)
local hasTombs, hasFailed = present == 2, present == 2
if present == 1 then hasTombs = redis.call('EXISTS', tombKey) == 1; hasFailed = not hasTombs end
-- A job's ARGV: jobId, outcome, weight, attempt, now, mode, n, then its n items from first + 7.
local starts, keys, seen, jobIds, retriedIds = {}, {}, {}, {}, {}
local i = 4
for j = 1, jobCount do
  starts[j] = i
  local step, n = 2, tonumber(ARGV[i + 6])
  if ARGV[i + 5] == 'delete' then step = 1 end
  for at = i + 7, i + 6 + n * step, step do
    local key = ARGV[at]
    if not seen[key] then seen[key] = true; keys[#keys + 1] = key end
  end
  jobIds[j] = ARGV[i]
  if tonumber(ARGV[i + 3]) > 1 then retriedIds[#retriedIds + 1] = ARGV[i] end
  i = i + 7 + n * step
end
local ledger = hashView(ledgerKey, keys, true)
local tombs = hashView(tombKey, keys, hasTombs)
local failed = hashView(failedKey, keys, hasFailed)
local claims = hashView(claimsKey, keys, true)
local outcomes = hashView(outcomesKey, jobIds, runExists)
local attempts = hashView(attemptsKey, retriedIds, runExists and #retriedIds > 0)
-- The run newer than runId that wrote or deleted the key, as of now in this call (else false).
local function newerWriter(key)
  local entry = viewGet(ledger, key)
  if entry then
    local writer = string.match(entry, '^[^\t]*')
    if writer > runId then return writer end
  end
  if not hasTombs then return false end
  local deleter = viewGet(tombs, key)
  if deleter and deleter > runId then return deleter end
  return false
end
local function applyKeys(jobId, mode, n, first)
  local superseded = 0
  local step = 2
  if mode == 'delete' then step = 1 end
  for at = first, first + (n - 1) * step, step do
    local key = ARGV[at]
    if newerWriter(key) then
      superseded = superseded + 1
    elseif mode == 'write' then
      viewSet(ledger, key, ARGV[at + 1])
      if hasTombs then viewSet(tombs, key, false) end
      if hasFailed then viewSet(failed, key, false) end
    elseif mode == 'delete' then
      viewSet(ledger, key, false)
      viewSet(tombs, key, runId)
      hasTombs = true
      if hasFailed then viewSet(failed, key, false) end
    elseif mode == 'fail' then
      viewSet(failed, key, ARGV[at + 1])
      hasFailed = true
    end
    -- The claim ends with the write; a job that failed for good may have sent its request, so its
    -- claim stays as 'doubt' and the next writer of the key looks it up first.
    local claim = viewGet(claims, key)
    if claim and string.match(claim, '^([^\t]*)') == jobId then
      if mode == 'fail' then viewSet(claims, key, jobId .. '\t0\tdoubt') else viewSet(claims, key, false) end
    end
  end
  return superseded
end
-- The run's counters change once per call, by the sum of its jobs' changes.
local increments, fields = {}, {}
local function add(field, by)
  if increments[field] == nil then increments[field] = 0; fields[#fields + 1] = field end
  increments[field] = increments[field] + by
end
local progressAt = false
local function countOutcome(jobId, outcome, weight, attempt, now)
  local current = outcome .. '\t' .. weight
  local previous = viewGet(outcomes, jobId)
  if not previous then
    add('j:finished', 1)
    add('c:' .. outcome, weight)
    if outcome == 'failed' then add('j:failed', 1) end
    viewSet(outcomes, jobId, current)
    progressAt = now
  elseif previous ~= current then
    local prevOutcome, prevWeight = string.match(previous, '^([^\t]*)\t(.*)$')
    add('c:' .. prevOutcome, -tonumber(prevWeight))
    if prevOutcome == 'failed' then add('j:failed', -1) end
    add('c:' .. outcome, weight)
    if outcome == 'failed' then add('j:failed', 1) end
    viewSet(outcomes, jobId, current)
    progressAt = now
  end
  -- A job without an entry is at attempt 1 (the entry is written only for later attempts).
  if attempt > 1 then
    local seenAttempt = tonumber(viewGet(attempts, jobId) or '1')
    if attempt > seenAttempt then
      add('c:retried', attempt - seenAttempt)
      viewSet(attempts, jobId, tostring(attempt))
    end
  end
end
local replies = {}
local lastNow = false
for j = 1, jobCount do
  local at = starts[j]
  local jobId, now = ARGV[at], ARGV[at + 4]
  replies[j] = applyKeys(jobId, ARGV[at + 5], tonumber(ARGV[at + 6]), at + 7)
  if runExists then
    countOutcome(jobId, ARGV[at + 1], tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3]), now)
    lastNow = now
  end
end
flushView(ledger); flushView(tombs); flushView(failed); flushView(claims); flushView(outcomes); flushView(attempts)
-- The job counts were read above, so they are written as values with the progress time (one
-- HSET); the outcome counts, which were not read, move by HINCRBY.
local finished = tonumber(run[3] or '0') + (increments['j:finished'] or 0)
local failedJobs = tonumber(run[4] or '0') + (increments['j:failed'] or 0)
local jobFields = {}
for _, field in ipairs(fields) do
  if field == 'j:finished' then jobFields[#jobFields + 1] = field; jobFields[#jobFields + 1] = finished
  elseif field == 'j:failed' then jobFields[#jobFields + 1] = field; jobFields[#jobFields + 1] = failedJobs
  elseif increments[field] ~= 0 then redis.call('HINCRBY', runKey, field, increments[field]) end
end
if progressAt then jobFields[#jobFields + 1] = 'j:progressAt'; jobFields[#jobFields + 1] = progressAt end
if #jobFields > 0 then redis.call('HSET', runKey, unpack(jobFields)) end
local settled = false
if lastNow then
  if beat then beatLease(leaseKey, runId, nowMs()) end
  settled = settleRunAs(runKey, leaseKey, runId, lastNow, run[1], tonumber(run[2] or '0'), finished, failedJobs)
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
    private readonly beats: LeaseBeats = new LeaseBeats(),
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
      [finish.runId, finishes.length, this.beats.due(finish.chatbot, finish.runId) ? '1' : '0', ...finishes.flatMap(finishArgs)],
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
