/**
 * Lua pieces shared by every script that can end a run (a job finishing, the enqueue sealing the
 * run, the reconciler, `runs cancel`): the clock, releasing a chatbot's lease, and settling a run
 * whose jobs all finished. Kept in one place so "when is a run over" has one definition.
 */

/** `nowMs()`: Redis's own clock in ms, so leases and claims compare times from one clock whatever machine asks. */
export const NOW_LUA = `
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * `beatLease(leaseKey, runId, now)`: a sign of life for the run holding the chatbot, written at
 * most once a second (why: every job start and finish calls it, and a write per job would be a
 * write per job to the AOF for nothing; staleness is judged in tens of seconds).
 */
export const BEAT_LEASE_LUA = `
local function beatLease(leaseKey, runId, now)
  local lease = redis.call('HMGET', leaseKey, 'runId', 'beat')
  if lease[1] == runId and now - tonumber(lease[2] or '0') >= 1000 then redis.call('HSET', leaseKey, 'beat', now) end
end
`;

/** `releaseLease(leaseKey, runId)`: frees the chatbot only if this run holds it. */
export const RELEASE_LEASE_LUA = `
local function releaseLease(leaseKey, runId)
  if redis.call('HGET', leaseKey, 'runId') == runId then redis.call('DEL', leaseKey) end
end
`;

/**
 * `settleRun(runKey, leaseKey, runId, now)`: when every job of a running (or stuck, or already
 * settled) run has a final outcome, sets done/failed and finishedAt and releases its lease.
 * Returns the final status, or false when jobs remain. The caller then takes the run off the
 * open list (RunStore.closeOpen): that list is a key of the whole installation, and on a Redis
 * Cluster a script may only touch the chatbot's own slot. A run left on it by a crash in between
 * is final, and the reconciler takes it off.
 * Why done/failed runs are settled again: a failed job retried from the dashboard that then
 * succeeds turns a failed run into a done one.
 * `settleRunAs(runKey, leaseKey, runId, now, status, total, finished, failed)` is the same with
 * the run's fields already known: the job-finish script read them anyway and knows what it added.
 * This is domain/run-outcome.ts `settledStatus` in Lua (a script cannot import it); a test runs
 * both over the same cases against Redis (test/integration/run-outcome-lua.test.ts).
 */
export const SETTLE_RUN_LUA = `${RELEASE_LEASE_LUA}
local function settleRunAs(runKey, leaseKey, runId, now, status, total, finished, failed)
  if status ~= 'running' and status ~= 'stuck' and status ~= 'done' and status ~= 'failed' then return false end
  if finished < total then return false end
  local final = 'done'
  if failed > 0 then final = 'failed' end
  if status ~= final then redis.call('HSET', runKey, 'status', final, 'finishedAt', now) end
  releaseLease(leaseKey, runId)
  return final
end
local function settleRun(runKey, leaseKey, runId, now)
  local run = redis.call('HMGET', runKey, 'status', 'totalJobs', 'j:finished', 'j:failed')
  return settleRunAs(runKey, leaseKey, runId, now, run[1], tonumber(run[2] or '0'), tonumber(run[3] or '0'), tonumber(run[4] or '0'))
end
`;

/**
 * `serverId()`: the run id of the Redis server running the script (it changes on every restart).
 * Why in a script: on a Redis Cluster, the server that matters is the one holding the chatbot's
 * slot, and a script with the chatbot's key runs exactly there.
 */
export const SERVER_ID_LUA = `
local function serverId()
  return string.match(redis.call('INFO', 'server'), 'run_id:(%w+)')
end
`;
