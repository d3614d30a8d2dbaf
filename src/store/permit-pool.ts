/**
 * The request permit pool in Redis: `size` permits (--global-concurrency) shared by every worker
 * process on every machine, each process leasing a block of them (src/queue/request-permits.ts
 * holds the lease and gates the requests). One hash under its own hash tag (keys.ts
 * `requestPermits`); the policy — fair shares, expiry of dead holders, the grace of a new pool —
 * is in the script (permit-pool-lua.ts).
 */
import type { RedisClient } from './redis-client.js';
import type { StoreKeys } from './keys.js';
import { runLua } from './lua.js';
import { PERMIT_RENEW } from './permit-pool-lua.js';

/** One renewal's question: see PERMIT_RENEW for what each number means. */
export interface PermitRenewal {
  holder: string;
  /** Requests the holder may still have in flight: max(its current limit, its requests in flight). */
  floor: number;
  /** The most permits it can use (its --concurrency). */
  want: number;
  /** The pool's size (G). */
  size: number;
  ttlMs: number;
  graceMs: number;
}

export interface PermitGrant {
  /** Requests the holder may have in flight from now until its lease is renewed or lapses. */
  grant: number;
  /** Its fair share now; more than `grant` while others still hold what is due to it. */
  target: number;
  /** Redis time (epoch ms) of the renewal. */
  nowMs: number;
}

/** A live holder as the pool records it (for `doctor`-like reads and tests). */
export interface PermitHolder {
  holder: string;
  held: number;
  want: number;
  expiresAtMs: number;
}

export interface PermitPool {
  readonly key: string;
  renew(request: PermitRenewal): Promise<PermitGrant>;
  /** Gives every permit of `holder` back at once (call only once none of its requests is in flight). */
  release(holder: string): Promise<void>;
  /** The holders recorded now, expired ones included until the next renewal drops them. */
  holders(): Promise<PermitHolder[]>;
}

function integerAt(reply: unknown, index: number): number {
  const value = Array.isArray(reply) ? Number(reply[index]) : NaN;
  if (!Number.isFinite(value)) throw new Error(`unexpected permit pool reply: ${JSON.stringify(reply)}`);
  return value;
}

export function permitPool(redis: RedisClient, keys: StoreKeys): PermitPool {
  const key = keys.requestPermits();
  return {
    key,
    async renew(request) {
      const { holder, floor, want, size, ttlMs, graceMs } = request;
      const reply = await runLua(redis, PERMIT_RENEW, [key], [holder, floor, want, size, ttlMs, graceMs]);
      return { grant: integerAt(reply, 0), target: integerAt(reply, 1), nowMs: integerAt(reply, 2) };
    },
    async release(holder) {
      await redis.hdel(key, `h:${holder}`);
    },
    async holders() {
      const all = await redis.hgetall(key);
      return Object.entries(all).flatMap(([field, value]) => {
        if (!field.startsWith('h:')) return [];
        const [held = NaN, want = NaN, expiresAtMs = NaN] = value.split(' ').map(Number);
        return [{ holder: field.slice(2), held, want, expiresAtMs }];
      });
    },
  };
}
