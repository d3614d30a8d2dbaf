/**
 * The shape of each (chatbot, feed) after its last run that was allowed to proceed: one JSON
 * string per source (keys.ts `feedShape`), which the next run compares its feed with before it
 * writes anything (src/domain/feed-shape.ts). Read leniently: a record this version cannot read
 * counts as none, so the run records afresh instead of failing.
 */
import { z } from 'zod';
import type { RecordedShape } from '../domain/feed-shape.js';
import type { StoreKeys } from './keys.js';
import type { RedisClient } from './redis-client.js';

const count = z.number().int().min(0);

const recordedShapeSchema = z.object({
  source: z.string(),
  runId: z.string(),
  at: z.string(),
  format: z.enum(['csv', 'json']),
  columns: z.array(z.string()),
  reads: z.array(z.object({ column: z.string(), fields: z.array(z.string()), sparse: z.boolean().optional(), rows: count })),
  fields: z.record(z.string(), count),
  rows: count,
}) satisfies z.ZodType<RecordedShape>;

/**
 * Why a shape expires: a feed named by a dated file (`export-2026-11-23.csv`) is a new source every
 * night, and its records would otherwise stay forever. A source synced at least every few months
 * keeps its record (each allowed run writes it again).
 */
export const FEED_SHAPE_TTL_SECONDS = 180 * 86_400;

export class FeedShapeStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /** The recorded shape of the source, or undefined when there is none (or it cannot be read). */
  async read(chatbot: string, sourceId: string): Promise<RecordedShape | undefined> {
    const text = await this.redis.get(this.keys.feedShape(chatbot, sourceId));
    if (text === null) return undefined;
    try {
      const parsed = recordedShapeSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Records `shape` as the source's shape (replacing the last one). */
  async write(chatbot: string, sourceId: string, shape: RecordedShape): Promise<void> {
    await this.redis.set(this.keys.feedShape(chatbot, sourceId), JSON.stringify(shape), 'EX', FEED_SHAPE_TTL_SECONDS);
  }
}
