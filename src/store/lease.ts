/**
 * The chatbot lease: at most one sync run per chatbot at a time. A hash per chatbot holds the run
 * that has it, who took it (host, pid, trigger), since when, and its last heartbeat. Every time is
 * Redis's clock (see run-lua.ts), so machines with skewed clocks agree on what "stale" means.
 *
 * Heartbeats come from whoever works on the run: the sync process while it plans and enqueues,
 * and every worker that starts or finishes one of the run's jobs (folded into the scripts those
 * already run, so they cost no round trip). The lease is released when the run ends (run-lua.ts
 * settleRun), is refused or cancelled. A stale lease is not free: its run may still have jobs
 * waiting for a worker; whoever finds it stale decides (src/queue/chatbot-lease.ts).
 */
import type { RedisClient } from './redis-client.js';
import type { StoreKeys } from './keys.js';
import { luaScript, runLua } from './lua.js';
import { NOW_LUA, RELEASE_LEASE_LUA } from './run-lua.js';

export interface LeaseHolder {
  runId: string;
  /** Who took it, e.g. "host-1 pid 4242 (cli)". */
  holder: string;
  /** Epoch ms (Redis time) when the run took the chatbot. */
  since: number;
  /** Epoch ms (Redis time) of the last sign of life; 0 once its process said it stopped (markIdle). */
  beat: number;
  /** Epoch ms (Redis time) when the process working on the run said it stopped (Ctrl-C); absent otherwise. */
  stoppedAt?: number;
  /** Redis time when this was read: compare `beat` with this, never with a local clock. */
  readAt: number;
}

export type LeaseAttempt = { acquired: true } | { acquired: false; lease: LeaseHolder };

/** Takes the lease when free (or already ours); else returns the holder's fields and Redis time. */
const ACQUIRE = luaScript(`${NOW_LUA}
local now = nowMs()
local current = redis.call('HGET', KEYS[1], 'runId')
if (not current) or current == ARGV[1] then
  if not current then redis.call('HSET', KEYS[1], 'runId', ARGV[1], 'holder', ARGV[2], 'since', now) end
  redis.call('HSET', KEYS[1], 'beat', now)
  return {1}
end
local f = redis.call('HMGET', KEYS[1], 'runId', 'holder', 'since', 'beat', 'stopped')
return {0, f[1], f[2] or '', f[3] or '0', f[4] or '0', tostring(now), f[5] or ''}
`);

/** Takes the lease over from `ARGV[1]` (a holder judged dead with no work left) for `ARGV[2]`. */
const TAKE_OVER = luaScript(`${NOW_LUA}
if redis.call('HGET', KEYS[1], 'runId') ~= ARGV[1] then return 0 end
local now = nowMs()
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'runId', ARGV[2], 'holder', ARGV[3], 'since', now, 'beat', now)
return 1
`);

const BEAT = luaScript(`${NOW_LUA}
if redis.call('HGET', KEYS[1], 'runId') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'beat', nowMs())
return 1
`);

/**
 * Makes the lease stale at once (its holder stops working on it but the run goes on), and notes
 * when: a beat of 0 says "stale", the stop time says since when (not since 1970).
 */
const MARK_IDLE = luaScript(`${NOW_LUA}
if redis.call('HGET', KEYS[1], 'runId') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'beat', 0, 'stopped', nowMs())
return 1
`);

/** Releases unless the run has jobs that hold the chatbot (enqueuing, running): they release it when the run ends. */
const RELEASE_IF_IDLE = luaScript(`${RELEASE_LEASE_LUA}
local status = redis.call('HGET', KEYS[2], 'status')
if status == 'enqueuing' or status == 'running' then return 0 end
releaseLease(KEYS[1], ARGV[1])
return 1
`);

/** The stop time as read, when there is one. */
const stoppedOf = (value: unknown): { stoppedAt?: number } =>
  value === null || value === undefined || value === '' || !(Number(value) > 0) ? {} : { stoppedAt: Number(value) };

function holderFrom(reply: unknown[]): LeaseHolder {
  const [, runId, holder, since, beat, readAt, stopped] = reply;
  return {
    runId: String(runId),
    holder: String(holder),
    since: Number(since),
    beat: Number(beat),
    readAt: Number(readAt),
    ...stoppedOf(stopped),
  };
}

/**
 * How long the run has shown no sign of life at the lease's read: since its last beat, or since
 * its process said it stopped; undefined when neither is known (a lease marked before stops were noted).
 */
export function quietForMs(lease: LeaseHolder): number | undefined {
  if (lease.beat > 0) return Math.max(0, lease.readAt - lease.beat);
  return lease.stoppedAt === undefined ? undefined : Math.max(0, lease.readAt - lease.stoppedAt);
}

export class LeaseStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /** Takes the chatbot for `runId` if nobody holds it (re-entrant: the same run gets it again). */
  async acquire(chatbot: string, runId: string, holder: string): Promise<LeaseAttempt> {
    const reply = (await runLua(this.redis, ACQUIRE, [this.keys.lease(chatbot)], [runId, holder])) as unknown[];
    return reply[0] === 1 ? { acquired: true } : { acquired: false, lease: holderFrom(reply) };
  }

  /** Replaces `fromRunId` as holder; false when the lease changed hands meanwhile. */
  async takeOver(chatbot: string, fromRunId: string, runId: string, holder: string): Promise<boolean> {
    return (await runLua(this.redis, TAKE_OVER, [this.keys.lease(chatbot)], [fromRunId, runId, holder])) === 1;
  }

  /** A sign of life from the holder; false when `runId` no longer holds the chatbot. */
  async beat(chatbot: string, runId: string): Promise<boolean> {
    return (await runLua(this.redis, BEAT, [this.keys.lease(chatbot)], [runId])) === 1;
  }

  /**
   * Says the holder stopped working on the run (Ctrl-C of `sync --work`): the lease goes stale at
   * once, so the next sync is told the run was interrupted and how to resume it.
   */
  async markIdle(chatbot: string, runId: string): Promise<void> {
    await runLua(this.redis, MARK_IDLE, [this.keys.lease(chatbot)], [runId]);
  }

  /**
   * Releases the chatbot at the end of a sync's planning unless its run went on to have jobs in
   * the queue (those release it when the run ends). True when released.
   */
  async releaseIfIdle(chatbot: string, runId: string): Promise<boolean> {
    return (await runLua(this.redis, RELEASE_IF_IDLE, [this.keys.lease(chatbot), this.keys.run(chatbot, runId)], [runId])) === 1;
  }

  /** The current holder, with Redis's time of the read; undefined when the chatbot is free. */
  async holder(chatbot: string): Promise<LeaseHolder | undefined> {
    const [fields, time] = await Promise.all([
      this.redis.hmget(this.keys.lease(chatbot), 'runId', 'holder', 'since', 'beat', 'stopped'),
      this.redis.time(),
    ]);
    if (fields[0] === null || fields[0] === undefined) return undefined;
    const readAt = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
    return {
      runId: fields[0],
      holder: fields[1] ?? '',
      since: Number(fields[2] ?? 0),
      beat: Number(fields[3] ?? 0),
      readAt,
      ...stoppedOf(fields[4]),
    };
  }
}
