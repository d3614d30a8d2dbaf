/**
 * Which jobs and runs touched a listing key (`jobs find KEY`: ops search by MLS number).
 * Written at enqueue time, so a key shows up even while its job is still waiting.
 */
import type { StoreKeys } from './keys.js';
import type { RedisClient } from './redis-client.js';

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
   * Records touches, many at a time. Why a command per touch and not a pipeline: each listing key
   * has its own index, so on a Redis Cluster the keys are spread over the masters (a pipeline
   * must stay on one); ioredis still sends them back to back without waiting for replies.
   */
  async recordTouches(touches: readonly KeyTouch[]): Promise<void> {
    for (let i = 0; i < touches.length; i += TOUCH_BATCH) {
      await Promise.all(
        touches
          .slice(i, i + TOUCH_BATCH)
          .map((touch) =>
            this.redis.zadd(
              this.keys.keyIndex(touch.key),
              touch.at,
              JSON.stringify({ chatbot: touch.chatbot, runId: touch.runId, jobId: touch.jobId }),
            ),
          ),
      );
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
