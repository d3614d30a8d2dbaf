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
-- Why no closures or per-field tables: a script's own allocations (and the GC steps Redis runs
-- for them) cost Redis CPU too, more than the commands they save if they are careless.
local VIEW_CHUNK = 500
local function hashView(key, fields, read)
  local before = {}
  if read then
    for first = 1, #fields, VIEW_CHUNK do
      local last = math.min(#fields, first + VIEW_CHUNK - 1)
      local values = redis.call('HMGET', key, unpack(fields, first, last))
      for n = first, last do
        local value = values[n - first + 1]
        if value then before[fields[n]] = value end
      end
    end
  end
  return {key = key, before = before, now = {}, order = {}}
end
local function viewGet(view, field)
  local value = view.now[field]
  if value == nil then return view.before[field] or false end
  return value
end
local function viewSet(view, field, value)
  local now = view.now
  if now[field] == nil then view.order[#view.order + 1] = field end
  now[field] = value
end
local function sendChunked(command, key, list)
  for first = 1, #list, VIEW_CHUNK do redis.call(command, key, unpack(list, first, math.min(#list, first + VIEW_CHUNK - 1))) end
end
local function flushView(view)
  local order = view.order
  if #order == 0 then return end
  local sets, removals = {}, {}
  for n = 1, #order do
    local field = order[n]
    local value = view.now[field]
    if value then
      sets[#sets + 1] = field; sets[#sets + 1] = value
    elseif view.before[field] then
      removals[#removals + 1] = field
    end
  end
  -- HSET takes field/value pairs: an even chunk size keeps each pair in one call.
  sendChunked('HSET', view.key, sets)
  sendChunked('HDEL', view.key, removals)
end
`;
