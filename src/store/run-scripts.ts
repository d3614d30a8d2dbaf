/** The Lua scripts that move a run record's status (runs.ts sends them; the shared parts are in run-lua.ts). */
import { luaScript } from './lua.js';
import { NOW_LUA, RELEASE_LEASE_LUA, SERVER_ID_LUA, SETTLE_RUN_LUA } from './run-lua.js';

/** Records the job total once every job is in the queue, and settles the run if they all finished already. */
export const SEAL = luaScript(`${SETTLE_RUN_LUA}
if redis.call('HGET', KEYS[1], 'status') ~= 'enqueuing' then return false end
redis.call('HSET', KEYS[1], 'totalJobs', ARGV[2], 'status', 'running')
return settleRun(KEYS[1], KEYS[2], ARGV[1], ARGV[3])
`);

/** Cancels a run that is not final yet: status, finish time, lease released (the caller takes it off the open list). */
export const CANCEL = luaScript(`${RELEASE_LEASE_LUA}
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
if status ~= 'planned' and status ~= 'enqueuing' and status ~= 'running' and status ~= 'stuck' then return status end
redis.call('HSET', KEYS[1], 'status', 'cancelled', 'finishedAt', ARGV[2])
releaseLease(KEYS[2], ARGV[1])
return 'cancelled'
`);

/** Marks a running run stuck (it stays on the open list: its jobs may still finish) and frees its chatbot. */
export const MARK_STUCK = luaScript(`${RELEASE_LEASE_LUA}${NOW_LUA}
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'stuck', 'finishedAt', ARGV[2], 'stuckReason', ARGV[3])
releaseLease(KEYS[2], ARGV[1])
return 1
`);

/** A stuck run that someone resumes is running again (the caller puts it back on the open list). */
export const REOPEN = luaScript(`
if redis.call('HGET', KEYS[1], 'status') ~= 'stuck' then return redis.call('HGET', KEYS[1], 'status') end
redis.call('HSET', KEYS[1], 'status', 'running')
redis.call('HDEL', KEYS[1], 'finishedAt', 'stuckReason')
return 'running'
`);

/** Settles a run whose jobs all have an outcome (the reconciler's way to end a run). */
export const SETTLE = luaScript(`${SETTLE_RUN_LUA}
return settleRun(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
`);

/**
 * The run id of the Redis server holding the run's key (KEYS[1]): stored on each run, so a job can
 * tell that Redis restarted since (write-claims.ts). On a cluster, the master of the chatbot's slot.
 */
export const SERVER_ID = luaScript(`${SERVER_ID_LUA}
return serverId() or ''
`);
