/**
 * The Lua behind permit-pool.ts: one script that renews a holder's lease on a block of request
 * permits and answers how many it may use. It touches one key (the pool's hash, its own hash tag),
 * so it runs on a Redis Cluster too, and reads Redis's clock (TIME), so holders on machines with
 * skewed clocks share one timeline.
 *
 * The hash: `born` → ms when the pool was first used; `h:{holder}` → `held want expiresAt` (ms).
 * `held` is what the pool counts against the size for that holder: never less than what the
 * holder said it may have in flight (`floor`), so the sum of `held` over live holders bounds the
 * requests in flight.
 */
import { luaScript } from './lua.js';

/**
 * KEYS: the pool (hash).
 * ARGV: holder id, floor (requests the holder may still have in flight: its limit or its
 * requests in flight, whichever is larger), want (what it has work for, at most what it can
 * use), size (G), ttlMs, graceMs.
 * Reply: {grant, target, nowMs}: the holder may have `grant` in flight from now on; `target` is
 * its fair share (above grant while others still hold what is due to it).
 *
 * Why the floor is recorded even above the size: a holder whose lease expired (a frozen process)
 * or whose pool was lost (Redis restarted without its data) may still have requests in flight;
 * counting them keeps everyone else from being granted more until they end.
 *
 * Fair share (why max-min): each live holder gets min(want, level), the level chosen so the
 * shares fill the size; a holder that wants little leaves the rest to the others. Integer shares;
 * the remainder goes to the holders last in (want, held, id) order. Among equals it stays with
 * those holding it (a permit moving between holders is idle while one drains and the other
 * renews), except when more holders want permits than there are: then it goes to those holding
 * least, so the permits rotate (a fixed order would leave the same holders at 0 for ever, their
 * jobs waiting).
 * A holder above its share is told the share and gives the difference back as its requests end
 * (its next renewal reports the lower floor); a holder below it takes only what is free.
 *
 * Grace (why): when the pool is new, the first process to start would be granted everything,
 * then give it back over a few renewals as others register. For graceMs after `born` a phantom
 * holder that wants everything stands in for processes not registered yet.
 */
export const PERMIT_RENEW = luaScript(`
local key = KEYS[1]
local holder, floor, want = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local size, ttl, grace = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local born = tonumber(redis.call('HGET', key, 'born'))
if not born then
  born = now
  redis.call('HSET', key, 'born', string.format('%.0f', now))
end
local all = redis.call('HGETALL', key)
local ids, wants, helds, othersHeld = {}, {}, {}, 0
for i = 1, #all, 2 do
  local field = all[i]
  if string.sub(field, 1, 2) == 'h:' then
    local id = string.sub(field, 3)
    local h, w, expires = string.match(all[i + 1], '^(%d+) (%d+) (%d+)$')
    if expires == nil or tonumber(expires) <= now then
      redis.call('HDEL', key, field)
    elseif id ~= holder then
      ids[#ids + 1] = id
      wants[id] = tonumber(w)
      helds[id] = tonumber(h)
      othersHeld = othersHeld + tonumber(h)
    end
  end
end
ids[#ids + 1] = holder
wants[holder] = want
helds[holder] = floor
if now < born + grace then
  ids[#ids + 1] = '~phantom'
  wants['~phantom'] = size
  helds['~phantom'] = 0
end
local wanting = 0
for _, id in ipairs(ids) do
  if wants[id] > 0 then wanting = wanting + 1 end
end
local rotate = wanting > size
table.sort(ids, function(a, b)
  if wants[a] ~= wants[b] then return wants[a] < wants[b] end
  if helds[a] ~= helds[b] then
    if rotate then return helds[a] > helds[b] end
    return helds[a] < helds[b]
  end
  return a < b
end)
local remaining, target = size, 0
for i, id in ipairs(ids) do
  local level = math.floor(remaining / (#ids - i + 1))
  local share = math.min(wants[id], level)
  remaining = remaining - share
  if id == holder then target = share end
end
local grant = target
if target > floor then
  local free = size - othersHeld - floor
  grant = floor + math.max(0, math.min(target - floor, free))
end
local held = math.max(grant, floor)
redis.call('HSET', key, 'h:' .. holder, held .. ' ' .. want .. ' ' .. string.format('%.0f', now + ttl))
return {grant, target, now}
`);
