/**
 * The service breaker's record in Redis, shared by every process that calls the service (worker,
 * `sync --work`) and read by the dashboard and the health evaluation. One hash under its own hash
 * tag (keys.ts `serviceBreaker`); every change is one script, on Redis's clock, so processes on
 * machines with skewed clocks agree. The policy (when to open, how often to probe) is the
 * caller's (src/queue/service-breaker.ts); this file only keeps the count and the state.
 *
 * Fields: `open` ('1' while open), `since` (when it opened), `reason` (the failure that opened it),
 * `streak` (consecutive failures while closed), `chatbot` (the last chatbot a failed call was
 * about: the probe reads its list), `next` (earliest next probe), `level` (failed probes so far),
 * `prober`/`proberUntil` (the one process probing now), `closedAt`/`downMs` (the last outage).
 */
import type { ServiceOutage } from '../domain/health/status.js';
import type { RedisClient } from './redis-client.js';
import type { StoreKeys } from './keys.js';
import { luaScript, runLua } from './lua.js';
import { NOW_LUA } from './run-lua.js';

/** ARGV: threshold, reason, chatbot, firstProbeMs. Replies {open, openedNow, since|streak, reason}. */
const RECORD_DOWN = luaScript(`${NOW_LUA}
local now = nowMs()
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'chatbot', ARGV[3]) end
if redis.call('HGET', KEYS[1], 'open') == '1' then
  local f = redis.call('HMGET', KEYS[1], 'since', 'reason')
  return {1, 0, tonumber(f[1]) or now, f[2] or ''}
end
local streak = redis.call('HINCRBY', KEYS[1], 'streak', 1)
if streak < tonumber(ARGV[1]) then return {0, 0, streak, ''} end
redis.call('HSET', KEYS[1], 'open', '1', 'since', now, 'reason', ARGV[2], 'next', now + tonumber(ARGV[4]), 'level', 0, 'streak', 0)
redis.call('HDEL', KEYS[1], 'prober', 'proberUntil')
return {1, 1, now, ARGV[2]}
`);

/** ARGV: close ('1': a probe answered, close an open breaker). Replies {closedNow, downMs}. */
const RECORD_UP = luaScript(`${NOW_LUA}
if redis.call('HGET', KEYS[1], 'open') ~= '1' then
  redis.call('HDEL', KEYS[1], 'streak')
  return {0, 0}
end
if ARGV[1] ~= '1' then return {0, 0} end
local now = nowMs()
local since = tonumber(redis.call('HGET', KEYS[1], 'since')) or now
redis.call('HDEL', KEYS[1], 'open', 'since', 'reason', 'next', 'level', 'prober', 'proberUntil', 'streak')
redis.call('HSET', KEYS[1], 'closedAt', now, 'downMs', now - since)
return {1, now - since}
`);

/**
 * ARGV: holder, leaseMs. Replies {'closed'}, {'wait', ms} (not due yet), {'busy', ms} (another
 * process probes) or {'go', chatbot}: this holder probes now, alone until the lease ends.
 */
const CLAIM_PROBE = luaScript(`${NOW_LUA}
local now = nowMs()
local f = redis.call('HMGET', KEYS[1], 'open', 'next', 'prober', 'proberUntil', 'chatbot')
if f[1] ~= '1' then return {'closed'} end
local due = tonumber(f[2]) or now
if now < due then return {'wait', tostring(due - now)} end
local heldUntil = tonumber(f[4]) or 0
if f[3] and f[3] ~= ARGV[1] and heldUntil > now then return {'busy', tostring(heldUntil - now)} end
redis.call('HSET', KEYS[1], 'prober', ARGV[1], 'proberUntil', now + tonumber(ARGV[2]))
return {'go', f[5] or ''}
`);

/** ARGV: holder, firstMs, maxMs. Replies the wait before the next probe (0: not this holder's probe). */
const PROBE_FAILED = luaScript(`${NOW_LUA}
local f = redis.call('HMGET', KEYS[1], 'open', 'prober')
if f[1] ~= '1' or f[2] ~= ARGV[1] then return 0 end
local level = redis.call('HINCRBY', KEYS[1], 'level', 1)
local delay = math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) * math.pow(2, math.min(level, 30)))
redis.call('HSET', KEYS[1], 'next', nowMs() + delay)
redis.call('HDEL', KEYS[1], 'prober', 'proberUntil')
return delay
`);

/** The breaker as recorded now. */
export interface ServiceBreakerState {
  open: boolean;
  /** When it opened (epoch ms, Redis time), while open. */
  since?: number;
  /** The failure that opened it ("NETWORK ECONNRESET: …"), while open. */
  reason?: string;
  /** Consecutive failures counted while closed. */
  streak: number;
  /** How long the last outage lasted (ms), once one closed. */
  lastDownMs?: number;
}

/** What recording a failure did: opened the breaker now, found it open, or counted one more. */
export type DownRecord = { open: true; openedNow: boolean; since: number; reason: string } | { open: false; streak: number };

export type ProbeClaim = { kind: 'closed' } | { kind: 'wait' | 'busy'; ms: number } | { kind: 'go'; chatbot: string };

/** Member `index` of a script's array reply (undefined when the reply is not an array). */
function member(reply: unknown, index: number): unknown {
  return Array.isArray(reply) ? (reply as unknown[])[index] : undefined;
}

function numberAt(reply: unknown, index: number): number {
  const value = Number(member(reply, index) ?? NaN);
  if (!Number.isFinite(value)) throw new Error(`unexpected service breaker reply: ${JSON.stringify(reply)}`);
  return value;
}

function optionalNumber(text: string | undefined): number | undefined {
  const value = text === undefined ? NaN : Number(text);
  return Number.isFinite(value) ? value : undefined;
}

export class ServiceBreakerStore {
  readonly key: string;

  constructor(
    private readonly redis: RedisClient,
    keys: StoreKeys,
  ) {
    this.key = keys.serviceBreaker();
  }

  /** One more call failed for everyone; opens the breaker at `threshold` in a row. */
  async recordDown(failure: { threshold: number; reason: string; chatbot: string; firstProbeMs: number }): Promise<DownRecord> {
    const { threshold, reason, chatbot, firstProbeMs } = failure;
    const reply = await runLua(this.redis, RECORD_DOWN, [this.key], [threshold, reason, chatbot, firstProbeMs]);
    if (numberAt(reply, 0) !== 1) return { open: false, streak: numberAt(reply, 2) };
    const text = member(reply, 3);
    return { open: true, openedNow: numberAt(reply, 1) === 1, since: numberAt(reply, 2), reason: typeof text === 'string' ? text : '' };
  }

  /**
   * The service answered: the streak starts again. With `close` (a probe's answer) an open
   * breaker closes; resolves to how long it was open when this call closed it.
   */
  async recordUp(close: boolean): Promise<{ closedNow: boolean; downMs: number }> {
    const reply = await runLua(this.redis, RECORD_UP, [this.key], [close ? '1' : '0']);
    return { closedNow: numberAt(reply, 0) === 1, downMs: numberAt(reply, 1) };
  }

  /** Asks to probe the service now as `holder`, alone for `leaseMs`. */
  async claimProbe(holder: string, leaseMs: number): Promise<ProbeClaim> {
    const reply = await runLua(this.redis, CLAIM_PROBE, [this.key], [holder, leaseMs]);
    const kind = member(reply, 0);
    const chatbot = member(reply, 1);
    if (kind === 'go') return { kind, chatbot: typeof chatbot === 'string' ? chatbot : '' };
    if (kind === 'wait' || kind === 'busy') return { kind, ms: numberAt(reply, 1) };
    return { kind: 'closed' };
  }

  /** The probe of `holder` failed: the next one is due after a wait doubling from `firstMs` up to `maxMs`; resolves to that wait. */
  async probeFailed(holder: string, firstMs: number, maxMs: number): Promise<number> {
    return Number(await runLua(this.redis, PROBE_FAILED, [this.key], [holder, firstMs, maxMs]));
  }

  /** The outage going on now (the breaker open), if any. */
  async outage(): Promise<ServiceOutage | undefined> {
    const state = await this.read();
    return state.open ? { since: state.since ?? 0, reason: state.reason ?? '' } : undefined;
  }

  async read(): Promise<ServiceBreakerState> {
    const f = await this.redis.hgetall(this.key);
    const open = f.open === '1';
    const state: ServiceBreakerState = { open, streak: optionalNumber(f.streak) ?? 0 };
    const since = optionalNumber(f.since);
    if (open && since !== undefined) state.since = since;
    if (open && f.reason !== undefined) state.reason = f.reason;
    const downMs = optionalNumber(f.downMs);
    if (downMs !== undefined) state.lastDownMs = downMs;
    return state;
  }
}
