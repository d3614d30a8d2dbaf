/**
 * Which jobs and runs touched a listing key (`jobs find KEY`: ops search by MLS number).
 * Written at enqueue time, so a key shows up even while its job is still waiting.
 *
 * Layout: one sorted set per chatbot and UTC day (`keytouch:{chatbot}:{day}`), every member
 * scored 0 and spelled `key \t at \t runId \t jobId`, so that the touches of one key are one
 * ZRANGEBYLEX of the members starting with `key \t`; and one index of those day sets
 * (`keytouch-days`, member `day \t chatbot`, scored by day).
 * Why by day rather than a set per listing key (the layout before, `keyidx:{key}`, still read
 * until retention has emptied it): a batch of touches is one ZADD per chatbot and day instead
 * of one per listing, and retention drops a whole day with one UNLINK instead of trimming every
 * listing key's set every hour (each a Redis command per listing; bench:sync counts them).
 * A search reads one set per chatbot and day kept: a few dozen commands for a rare query.
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

const DAY_MS = 86_400_000;

/** The UTC day (days since the epoch) a touch at `at` is kept under. */
export function touchDay(at: number): number {
  return Math.floor(at / DAY_MS);
}

/** Members in one ZADD: bounds a command's size (a migration enqueues a million touches). */
const ZADD_BATCH = 1000;

function memberOf(touch: KeyTouch): string {
  return `${touch.key}\t${touch.at}\t${touch.runId}\t${touch.jobId}`;
}

/** A day set's member → its touch; from the right, since only the listing key could hold a tab. */
function touchOf(chatbot: string, member: string): KeyTouch | undefined {
  const parts = member.split('\t');
  if (parts.length < 4) return undefined;
  const [jobId, runId, at] = parts.splice(-3).reverse() as [string, string, string];
  return { chatbot, key: parts.join('\t'), runId, jobId, at: Number(at) };
}

/** A `keytouch-days` member → its chatbot and day. */
export function touchBucketOf(member: string): { day: number; chatbot: string } {
  const tab = member.indexOf('\t');
  return { day: Number(member.slice(0, tab)), chatbot: member.slice(tab + 1) };
}

export class KeyIndexStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /**
   * Records touches, many at a time: one ZADD per chatbot and day (per ZADD_BATCH touches), the
   * day index first, so a day set is never without its index entry (retention finds sets only
   * through it). On one Redis the commands go as one pipeline, which Redis runs in order; on a
   * Redis Cluster the index is written before the sets, each set on its chatbot's master.
   */
  async recordTouches(touches: readonly KeyTouch[]): Promise<void> {
    if (touches.length === 0) return;
    const { redis, keys } = this;
    const days = new Map<string, { chatbot: string; day: number; members: string[] }>();
    for (const touch of touches) {
      const day = touchDay(touch.at);
      const bucket = `${day}\t${touch.chatbot}`;
      let group = days.get(bucket);
      if (group === undefined) days.set(bucket, (group = { chatbot: touch.chatbot, day, members: [] }));
      group.members.push(memberOf(touch));
    }
    const index = [...days].flatMap(([bucket, { day }]) => [String(day), bucket]);
    const sets: Array<[string, string[]]> = [];
    for (const { chatbot, day, members } of days.values()) {
      for (let i = 0; i < members.length; i += ZADD_BATCH)
        sets.push([keys.keyTouches(chatbot, day), members.slice(i, i + ZADD_BATCH).flatMap((member) => ['0', member])]);
    }
    if (isCluster(redis)) {
      await redis.zadd(keys.keyTouchDays(), ...index);
      await Promise.all(sets.map(([key, args]) => redis.zadd(key, ...args)));
      return;
    }
    const pipe = redis.pipeline().zadd(keys.keyTouchDays(), ...index);
    for (const [key, args] of sets) pipe.zadd(key, ...args);
    const failed = (await pipe.exec())?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
  }

  async recordKeyTouch(chatbot: string, key: string, runId: string, jobId: string, at: number = Date.now()): Promise<void> {
    await this.recordTouches([{ chatbot, key, runId, jobId, at }]);
  }

  /** Every touch of a key, newest first, optionally of one chatbot. */
  async touches(key: string, chatbot?: string): Promise<KeyTouch[]> {
    const { redis, keys } = this;
    const buckets = (await redis.zrange(keys.keyTouchDays(), '0', '-1'))
      .map(touchBucketOf)
      .filter((bucket) => chatbot === undefined || bucket.chatbot === chatbot);
    // Members `key \t …` are exactly those from `key\t` (inclusive) to `key\n` (exclusive): '\n' follows '\t'.
    const [found, legacy] = await Promise.all([
      Promise.all(
        buckets.map(async (bucket) =>
          (await redis.zrangebylex(keys.keyTouches(bucket.chatbot, bucket.day), `[${key}\t`, `(${key}\n`)).map((member) =>
            touchOf(bucket.chatbot, member),
          ),
        ),
      ),
      this.legacyTouches(key, chatbot),
    ]);
    const touches = found.flat().filter((touch): touch is KeyTouch => touch !== undefined && touch.key === key);
    return [...touches, ...legacy].sort((a, b) => b.at - a.at);
  }

  /** Touches in the layout before the day sets (`keyidx:{key}`), until retention has emptied them. */
  private async legacyTouches(key: string, chatbot?: string): Promise<KeyTouch[]> {
    const flat = await this.redis.zrevrange(this.keys.keyIndex(key), 0, -1, 'WITHSCORES');
    const touches: KeyTouch[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const parsed = JSON.parse(flat[i] as string) as { chatbot: string; runId: string; jobId: string };
      if (chatbot === undefined || parsed.chatbot === chatbot) touches.push({ ...parsed, key, at: Number(flat[i + 1]) });
    }
    return touches;
  }
}
