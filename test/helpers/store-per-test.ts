/**
 * A store over a real Redis for each test of a file, under a prefix of its own: opened before
 * each test, its prefix cleaned after a test that called `pass()` (a failed test leaves its keys
 * to look at), its connection closed always.
 */
import { afterEach, beforeEach, inject } from 'vitest';
import { Redis } from 'ioredis';
import { createStore, type Store } from '../../src/store/store.js';
import { cleanPrefix, uniquePrefix } from './redis.js';

export interface StoreUnderTest {
  readonly url: string;
  readonly redis: Redis;
  readonly prefix: string;
  readonly store: Store;
  /** Marks the running test as passed: its keys are deleted after it. */
  pass(): void;
}

/** Registers the hooks; read the fields inside tests (they change for every test). */
export function storePerTest(label: string): StoreUnderTest {
  const url = inject('redisUrl');
  let current: { redis: Redis; prefix: string; store: Store } | undefined;
  let passed = false;
  const opened = (): { redis: Redis; prefix: string; store: Store } => {
    if (current === undefined) throw new Error('storePerTest: read its fields inside a test');
    return current;
  };
  beforeEach(() => {
    const prefix = uniquePrefix(label);
    const redis = new Redis(url);
    current = { redis, prefix, store: createStore(redis, prefix) };
    passed = false;
  });
  afterEach(async () => {
    const { redis, prefix } = opened();
    if (passed) await cleanPrefix(url, prefix);
    await redis.quit();
    current = undefined;
  });
  return {
    url,
    get redis() {
      return opened().redis;
    },
    get prefix() {
      return opened().prefix;
    },
    get store() {
      return opened().store;
    },
    pass: () => void (passed = true),
  };
}
