/**
 * The queue's hold (src/queue/queue-hold.ts) against a real Redis: two holds on one queue stand
 * for two processes. A hold set in one is seen by the other at its next look and nothing goes
 * through either's gate until it lapses by itself; a shorter hold never cuts a longer one; a
 * process that stops while held refuses its held calls unsent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openQueues, type Queues } from '../../src/queue/queues.js';
import { heldGate, startQueueHold, type QueueHold } from '../../src/queue/queue-hold.js';
import { localGate } from '../../src/queue/request-gate.js';
import { storePerTest } from '../helpers/store-per-test.js';
import { TEST_SEAL } from '../helpers/job-seal.js';

const t = storePerTest('hold');
const open: Array<{ close(): unknown }> = [];
const errors: unknown[] = [];

afterEach(async () => {
  while (open.length > 0) await open.pop()?.close();
  expect(errors).toEqual([]);
  errors.length = 0;
});

function holdOn(queues: Queues): QueueHold {
  const queue = queues.writes;
  const hold = startQueueHold({
    queue,
    pttl: () => t.redis.pttl(queue.toKey('limiter')),
    onError: (err) => errors.push(err),
    pollMs: 20,
  });
  open.push(hold);
  return hold;
}

function setup(): { a: QueueHold; b: QueueHold; limiterTtl: () => Promise<number> } {
  const queues = openQueues(t.redis, t.prefix, TEST_SEAL);
  open.push(queues);
  return { a: holdOn(queues), b: holdOn(queues), limiterTtl: () => t.redis.pttl(queues.writes.toKey('limiter')) };
}

describe('the queue hold, two processes on one Redis', () => {
  it('holds both: the other process sees it, sees it extended while it waits, and sends only once it lapsed by itself', async () => {
    const { a, b, limiterTtl } = setup();
    /** The hold's time to live as each call went out: none may go out while it holds. */
    const ttlsAtSend: number[] = [];
    const send = heldGate(b, localGate(4));
    await a.rateLimit(2000);
    expect(a.isHeld()).toBe(true);
    await expect.poll(() => b.isHeld()).toBe(true);
    const calls = [1, 2, 3].map(() => send(async () => ttlsAtSend.push(await limiterTtl())));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(ttlsAtSend).toEqual([]);
    await a.rateLimit(3000);
    await Promise.all(calls);
    expect(ttlsAtSend).toHaveLength(3);
    expect(ttlsAtSend.every((ttl) => ttl <= 0)).toBe(true);
    expect(b.isHeld()).toBe(false);
    t.pass();
  });

  it('a shorter hold never cuts a longer one short', async () => {
    const { a, b, limiterTtl } = setup();
    await a.rateLimit(30_000);
    await b.rateLimit(50);
    expect(await limiterTtl()).toBeGreaterThan(20_000);
    t.pass();
  });

  it('a process stopping while held refuses its held calls unsent', async () => {
    const { a } = setup();
    let sent = 0;
    await a.rateLimit(30_000);
    const call = heldGate(a, localGate(1))(() => Promise.resolve((sent += 1)));
    a.close();
    await expect(call).rejects.toMatchObject({ code: 'QUEUE_HELD' });
    expect(sent).toBe(0);
    t.pass();
  });
});
