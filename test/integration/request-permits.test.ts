/**
 * The request permit pool against a real Redis (src/store/permit-pool.ts through the holders of
 * src/queue/request-permits.ts): holders together never have more calls in flight than the pool's
 * size; shares are max-min fair and a newcomer gets its share as the others renew, and with more
 * holders than permits the permits rotate; a holder that
 * stops renewing (a killed process) loses its permits after the TTL; close gives them back at
 * once; a new pool holds room for processes not registered yet during its grace; a holder whose
 * renewals stop answering stops sending after TTL/2 until one answers. Holders ask for what they
 * have work for, so each test keeps its holders busy.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeKeys } from '../../src/store/keys.js';
import { permitPool, type PermitGrant, type PermitPool } from '../../src/store/permit-pool.js';
import { startRequestPermits, type RequestPermits } from '../../src/queue/request-permits.js';
import { storePerTest } from '../helpers/store-per-test.js';

const t = storePerTest('permits');
let opened: RequestPermits[] = [];
let loads: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(loads.map((stop) => stop()));
  loads = [];
  await Promise.all(opened.map((permits) => permits.close()));
  opened = [];
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function pool(): PermitPool {
  return permitPool(t.redis, storeKeys(t.prefix));
}

function holder(size: number, want: number, ttlMs: number, on: PermitPool = pool()): RequestPermits {
  const permits = startRequestPermits({ pool: on, size, room: want, ttlMs });
  opened.push(permits);
  return permits;
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

/** Keeps `callers` calls of a few ms each going through `permits` (a holder asks for what it has work for); returns the stop. */
function busy(permits: RequestPermits, callers: number): () => Promise<void> {
  let running = true;
  const loops = Array.from({ length: callers }, async () => {
    while (running) await permits.run(() => sleep(3));
  });
  const stop = async (): Promise<void> => {
    running = false;
    await Promise.all(loops);
  };
  loads.push(stop);
  return stop;
}

/** A pool whose grace has passed (the state every long-running installation is in). */
async function agedPool(ttlMs: number): Promise<PermitPool> {
  const p = pool();
  await p.renew({ holder: 'ager', floor: 0, want: 1, size: 1, ttlMs: 1, graceMs: 0 });
  await sleep(ttlMs / 2 + 20);
  return p;
}

describe('request permit pool', () => {
  it('four holders keeping busy never have more calls in flight than the size, and use most of it', async () => {
    const size = 6;
    const p = await agedPool(1000);
    const holders = [0, 1, 2, 3].map(() => holder(size, 8, 1000, p));
    let inFlight = 0;
    let most = 0;
    let samples = 0;
    let busy = 0;
    const call = async (): Promise<void> => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(2 + Math.random() * 6);
      inFlight -= 1;
    };
    const sampler = setInterval(() => {
      samples += 1;
      busy += inFlight;
    }, 5);
    const end = Date.now() + 3000;
    await Promise.all(
      holders.flatMap((h) =>
        Array.from({ length: 8 }, async () => {
          while (Date.now() < end) await h.run(call);
        }),
      ),
    );
    clearInterval(sampler);
    expect(most).toBe(size);
    // The pool is kept busy: on average well over half of it in use (hand-overs between holders cost a little).
    expect(busy / samples).toBeGreaterThan(size * 0.6);
    t.pass();
  });

  it('max-min shares: a holder wanting little keeps it, the rest goes to the other; a newcomer gets its share as others renew', async () => {
    const p = await agedPool(1000);
    const small = holder(8, 2, 1000, p);
    const big = holder(8, 8, 1000, p);
    busy(small, 8);
    busy(big, 8);
    await until(() => small.limit() === 2 && big.limit() === 6);

    const newcomer = holder(8, 8, 1000, p);
    busy(newcomer, 8);
    // While the others keep renewing (none of them expires): the shares move as they renew.
    await until(() => newcomer.limit() === 3 && big.limit() === 3 && small.limit() === 2);
    t.pass();
  });

  it('more holders than permits: the permits rotate, no holder waits for ever', async () => {
    const p = await agedPool(1000);
    const holders = [0, 1, 2, 3, 4].map(() => holder(3, 4, 1000, p));
    const done = holders.map(() => 0);
    let inFlight = 0;
    let most = 0;
    const end = Date.now() + 2000;
    await Promise.all(
      holders.flatMap((h, i) =>
        Array.from({ length: 4 }, async () => {
          while (Date.now() < end)
            await h.run(async () => {
              inFlight += 1;
              most = Math.max(most, inFlight);
              await sleep(3);
              inFlight -= 1;
              done[i] = (done[i] ?? 0) + 1;
            });
        }),
      ),
    );
    expect(most).toBeLessThanOrEqual(3);
    for (const count of done) expect(count).toBeGreaterThan(0);
    t.pass();
  });

  it('a holder that stops renewing (a killed process) loses its permits after the TTL, not before', async () => {
    // Long enough that the look at TTL/2 below comes before the TTL even on a machine lagging by seconds.
    const ttlMs = 4000;
    const p = await agedPool(ttlMs);
    const dead: PermitGrant = await p.renew({ holder: 'killed', floor: 0, want: 4, size: 4, ttlMs, graceMs: 0 });
    expect(dead.grant).toBe(4);
    const at = Date.now();
    const live = holder(4, 4, ttlMs, p);
    busy(live, 4);
    await sleep(ttlMs / 2);
    expect(live.limit()).toBe(0);
    await until(() => live.limit() === 4, 3 * ttlMs);
    expect(Date.now() - at).toBeGreaterThanOrEqual(ttlMs - 50);
    expect((await p.holders()).map((h) => h.holder)).toEqual([live.holder]);
    t.pass();
  });

  it('close gives the permits back at once', async () => {
    const ttlMs = 5000;
    const p = await agedPool(ttlMs);
    const first = holder(4, 4, ttlMs, p);
    const stopFirst = busy(first, 4);
    await until(() => first.limit() === 4);
    const second = holder(4, 4, ttlMs, p);
    busy(second, 4);
    await second.renewed();
    await stopFirst();
    await first.close();
    expect((await p.holders()).map((h) => h.holder)).toEqual([second.holder]);
    const closedAt = Date.now();
    await until(() => second.limit() === 4);
    // At the next renewal (every 250 ms), not once the closed holder's 5 s TTL ran out.
    expect(Date.now() - closedAt).toBeLessThan(ttlMs);
    t.pass();
  });

  it('a new pool keeps room for processes not registered yet during its grace (TTL/2), then the first one gets all', async () => {
    const ttlMs = 2000;
    const first = holder(8, 8, ttlMs);
    busy(first, 8);
    await until(() => first.limit() > 0);
    expect(first.limit()).toBe(4);
    const second = holder(8, 8, ttlMs);
    const stopSecond = busy(second, 8);
    await until(() => second.limit() > 0);
    await until(() => first.limit() === 4 && second.limit() === 4);
    await stopSecond();
    await second.close();
    await until(() => first.limit() === 8, 2 * ttlMs);
    t.pass();
  });

  it('a holder whose renewals stop answering stops sending after TTL/2 and carries on once a renewal answers', async () => {
    const ttlMs = 2000;
    const real = await agedPool(ttlMs);
    let hang = false;
    const parked: Array<() => void> = [];
    // While hanging, a renewal waits (as a command in ioredis's offline queue does) and is sent once it ends.
    const stuck: PermitPool = {
      key: real.key,
      renew: (request) =>
        hang
          ? new Promise<PermitGrant>((resolve, reject) => parked.push(() => void real.renew(request).then(resolve, reject)))
          : real.renew(request),
      release: (h) => real.release(h),
      holders: () => real.holders(),
    };
    const permits = holder(4, 4, ttlMs, stuck);
    const stop = busy(permits, 4);
    await until(() => permits.limit() === 4);
    hang = true;
    const lostAt = Date.now();
    await until(() => permits.limit() === 0, 2 * ttlMs);
    // It stops by TTL/2 after its last answered renewal; the safety it gives is stopping before its
    // lease can have expired (then the pool hands its permits to others), whatever the machine's lag.
    expect(Date.now() - lostAt).toBeLessThan(ttlMs);
    const calls = vi.fn();
    const waiting = permits.run(async () => void calls());
    await until(() => permits.inFlight() === 0); // the busy loops' calls end; none starts since
    expect(calls).not.toHaveBeenCalled();
    hang = false;
    for (const send of parked.splice(0)) send();
    await waiting; // the renewal that was waiting answers: the lease holds again
    expect(calls).toHaveBeenCalledOnce();
    expect(permits.limit()).toBe(4);
    await stop();
    t.pass();
  });
});
