/**
 * Failed-key memory: per chatbot, the listing keys whose jobs failed for good. Written and cleared
 * by the job-finish script (job-finish.ts); read by the planner as `retryKeys`, so the next run
 * of the chatbot retries them even when the feed did not change.
 */
import type { RedisClient } from './redis-client.js';
import type { SyncKeyType } from '../domain/listing.js';
import type { FailedKey } from './job-finish.js';
import type { StoreKeys } from './keys.js';
import { ErrorCode } from '../shared/error-codes.js';

export class FailedKeyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /** Every failed key of a chatbot with its last failure. */
  async failedKeys(chatbot: string, keyType: SyncKeyType): Promise<Map<string, FailedKey>> {
    const hash = await this.redis.hgetall(this.keys.failed(chatbot, keyType));
    const failed = new Map<string, FailedKey>();
    for (const [key, json] of Object.entries(hash)) {
      try {
        failed.set(key, JSON.parse(json) as FailedKey);
      } catch {
        failed.set(key, { key, jobId: '', runId: '', code: ErrorCode.UNKNOWN, message: json, attempts: 0, at: 0 });
      }
    }
    return failed;
  }

  /** Forgets keys (e.g. a key the feed no longer has). */
  async forget(chatbot: string, keyType: SyncKeyType, keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.redis.hdel(this.keys.failed(chatbot, keyType), ...keys);
  }
}
