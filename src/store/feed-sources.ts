/**
 * Replication sources: per (chatbot, feed), where incremental replication from a RESO Web API
 * stands — the watermark (the largest ModificationTimestamp received and enqueued), the last run
 * and its cost against the feed's request budget, totals, the last sweep. `sources list` and
 * `sources show` print these.
 *
 * A feed is named by a stable id (a hash the caller makes, e.g. `stableFeedId(resourceUrl)`) and a
 * display form. Why the display form is stripped again here: a feed URL's credentials and query
 * string must never be stored or shown, and this is the last place before Redis that can make sure.
 *
 * Why the watermark moves only forward, compared in Lua: two runs of one source (a retried job, a
 * second process) may finish out of order; the older one must not move the next pull back, nor
 * skip records by racing a read-modify-write. Timestamps compare as instants (any UTC offset, up
 * to nanoseconds), not as strings.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client.js';
import { ListingSyncError } from '../shared/errors.js';
import type { StoreKeys } from './keys.js';
import { luaScript, runLua } from './lua.js';
import { NOW_LUA } from './run-lua.js';
import { ErrorCode } from '../shared/error-codes.js';

/** How a replication run ended. */
export const FEED_RUN_STATUSES = ['done', 'budget-exhausted', 'incomplete', 'failed', 'refused'] as const;
export type FeedRunStatus = (typeof FEED_RUN_STATUSES)[number];
/** How an `--events` run read the source: the events after the sequence, or a full resync (first run, retention gap). */
export type EventMode = 'events' | 'resync';

/** What a run reports when it ends. */
export interface FeedRunReport {
  /** The feed's display form (credentials and query are dropped if present). */
  feed: string;
  runId: string;
  status: FeedRunStatus;
  recordsPulled: number;
  /** Requests and response bytes this run spent against the feed's budget. */
  requests: number;
  bytes: number;
  /** Set when the run swept every key: whether the sweep completed, and how many vanished keys it deleted. */
  sweep?: { complete: boolean; deleted: number };
}

export interface FeedSource {
  chatbot: string;
  feedId: string;
  feed: string;
  /** Redis time (epoch ms) the source was first recorded. */
  createdAt: number;
  /** The next pull starts from here (minus the overlap); absent before the first run or after a reset. */
  watermark?: string;
  watermarkAt?: number;
  /** `--events`: the largest EntityEventSequence whose changes were queued, and how that run read (events, or a full resync). */
  eventSequence?: number;
  eventSequenceAt?: number;
  eventMode?: EventMode;
  lastRun?: { runId: string; at: number; status: FeedRunStatus | 'unknown'; recordsPulled: number; requests: number; bytes: number };
  totals: { runs: number; recordsPulled: number; requests: number; bytes: number };
  lastSweep?: { at: number; complete: boolean; deleted: number };
  /** When a forced full re-pull last cleared the watermark. */
  resetAt?: number;
}

/** A stable feed (or budget) id from its identifying parts: a hash, so no part (a URL, a client id) is stored. */
export function stableFeedId(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 24);
}

const FEED_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The display form without userinfo, query or fragment. */
function displayOf(feed: string): string {
  try {
    const url = new URL(feed);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.origin}${url.pathname}`;
  } catch {
    // Not a URL (a path): cut at the first '?' or '#' all the same.
  }
  return feed.replace(/[?#].*$/s, '');
}

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** A fixed-width sortable form of an ISO timestamp with offset: epoch seconds (12 digits) '.' nanoseconds (9). */
export function watermarkSortKey(timestamp: string): string {
  const match = ISO.exec(timestamp);
  const ms = match ? Date.parse(`${match[1]}${match[3]}`) : NaN;
  if (!match || Number.isNaN(ms) || ms < 0)
    throw new ListingSyncError(ErrorCode.INVALID_INPUT, `not an ISO 8601 timestamp with offset: ${JSON.stringify(timestamp.slice(0, 40))}`);
  return `${String(ms / 1000).padStart(12, '0')}.${(match[2] ?? '').padEnd(9, '0')}`;
}

const IDENTIFY_LUA = `
local function identify(key, chatbot, feedId, now)
  redis.call('HSET', key, 'chatbot', chatbot, 'feedId', feedId)
  redis.call('HSETNX', key, 'createdAt', now)
end
`;

/** KEYS: source. ARGV: timestamp, sort key, chatbot, feedId. Reply: {1 moved | 0, watermark now}. */
const ADVANCE = luaScript(`${NOW_LUA}${IDENTIFY_LUA}
local current = redis.call('HMGET', KEYS[1], 'wmKey', 'watermark')
if current[1] and current[1] >= ARGV[2] then return {0, current[2]} end
local now = nowMs()
identify(KEYS[1], ARGV[3], ARGV[4], now)
redis.call('HSET', KEYS[1], 'watermark', ARGV[1], 'wmKey', ARGV[2], 'watermarkAt', now)
return {1, ARGV[1]}
`);

/** KEYS: source. ARGV: sequence, mode, chatbot, feedId. Reply: {1 moved | 0, sequence now}. Forward only, as the watermark. */
const ADVANCE_SEQUENCE = luaScript(`${NOW_LUA}${IDENTIFY_LUA}
local now = nowMs()
identify(KEYS[1], ARGV[3], ARGV[4], now)
redis.call('HSET', KEYS[1], 'eventMode', ARGV[2])
local current = redis.call('HGET', KEYS[1], 'eventSequence')
if current and tonumber(current) >= tonumber(ARGV[1]) then return {0, current} end
redis.call('HSET', KEYS[1], 'eventSequence', ARGV[1], 'eventSequenceAt', now)
return {1, ARGV[1]}
`);

/**
 * KEYS: source. ARGV: chatbot, feedId, feed, runId, status, records, requests, bytes, sweep ('' | '1' | '0'), deleted.
 * Why the same run id replaces its figures: a run reported twice (a retried job) must not count twice.
 */
const RECORD_RUN = luaScript(`${NOW_LUA}${IDENTIFY_LUA}
local key = KEYS[1]
local now = nowMs()
identify(key, ARGV[1], ARGV[2], now)
local prev = redis.call('HMGET', key, 'lastRunId', 'lastRecords', 'lastRequests', 'lastBytes')
local totals = {'totalRecords', 'totalRequests', 'totalBytes'}
for i, field in ipairs(totals) do
  local by = tonumber(ARGV[5 + i])
  if prev[1] == ARGV[4] then by = by - tonumber(prev[1 + i] or '0') end
  redis.call('HINCRBY', key, field, by)
end
if prev[1] ~= ARGV[4] then redis.call('HINCRBY', key, 'runs', 1) end
redis.call('HSET', key, 'feed', ARGV[3], 'lastRunId', ARGV[4], 'lastRunAt', now, 'lastStatus', ARGV[5],
  'lastRecords', ARGV[6], 'lastRequests', ARGV[7], 'lastBytes', ARGV[8])
if ARGV[9] ~= '' then redis.call('HSET', key, 'lastSweepAt', now, 'lastSweepComplete', ARGV[9], 'lastSweepDeleted', ARGV[10]) end
return 1
`);

/** KEYS: source. Reply: the watermark cleared (false when there was none or no source). */
const RESET = luaScript(`${NOW_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local watermark = redis.call('HGET', KEYS[1], 'watermark')
redis.call('HDEL', KEYS[1], 'watermark', 'wmKey', 'watermarkAt', 'eventSequence', 'eventSequenceAt')
redis.call('HSET', KEYS[1], 'resetAt', nowMs())
return watermark
`);

function count(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new ListingSyncError(ErrorCode.INVALID_INPUT, `${what} must be a non-negative integer, got ${value}`);
  return value;
}

const num = (value: string | undefined): number => Number(value ?? 0);
const statusOf = (value: string | undefined): FeedRunStatus | 'unknown' =>
  (FEED_RUN_STATUSES as readonly string[]).includes(value ?? '') ? (value as FeedRunStatus) : 'unknown';

function decodeSource(h: Record<string, string>): FeedSource | undefined {
  if (h.chatbot === undefined || h.feedId === undefined) return undefined;
  const source: FeedSource = {
    chatbot: h.chatbot,
    feedId: h.feedId,
    feed: h.feed ?? '',
    createdAt: num(h.createdAt),
    totals: { runs: num(h.runs), recordsPulled: num(h.totalRecords), requests: num(h.totalRequests), bytes: num(h.totalBytes) },
  };
  if (h.watermark !== undefined) {
    source.watermark = h.watermark;
    source.watermarkAt = num(h.watermarkAt);
  }
  if (h.eventSequence !== undefined) {
    source.eventSequence = num(h.eventSequence);
    source.eventSequenceAt = num(h.eventSequenceAt);
  }
  if (h.eventMode === 'events' || h.eventMode === 'resync') source.eventMode = h.eventMode;
  if (h.lastRunId !== undefined) {
    const [recordsPulled, requests, bytes] = [num(h.lastRecords), num(h.lastRequests), num(h.lastBytes)];
    source.lastRun = { runId: h.lastRunId, at: num(h.lastRunAt), status: statusOf(h.lastStatus), recordsPulled, requests, bytes };
  }
  if (h.lastSweepAt !== undefined)
    source.lastSweep = { at: num(h.lastSweepAt), complete: h.lastSweepComplete === '1', deleted: num(h.lastSweepDeleted) };
  if (h.resetAt !== undefined) source.resetAt = num(h.resetAt);
  return source;
}

export class FeedSourceStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /**
   * Moves the watermark of (chatbot, feed) to `timestamp` if that is later than the stored one
   * (ISO 8601 with offset). Returns the watermark after the call and whether it moved.
   */
  async advanceWatermark(chatbot: string, feedId: string, timestamp: string): Promise<{ watermark: string; advanced: boolean }> {
    const sortKey = watermarkSortKey(timestamp);
    const key = await this.indexed(chatbot, feedId);
    const reply = (await runLua(this.redis, ADVANCE, [key], [timestamp, sortKey, chatbot, feedId])) as [number, string];
    return { watermark: reply[1], advanced: reply[0] === 1 };
  }

  /** Moves the EntityEvent sequence of (chatbot, feed) to `sequence` if that is larger, and records the run's mode. */
  async advanceEventSequence(
    chatbot: string,
    feedId: string,
    sequence: number,
    mode: EventMode,
  ): Promise<{ sequence: number; advanced: boolean }> {
    const key = await this.indexed(chatbot, feedId);
    const reply = (await runLua(this.redis, ADVANCE_SEQUENCE, [key], [String(count(sequence, 'sequence')), mode, chatbot, feedId])) as [
      number,
      string,
    ];
    return { sequence: Number(reply[1]), advanced: reply[0] === 1 };
  }

  /** Records how a run ended: its figures become the last run's and add to the totals (once per run id). */
  async recordRun(chatbot: string, feedId: string, run: FeedRunReport): Promise<void> {
    if (!(FEED_RUN_STATUSES as readonly string[]).includes(run.status))
      throw new ListingSyncError(ErrorCode.INVALID_INPUT, `unknown feed run status ${JSON.stringify(run.status)}`);
    const figures = [count(run.recordsPulled, 'recordsPulled'), count(run.requests, 'requests'), count(run.bytes, 'bytes')];
    const sweep = run.sweep ? [run.sweep.complete ? '1' : '0', count(run.sweep.deleted, 'sweep.deleted')] : ['', 0];
    const key = await this.indexed(chatbot, feedId);
    await runLua(this.redis, RECORD_RUN, [key], [chatbot, feedId, displayOf(run.feed), run.runId, run.status, ...figures, ...sweep]);
  }

  /** Clears the watermark so the next run pulls everything (a forced full re-pull); returns the one cleared. */
  async reset(chatbot: string, feedId: string): Promise<string | undefined> {
    const cleared = (await runLua(this.redis, RESET, [this.keys.feedSource(chatbot, feedId)], [])) as string | null;
    return cleared ?? undefined;
  }

  async show(chatbot: string, feedId: string): Promise<FeedSource | undefined> {
    return decodeSource(await this.redis.hgetall(this.keys.feedSource(chatbot, feedId)));
  }

  /**
   * Every source, by chatbot then feed: the index, then the records sent back to back (one
   * command each: on a Redis Cluster the chatbots' sources live in different slots).
   */
  async list(): Promise<FeedSource[]> {
    const members = await this.redis.smembers(this.keys.feedSources());
    const hashes = await Promise.all(
      members.map((member) => {
        const tab = member.lastIndexOf('\t');
        return this.redis.hgetall(this.keys.feedSource(member.slice(0, tab), member.slice(tab + 1)));
      }),
    );
    const sources = hashes.flatMap((hash) => {
      const source = decodeSource(hash);
      return source ? [source] : [];
    });
    return sources.sort((a, b) => a.chatbot.localeCompare(b.chatbot) || a.feed.localeCompare(b.feed) || a.feedId.localeCompare(b.feedId));
  }

  /**
   * The source's key, after adding it to the index. Why index first, as its own command: the index
   * and a chatbot's sources live in different slots; an index entry whose record is not written
   * yet is skipped by `list`, while a record missing from the index would never be listed.
   */
  private async indexed(chatbot: string, feedId: string): Promise<string> {
    if (chatbot === '' || chatbot.includes('\t'))
      throw new ListingSyncError(ErrorCode.INVALID_INPUT, 'a chatbot id must be non-empty and hold no tab');
    if (!FEED_ID.test(feedId))
      throw new ListingSyncError(ErrorCode.INVALID_INPUT, 'a feed id must be 1-128 of A-Z a-z 0-9 . _ - (e.g. stableFeedId(url))');
    await this.redis.sadd(this.keys.feedSources(), `${chatbot}\t${feedId}`);
    return this.keys.feedSource(chatbot, feedId);
  }
}
