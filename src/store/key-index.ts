/**
 * Which jobs and runs touched a listing key (`jobs find KEY`: ops search by MLS number).
 * Written at enqueue time, so a key shows up even while its job is still waiting.
 */
import type { StoreKeys } from './keys.js';
import { isCluster, type RedisClient } from './redis-client.js';

export interface KeyTouch {
  chatbot: string;
  key: string;
  runId: string;
  jobId: string;
  at: number;
}

/** Touches sent before waiting for their replies. */
const TOUCH_BATCH = 1000;

export class KeyIndexStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /**
   * Records touches, many at a time: on one Redis as one pipeline per batch (one round trip, it
   * runs once per job at enqueue); on a Redis Cluster one command per touch, sent back to back,
   * because each listing key has its own index, spread over the masters, and a pipeline must
   * stay on one.
   */
  async recordTouches(touches: readonly KeyTouch[]): Promise<void> {
    const { redis, keys } = this;
    const member = (touch: KeyTouch): string => JSON.stringify({ chatbot: touch.chatbot, runId: touch.runId, jobId: touch.jobId });
    for (let i = 0; i < touches.length; i += TOUCH_BATCH) {
      const batch = touches.slice(i, i + TOUCH_BATCH);
      if (isCluster(redis)) {
        await Promise.all(batch.map((touch) => redis.zadd(keys.keyIndex(touch.key), touch.at, member(touch))));
        continue;
      }
      const pipe = redis.pipeline();
      for (const touch of batch) pipe.zadd(keys.keyIndex(touch.key), touch.at, member(touch));
      const failed = (await pipe.exec())?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
    }
  }

  async recordKeyTouch(chatbot: string, key: string, runId: string, jobId: string, at: number = Date.now()): Promise<void> {
    await this.recordTouches([{ chatbot, key, runId, jobId, at }]);
  }

  /** Every touch of a key, newest first, optionally of one chatbot. */
  async touches(key: string, chatbot?: string): Promise<KeyTouch[]> {
    const flat = await this.redis.zrevrange(this.keys.keyIndex(key), 0, -1, 'WITHSCORES');
    const touches: KeyTouch[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const parsed = JSON.parse(flat[i] as string) as { chatbot: string; runId: string; jobId: string };
      if (chatbot === undefined || parsed.chatbot === chatbot) touches.push({ ...parsed, key, at: Number(flat[i + 1]) });
    }
    return touches;
  }
}
