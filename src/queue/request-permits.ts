/**
 * This process's lease on the request permit pool (src/store/permit-pool.ts): the service never
 * sees more than `size` (--global-concurrency) requests in flight from all worker processes
 * together, while no request waits for a Redis round trip of its own.
 *
 * Policy, and why:
 * - a block, not a permit per request: the process leases a block and renews the lease every
 *   RENEW_MS (or TTL/10 when shorter); its requests take local permits from the block. A round
 *   trip per request would cost Redis as much as the jobs themselves;
 * - it asks for its whole room while it has work (a call in the last IDLE_AFTER_MS), for nothing
 *   once idle: an idle process leaves its share to busy ones, and busy ones ask alike, so their
 *   shares hold still. Why not the calls waiting, and why a second before idle: shares that follow
 *   the moment move at every renewal (a worker between two jobs, an enqueue slower than the
 *   workers), and a permit moving is idle while one holder drains and the other renews. Work on a
 *   lease renewed as idle renews at once instead of at the next tick;
 * - a lapsed lease stops sending: once TTL/2 has passed since the last renewal that succeeded
 *   was *sent*, no new request starts until a renewal succeeds again. The pool drops the lease
 *   at TTL after that renewal ran (Redis's clock), so a process that froze, lost Redis or was
 *   killed has stopped sending TTL/2 before its permits go to others; the half left is the
 *   margin for its last requests to end;
 * - shrinking is the holder's to do: a renewal reports max(limit, requests in flight) and the
 *   pool counts that much for it until a later renewal reports less; when the pool answers a
 *   smaller share, new requests wait until the ones in flight are under it, and the lower figure
 *   is reported at once so the freed permits reach the others promptly;
 * - permits go back on close, once no request is in flight (after the workers closed); if that
 *   cannot reach Redis, the lease expires.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { PermitPool } from '../store/permit-pool.js';

/** How often a lease is renewed (TTL/10 when that is shorter): the most a fair share waits for a renewal. */
export const RENEW_MS = 250;
/** A process without a call for this long asks for no permits (see "it asks for its whole room"). */
export const IDLE_AFTER_MS = 1000;

export interface RequestPermitsOptions {
  pool: PermitPool;
  /** Permits in the pool: --global-concurrency. */
  size: number;
  /** The most this process can use (its --concurrency; at most `size` is asked). */
  room: number;
  /** Lease time to live (LISTING_SYNC_PERMIT_TTL_MS). */
  ttlMs: number;
  /** Told of every failed renewal (Redis away: the watch reports it once per interval). */
  onError?: (err: unknown) => void;
  /** Monotonic ms (tests may pass their own). */
  now?: () => number;
}

export interface RequestPermits {
  readonly holder: string;
  /** Runs `call` once a permit is free here; the permit returns when the call settles. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** Requests that may be in flight now (0 while the lease has lapsed). */
  limit(): number;
  inFlight(): number;
  /** Resolves after the next renewal that succeeds (for tests and start-up). */
  renewed(): Promise<void>;
  /** Calls `listener` with the permits granted whenever a renewal changes them. */
  onGrant(listener: (granted: number) => void): void;
  /** Stops renewing; gives the permits back when none is in flight. */
  close(): Promise<void>;
}

export function startRequestPermits(options: RequestPermitsOptions): RequestPermits {
  const { pool, size, ttlMs } = options;
  const room = Math.max(1, Math.min(options.room, size));
  const now = options.now ?? (() => performance.now());
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const graceMs = Math.floor(ttlMs / 2);
  let granted = 0;
  let inUse = 0;
  let lastSentOk = -Infinity;
  let renewing: Promise<void> | undefined;
  let closed = false;
  let lastCallAt = -Infinity;
  let lastWant = 0;
  const waiters: Array<() => void> = [];
  const onRenewed: Array<() => void> = [];
  const grantListeners: Array<(granted: number) => void> = [];
  const busy = (): boolean => inUse + waiters.length > 0 || now() - lastCallAt < IDLE_AFTER_MS;

  const leaseValid = (): boolean => now() - lastSentOk < ttlMs / 2;
  const limit = (): number => (leaseValid() ? granted : 0);
  const pump = (): void => {
    while (waiters.length > 0 && inUse < limit()) {
      inUse += 1;
      waiters.shift()?.();
    }
  };

  let again = false;
  const renew = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (renewing !== undefined) {
      again = true; // what it asks may be out of date: ask once more when it answers
      return renewing;
    }
    again = false;
    const sentAt = now();
    // What may be in flight until the answer: the limit while the lease holds (no request starts
    // beyond it meanwhile), else only those already in flight (none starts on a lapsed lease).
    const floor = leaseValid() ? Math.max(granted, inUse) : inUse;
    const want = busy() ? room : 0;
    lastWant = want;
    renewing = pool
      .renew({ holder, floor, want, size, ttlMs, graceMs })
      .then(
        (reply) => {
          if (closed) return;
          if (sentAt > lastSentOk) lastSentOk = sentAt;
          const changed = granted !== reply.grant;
          granted = reply.grant;
          pump();
          if (changed) for (const listener of grantListeners) listener(granted);
          for (const resolve of onRenewed.splice(0)) resolve();
        },
        // Once closing, a failure is the stop dropping the connection: nothing to report.
        (thrown: unknown) => {
          if (!closed) options.onError?.(thrown);
        },
      )
      .finally(() => {
        renewing = undefined;
        if (again && lastWant === 0 && busy()) void renew();
      });
    return renewing;
  };

  const timer = setInterval(() => void renew(), Math.max(1, Math.min(RENEW_MS, Math.floor(ttlMs / 10))));
  timer.unref();
  void renew();

  const acquire = (): Promise<void> => {
    lastCallAt = now();
    if (waiters.length === 0 && inUse < limit()) {
      inUse += 1;
      return Promise.resolve();
    }
    // Work on a lease renewed as idle: ask now rather than at the next tick.
    if (lastWant === 0) void renew();
    return new Promise((resolve) => waiters.push(resolve));
  };
  const giveBack = (): void => {
    const wasOver = inUse > granted;
    inUse -= 1;
    pump();
    // A shrink just completed: tell the pool now, not at the next tick.
    if (wasOver && inUse <= granted) void renew();
  };

  return {
    holder,
    async run(call) {
      // Why not gated once closed: the workers have stopped and the process is ending; a last call
      // of the command must not wait for permits no one renews any more.
      if (closed) return await call();
      await acquire();
      try {
        return await call();
      } finally {
        giveBack();
      }
    },
    limit,
    inFlight: () => inUse,
    renewed: () => new Promise((resolve) => onRenewed.push(resolve)),
    onGrant: (listener) => void grantListeners.push(listener),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await renewing;
      for (const resolve of onRenewed.splice(0)) resolve();
      // With requests still in flight (a forced stop) the permits stay counted until the lease
      // expires; a release that cannot reach Redis is no loss either: the lease expires.
      if (inUse === 0) await pool.release(holder).catch(() => undefined);
    },
  };
}
