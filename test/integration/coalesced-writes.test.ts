/**
 * A long-lived connection's commands of one turn go out in one socket write
 * (src/queue/coalesced-writes.ts), in the order they were sent, MULTI included, also after a
 * reconnect.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { coalesceWrites } from '../../src/queue/coalesced-writes.js';
import { closeConnection, createWorkerConnection } from '../../src/queue/connection.js';

const redisUrl = inject('redisUrl');
const opened: Redis[] = [];
const keys: string[] = [];

afterEach(async () => {
  const [first] = opened;
  if (first !== undefined && keys.length > 0) await first.del(...keys.splice(0));
  for (const redis of opened.splice(0)) await closeConnection(redis);
});

function newKey(): string {
  const key = `coalesce-test-${randomBytes(4).toString('hex')}`;
  keys.push(key);
  return key;
}

async function connected(): Promise<Redis> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  coalesceWrites(redis);
  opened.push(redis);
  await redis.connect();
  return redis;
}

/** Counts the socket flushes of `redis`'s current stream: writev calls of Node's socket. */
function countFlushes(redis: Redis): () => number {
  let flushes = 0;
  const stream = redis.stream as unknown as Record<string, (...args: unknown[]) => unknown>;
  const writev = stream._writev as (...args: unknown[]) => unknown;
  const write = stream._write as (...args: unknown[]) => unknown;
  stream._writev = function (...args: unknown[]) {
    flushes += 1;
    return writev.apply(this, args);
  };
  stream._write = function (...args: unknown[]) {
    flushes += 1;
    return write.apply(this, args);
  };
  return () => flushes;
}

describe('coalesced writes', () => {
  it("sends a turn's commands in one write, in order, a MULTI among them", async () => {
    const redis = await connected();
    const key = newKey();
    const flushes = countFlushes(redis);
    const replies = await Promise.all([
      redis.rpush(key, 'a'),
      redis.multi().rpush(key, 'b').rpush(key, 'c').exec(),
      redis.rpush(key, 'd'),
      redis.lrange(key, 0, -1),
    ]);
    expect(replies[3]).toEqual(['a', 'b', 'c', 'd']);
    expect(flushes()).toBe(1);
  });

  it('holds nothing past its turn: a command sent after an await goes out in its own write', async () => {
    const redis = await connected();
    const key = newKey();
    const flushes = countFlushes(redis);
    await redis.set(key, '1');
    expect(await redis.get(key)).toBe('1');
    expect(flushes()).toBe(2);
  });

  it('coalesces again on the new socket after a reconnect', async () => {
    const redis = await connected();
    const key = newKey();
    const reconnected = new Promise((resolve) => redis.once('ready', resolve));
    redis.disconnect(true);
    await reconnected;
    const flushes = countFlushes(redis);
    const [, , value] = await Promise.all([redis.set(key, 'x'), redis.append(key, 'y'), redis.get(key)]);
    expect(value).toBe('xy');
    expect(flushes()).toBe(1);
  });

  it('is what a long-lived connection does', async () => {
    const redis = createWorkerConnection({ url: redisUrl }) as Redis;
    opened.push(redis);
    await new Promise((resolve) => redis.once('ready', resolve));
    const flushes = countFlushes(redis);
    await Promise.all([redis.ping(), redis.ping(), redis.ping()]);
    expect(flushes()).toBe(1);
  });
});
