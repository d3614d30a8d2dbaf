/**
 * Which jobs and runs touched a listing key (`jobs find KEY`: ops search by MLS number).
 * Written at enqueue time, so a key shows up even while its job is still waiting.
 */
import type { ChainableCommander, Redis } from 'ioredis';
import type { StoreKeys } from './keys.js';

export interface KeyTouch {
  chatbot: string;
  key: string;
  runId: string;
  jobId: string;
  at: number;
}

export class KeyIndexStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StoreKeys,
  ) {}

  /** Adds a touch to a pipeline (enqueue batches thousands of them into one round trip). */
  addTouch(pipe: ChainableCommander, touch: KeyTouch): void {
    pipe.zadd(this.keys.keyIndex(touch.key), touch.at, JSON.stringify({ chatbot: touch.chatbot, runId: touch.runId, jobId: touch.jobId }));
  }

  async recordKeyTouch(chatbot: string, key: string, runId: string, jobId: string, at: number = Date.now()): Promise<void> {
    const pipe = this.redis.pipeline();
    this.addTouch(pipe, { chatbot, key, runId, jobId, at });
    await pipe.exec();
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
