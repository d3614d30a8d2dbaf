/**
 * The Lua behind feed-budget.ts: one script that checks every window of a feed server's request
 * budget and either records the request or says until when to wait, and one that counts bytes.
 * Both read Redis's own clock (TIME, in µs), so processes on machines with skewed clocks share one
 * timeline.
 *
 * Layout (keys.ts): request times in a sorted set scored by their µs time (member: time and a
 * caller nonce, so two requests in one µs stay two); bytes in a hash of buckets (bucket index →
 * bytes), one bucket per 1/60 of the bytes window.
 *
 * Why a log of request times rather than counters per fixed window: a fixed window lets 2N
 * requests through around its boundary, and the server may count in sliding windows. With the
 * log, "the L-th newest request is still inside the window" is the exact test of "one more would
 * make L+1", at O(log n) per window (ZRANGE -L -L), and that request's time + span is the exact
 * moment the window frees a slot: waiters sleep until then and never poll.
 */
import { luaScript } from './lua.js';

/** `nowUs()`: Redis's clock in µs; `fmt(n)`: an integer as digits (never `1.7e+15`, which would lose µs). */
const CLOCK_LUA = `
local function nowUs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local function fmt(n) return string.format('%.0f', n) end
`;

/**
 * `liveBuckets(key, now, span, bucketUs)`: the byte buckets that may hold bytes counted inside
 * (now − span, now], oldest first, their sum, and the fields of buckets entirely outside it.
 * Why "may": a bucket counts whole while any part of it is inside, so the sum never undercounts.
 */
const BUCKETS_LUA = `
local function liveBuckets(key, now, span, bucketUs)
  local all = redis.call('HGETALL', key)
  local live, old, sum = {}, {}, 0
  for i = 1, #all, 2 do
    local b, n = tonumber(all[i]), tonumber(all[i + 1])
    if (b + 1) * bucketUs > now - span then
      live[#live + 1] = {b, n}
      sum = sum + n
    else
      old[#old + 1] = all[i]
    end
  end
  table.sort(live, function(x, y) return x[1] < y[1] end)
  return live, sum, old
end
`;

/**
 * KEYS: request times (zset), bytes (hash).
 * ARGV: mode ('take' records when every window has room; 'peek' only reads), nonce, marginUs,
 * bytesLimit (0: no bytes window), bytesSpanUs, bytesBucketUs, then per request window: name,
 * spanUs, limit.
 * Reply, take: {1, nowUs} granted, or {0, nowUs, retryAtUs, window}.
 * Reply, peek: {nowUs, retryAtUs (0: not full), window, bytes, count per request window…}.
 *
 * Every span is widened by the margin here, so the margin policy lives in one place (feed-budget.ts
 * says why it exists).
 */
export const BUDGET_CHECK = luaScript(`${CLOCK_LUA}${BUCKETS_LUA}
local reqKey, bytesKey = KEYS[1], KEYS[2]
local mode, nonce, margin = ARGV[1], ARGV[2], tonumber(ARGV[3])
local bytesLimit, bytesSpan, bucketUs = tonumber(ARGV[4]), tonumber(ARGV[5]) + tonumber(ARGV[3]), tonumber(ARGV[6])
local now = nowUs()
local keep, retryAt, binding, counts = 0, 0, '', {}
local function blockUntil(at, name)
  if at > retryAt then retryAt, binding = at, name end
end
for i = 7, #ARGV, 3 do
  local name, span, limit = ARGV[i], tonumber(ARGV[i + 1]) + margin, tonumber(ARGV[i + 2])
  if span > keep then keep = span end
  local nth = redis.call('ZRANGE', reqKey, -limit, -limit, 'WITHSCORES')
  if nth[2] and tonumber(nth[2]) > now - span then blockUntil(tonumber(nth[2]) + span, name) end
  if mode == 'peek' then counts[#counts + 1] = redis.call('ZCOUNT', reqKey, '(' .. fmt(now - span), '+inf') end
end
local live, bytes, old = {}, 0, {}
if bytesLimit > 0 or mode == 'peek' then live, bytes, old = liveBuckets(bytesKey, now, bytesSpan, bucketUs) end
if bytesLimit > 0 then
  if bytesSpan > keep then keep = bytesSpan end
  -- Why a headroom of one average response: bytes are known only after a response arrived, so
  -- "below the limit" alone would let the next response take the window over it.
  local requests = redis.call('ZCOUNT', reqKey, '(' .. fmt(now - bytesSpan), '+inf')
  local headroom = 0
  if requests > 0 then headroom = bytes / requests end
  if bytes > 0 and (bytes >= bytesLimit or bytes + headroom > bytesLimit) then
    local remaining, at = bytes, 0
    for _, bucket in ipairs(live) do
      remaining = remaining - bucket[2]
      at = (bucket[1] + 1) * bucketUs + bytesSpan
      if remaining < bytesLimit and remaining + headroom <= bytesLimit then break end
    end
    blockUntil(at, 'bytesPerHour')
  end
end
if mode == 'peek' then
  local reply = {now, retryAt, binding, bytes}
  for _, c in ipairs(counts) do reply[#reply + 1] = c end
  return reply
end
if retryAt > 0 then return {0, now, retryAt, binding} end
redis.call('ZREMRANGEBYSCORE', reqKey, '-inf', fmt(now - keep))
redis.call('ZADD', reqKey, fmt(now), fmt(now) .. '-' .. nonce)
redis.call('PEXPIRE', reqKey, math.ceil(keep / 1000) + 1000)
if #old > 0 then redis.call('HDEL', bytesKey, unpack(old)) end
return {1, now}
`);

/**
 * KEYS: bytes (hash). ARGV: bytes, spanUs (margin included), bucketUs.
 * Adds the bytes to the current bucket, drops buckets outside the window, keeps the hash only
 * as long as the window (an idle budget leaves nothing behind).
 */
export const BUDGET_ADD_BYTES = luaScript(`${CLOCK_LUA}${BUCKETS_LUA}
local key, bytes, span, bucketUs = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = nowUs()
redis.call('HINCRBY', key, fmt(math.floor(now / bucketUs)), bytes)
local _, _, old = liveBuckets(key, now, span, bucketUs)
if #old > 0 then redis.call('HDEL', key, unpack(old)) end
redis.call('PEXPIRE', key, math.ceil((span + bucketUs) / 1000))
return 1
`);
