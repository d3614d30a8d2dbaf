/**
 * `hashView(key, fields, read)` in Lua: the fields of one hash that a batched script (group-commit.ts)
 * works on, read with ONE HMGET (per chunk) up front, with the script's own writes laid over them,
 * and written back with one HSET and one HDEL at the end (`flushView`).
 *
 * Why: a script call carries the jobs of several listings, and each job must see the writes of
 * the jobs before it, as if it ran alone. Doing that with a command per field per job cost four
 * to six Redis commands per listing (bench:sync counts them server side, Lua included); reading
 * and writing each hash once per call costs a handful per call, whatever its size. Redis runs a
 * script atomically, so nothing else can change the hash between the read and the write.
 *
 * - `viewGet(view, field)`: the value as of now in this call (false when absent);
 * - `viewSet(view, field, value)`: a write (`false` removes the field);
 * - `flushView(view)`: sends the writes; a removal is sent only for a field that existed before
 *   the call (one this call added and removed again never reached Redis).
 * `read` false: the caller knows the hash is empty (one EXISTS for several hashes), so nothing is read.
 */
export const HASH_VIEW_LUA = `
-- Why chunks: unpack() of a whole delete batch (up to 10,000 keys) would overflow Lua's C stack.
local VIEW_CHUNK = 500
local function chunked(list, send)
  for first = 1, #list, VIEW_CHUNK do send(unpack(list, first, math.min(#list, first + VIEW_CHUNK - 1))) end
end
local function hashView(key, fields, read)
  local view = {key = key, before = {}, now = {}, written = {}, order = {}}
  if read and #fields > 0 then
    for first = 1, #fields, VIEW_CHUNK do
      local last = math.min(#fields, first + VIEW_CHUNK - 1)
      local values = redis.call('HMGET', key, unpack(fields, first, last))
      for n = first, last do view.before[fields[n]] = values[n - first + 1] end
    end
  end
  return view
end
local function viewGet(view, field)
  if view.written[field] then return view.now[field] end
  return view.before[field] or false
end
local function viewSet(view, field, value)
  if not view.written[field] then view.written[field] = true; view.order[#view.order + 1] = field end
  view.now[field] = value
end
local function flushView(view)
  local sets, removals = {}, {}
  for _, field in ipairs(view.order) do
    local value = view.now[field]
    if value then
      sets[#sets + 1] = field; sets[#sets + 1] = value
    elseif view.before[field] then
      removals[#removals + 1] = field
    end
  end
  -- HSET takes field/value pairs: an even chunk size keeps each pair in one call.
  chunked(sets, function(...) redis.call('HSET', view.key, ...) end)
  chunked(removals, function(...) redis.call('HDEL', view.key, ...) end)
end
`;
