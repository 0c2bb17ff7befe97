"""The Lua scripts of the Redis room backend (spec/relay.md §13.2): each room change is one atomic script.

Every script gets the key prefix as ARGV[1] and builds its key names from it (one Redis, not Redis
Cluster: a frame's script touches the room, its stream and the receiving node's inbox). Times are
Redis's own clock (``TIME``), so nodes on different machines agree on ages and grace periods.

Key names (P = prefix): ``P r:CODE`` room hash; ``P s:CODE:EPOCH:SEAT`` frames for that seat, entry
id ``0-(seq+1)``, field ``d``; ``P t:TOKENID`` token index (CODE followed by the seat digit);
``P rooms`` sorted set of live rooms (score: expiry deadline); ``P lobby`` the rooms the lobby
lists, ``P lobby:TAG`` the rejoin rooms of that tag it lists (score: creation time); ``P src:SOURCE``
the live rooms created from that address (score: expiry deadline); ``P buf`` the bytes buffered in
every stream, ``P rb`` (a hash) those of each room, ``P dirs`` (a sorted set) those of each direction
holding any (member ``CODE:SEAT``, score its bytes); ``P x:CODE:EPOCH`` tombstone of a closed room
(its reason); ``P n:NODE`` a node's heartbeat; ``P i:NODE`` a node's inbox stream (frames and
notices for its seats); ``P h:NODE`` a node's bytes in flight as it last wrote them and ``P nodes``
(a set) the nodes that write them, which FORWARD reads for the budget (§13.6).

Room hash fields: ``ep`` epoch, ``lk`` the lobby key listing it ("" for none), ``src`` its source,
``meta``, ``li`` the lobby listing (msgpack, "" for none), ``cr`` created (ms), ``act`` last activity (ms);
per seat s: ``t<s>`` token, ``k<s>`` token id, ``o<s>`` owner ("NODE:SERIAL", "" while away),
``a<s>`` away since (ms), ``n<s>`` frames accepted from seat s, ``b<s>`` data bytes buffered for s.
"""

from __future__ import annotations

import re

# A node id (spec §13.1): it names keys and starts every owner "NODE:SERIAL", so never a colon; dots
# and hyphens let a host name be part of it (deploy/koikoi-relay@.service: --node-id %H-%i).
NODE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

INBOX_MAX = 20000       # entries kept in a node's inbox (approximate trim); a late node reads the streams
TOMBSTONE_MS = 120000   # how long a closed room's reason stays readable for the nodes still serving it
SPILL = 8               # directions a frame's call may make give way over the budget (spec §13.6)

PRELUDE = """
local P = ARGV[1]
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function node_of(owner) return string.match(owner, '^([^:]+):') end
local function alive(owner)
  if not owner or owner == '' then return false end
  return redis.call('EXISTS', P .. 'n:' .. node_of(owner)) == 1
end
local function tell(owner, fields)
  if not owner or owner == '' then return end
  -- NOMKSTREAM: the inbox of a node that is gone is not created again.
  local inbox = P .. 'i:' .. node_of(owner)
  redis.call('XADD', inbox, 'NOMKSTREAM', 'MAXLEN', '~', 'INBOX_MAX', '*', unpack(fields))
end
-- Inbox entries: a frame is {'f', 'CODE:EPOCH:SEAT:SEQ', 'd', data}; a notice is
-- {'e', 'CODE:EPOCH:SEAT', 't', target owner, 'v', what, 'x', extra}.
local function notice(owner, code, epoch, seat, what, extra)
  tell(owner, {'e', code .. ':' .. epoch .. ':' .. seat, 't', owner, 'v', what, 'x', extra or ''})
end
local function stream(code, epoch, seat) return P .. 's:' .. code .. ':' .. epoch .. ':' .. seat end
-- The bytes buffered in a room's streams leave the cluster's total (spec/relay.md section 13.6).
local function release(code)
  local held = tonumber(redis.call('HGET', P .. 'rb', code) or '0')
  if held ~= 0 then redis.call('DECRBY', P .. 'buf', held) end
  redis.call('HDEL', P .. 'rb', code)
  redis.call('ZREM', P .. 'dirs', code .. ':0', code .. ':1')
end
-- The directions holding bytes, by how many (section 13.6: the largest give way over the budget).
local function sized(code, seat, bytes)
  if bytes > 0 then redis.call('ZADD', P .. 'dirs', bytes, code .. ':' .. seat)
  else redis.call('ZREM', P .. 'dirs', code .. ':' .. seat) end
end
local function close_room(code, reason, except)
  local key = P .. 'r:' .. code
  local r = redis.call('HMGET', key, 'ep', 'o0', 'o1', 'k0', 'k1', 'lk', 'src')
  if not r[1] then return 0 end
  for i = 4, 5 do if r[i] then redis.call('DEL', P .. 't:' .. r[i]) end end
  redis.call('DEL', key, stream(code, r[1], 0), stream(code, r[1], 1))
  redis.call('ZREM', P .. 'rooms', code)
  if r[6] and r[6] ~= '' then redis.call('ZREM', r[6], code) end
  if r[7] then redis.call('ZREM', P .. 'src:' .. r[7], code) end
  release(code)
  redis.call('SET', P .. 'x:' .. code .. ':' .. r[1], reason, 'PX', TOMBSTONE_MS)
  for seat = 0, 1 do
    local owner = r[2 + seat]
    if owner and owner ~= '' and owner ~= except then notice(owner, code, r[1], seat, 'closed', reason) end
  end
  return 1
end
local function lost(code, epoch)
  local reason = redis.call('GET', P .. 'x:' .. code .. ':' .. epoch)
  return {'lost', reason or ''}
end
local function trim(code, epoch, seat, received, bytes)
  local s = stream(code, epoch, seat)
  local gone = redis.call('XRANGE', s, '-', '0-' .. received)
  if #gone == 0 then return bytes end
  local freed = 0
  for _, entry in ipairs(gone) do freed = freed + #entry[2][2] end
  redis.call('XTRIM', s, 'MINID', '0-' .. (received + 1))
  redis.call('HSET', P .. 'r:' .. code, 'b' .. seat, bytes - freed)
  redis.call('HINCRBY', P .. 'rb', code, -freed)
  redis.call('DECRBY', P .. 'buf', freed)
  sized(code, seat, bytes - freed)
  return bytes - freed
end
""".replace("INBOX_MAX", str(INBOX_MAX)).replace("TOMBSTONE_MS", str(TOMBSTONE_MS))

# ARGV: P, code, token, token id, epoch, lobby key ('' unlisted), meta, owner, max rooms, ttl ms,
# source, max rooms per source (0: none), max buffered bytes (0: none), buffer bytes,
# listing (msgpack, '' for none)
CREATE = """
local code, token, tokid, epoch = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local lk, meta, owner = ARGV[6], ARGV[7], ARGV[8]
local max_rooms, ttl = tonumber(ARGV[9]), tonumber(ARGV[10])
local source, per_source = ARGV[11], tonumber(ARGV[12])
local budget, buffer = tonumber(ARGV[13]), tonumber(ARGV[14])
local listing = ARGV[15]
local now = now_ms()
local rooms = P .. 'rooms'
-- Rooms whose every node died expire on their own: give their bytes back (a bounded number per call).
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', rooms, '-inf', now, 'LIMIT', 0, 256)) do
  release(gone)
  redis.call('ZREM', rooms, gone)
end
if redis.call('ZCARD', rooms) >= max_rooms then return {'full'} end
local src = P .. 'src:' .. source
redis.call('ZREMRANGEBYSCORE', src, '-inf', now)
if per_source > 0 and redis.call('ZCARD', src) >= per_source then return {'source'} end
local held = tonumber(redis.call('GET', P .. 'buf') or '0')
if budget > 0 and held + 2 * buffer > budget then return {'busy'} end
local key = P .. 'r:' .. code
if redis.call('EXISTS', key) == 1 then return {'taken'} end
redis.call('HSET', key, 'ep', epoch, 'lk', lk, 'meta', meta, 'cr', now, 'act', now,
           't0', token, 'k0', tokid, 'o0', owner, 'a0', '', 'n0', 0, 'n1', 0, 'b0', 0, 'b1', 0,
           'src', source, 'li', listing)
redis.call('PEXPIRE', key, ttl)
redis.call('SET', P .. 't:' .. tokid, code .. '0', 'PX', ttl)
redis.call('ZADD', rooms, now + ttl, code)
redis.call('ZADD', src, now + ttl, code)
redis.call('PEXPIRE', src, ttl)
if lk ~= '' then redis.call('ZADD', lk, now, code) end
return {'ok'}
"""

# ARGV: P, code, token, token id, owner, ttl ms
JOIN = """
local code, token, tokid, owner, ttl = ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6])
local key = P .. 'r:' .. code
local r = redis.call('HMGET', key, 'ep', 't1', 'o0', 'meta', 'lk')
if not r[1] then return {'none'} end
if r[2] then return {'full'} end
redis.call('HSET', key, 't1', token, 'k1', tokid, 'o1', owner, 'a1', '', 'act', now_ms())
redis.call('SET', P .. 't:' .. tokid, code .. '1', 'PX', ttl)
if r[5] and r[5] ~= '' then redis.call('ZREM', r[5], code) end
local presence = 'away'
if alive(r[3]) then
  presence = 'present'
  notice(r[3], code, r[1], 0, 'peer_joined', owner)
end
return {'ok', r[1], r[4], presence, r[3]}
"""

# ARGV: P, buffer frames, buffer bytes, ttl ms, budget (max buffered bytes less the sending node's
# own parts; 0: none, 1: none left), the sending node's name, the step each other node's written
# parts are taken with, then for each frame: code, epoch, seat, owner, seq, data.
# The hot path of the cluster: a node sends every frame it accepted during one round trip in a
# single call, so it stands alone (no prelude) and answers each frame with one integer: the new
# count when stored (plus FWD_LOCAL when the recipient is held by the sending node itself, which
# then writes the frame to it at once: no inbox entry, no XREAD wake-up), FWD_DUP / FWD_GAP minus
# the count, or FWD_LOST, FWD_REPLACED, FWD_NO_PEER.
FORWARD = """
local P = ARGV[1]
local max_frames, max_bytes, ttl = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local budget = tonumber(ARGV[5])
local big = math.floor(max_bytes / 8)
-- Section 13.6: the budget comes less the sending node's own parts; the other live nodes' parts
-- (b) and (d) are read here, as each last wrote them, each with a step (ARGV[7]) for what it may
-- have taken since (a node writes again once it holds half a step more). 1: no budget left.
if budget > 1 then
  for _, name in ipairs(redis.call('SMEMBERS', P .. 'nodes')) do
    if name ~= ARGV[6] then
      local said = redis.call('GET', P .. 'h:' .. name)
      if said then budget = budget - tonumber(said) - tonumber(ARGV[7]) end
    end
  end
  if budget < 1 then budget = 1 end
end
local dirs = P .. 'dirs'
local function node(owner) return string.match(owner, '^([^:]+):') end
local function inbox(owner) return P .. 'i:' .. node(owner) end
-- spec/relay.md section 13.6: while the total is above the budget, the direction holding the most
-- (the sorted set dirs: member CODE:SEAT, score its bytes) gives back its oldest frames down to the
-- mark, then the next; never below the mark (its newest frames stay for a resume), at most SPILL
-- directions for each frame. Returns the new total.
local function spill(total)
  local visited = 0
  while total > budget and visited < SPILL do
    visited = visited + 1
    local top = redis.call('ZREVRANGE', dirs, 0, 0, 'WITHSCORES')
    if #top == 0 or tonumber(top[2]) <= big then break end
    local member = top[1]
    local c, seat = string.match(member, '^(.*):([01])$')
    local rk = P .. 'r:' .. c
    local h = redis.call('HMGET', rk, 'ep', 'b' .. seat)
    if not h[1] or not h[2] then
      -- A room that expired with every node serving it: its bytes leave the total now.
      local gone = tonumber(redis.call('HGET', P .. 'rb', c) or '0')
      if gone ~= 0 then total = redis.call('DECRBY', P .. 'buf', gone) end
      redis.call('HDEL', P .. 'rb', c)
      redis.call('ZREM', dirs, c .. ':0', c .. ':1')
    else
      local held = tonumber(h[2])
      local st = P .. 's:' .. c .. ':' .. h[1] .. ':' .. seat
      -- The oldest entries to drop, read in pages, then cut with one XTRIM (no rescans of deleted
      -- entries): entry ids are 0-(seq+1), so the first kept one is the last dropped plus one.
      local left, last = held, nil
      while left > big do
        local from = '-'
        if last then from = '(' .. last end
        local page = redis.call('XRANGE', st, from, '+', 'COUNT', 64)
        if #page == 0 then left = 0 break end
        for _, entry in ipairs(page) do
          if left <= big then break end
          left = left - #entry[2][2]
          last = entry[1]
        end
      end
      if last then
        local kept = tonumber(string.match(last, '-(%d+)$')) + 1
        redis.call('XTRIM', st, 'MINID', '0-' .. string.format('%d', kept))
      end
      if left < 0 then left = 0 end
      if held > left then
        redis.call('HSET', rk, 'b' .. seat, left)
        redis.call('HINCRBY', P .. 'rb', c, left - held)
        total = redis.call('DECRBY', P .. 'buf', held - left)
      end
      if left > 0 then redis.call('ZADD', dirs, left, member) else redis.call('ZREM', dirs, member) end
    end
  end
  return total
end
local function forward(code, epoch, s, owner, seq_text, data)
  local o = 1 - s
  local key = P .. 'r:' .. code
  local r = redis.call('HMGET', key, 'ep', 'o' .. s, 'o' .. o, 'n' .. s, 't' .. o, 'b' .. o)
  if r[1] ~= epoch then return -1 end
  if r[2] ~= owner then
    if r[2] ~= '' then return -2 end
    -- Marked away while this node still held the seat (it missed heartbeats): it takes it back.
    redis.call('HSET', key, 'o' .. s, owner, 'a' .. s, '')
    if r[3] and r[3] ~= '' then
      redis.call('XADD', inbox(r[3]), 'NOMKSTREAM', 'MAXLEN', '~', 'INBOX_MAX', '*',
                 'e', code .. ':' .. epoch .. ':' .. o, 't', r[3], 'v', 'peer_back', 'x', owner)
    end
  end
  if not r[5] then return -3 end
  local n, seq = tonumber(r[4]), tonumber(seq_text)
  if seq < n then return -1000000000 - n end
  if seq > n then return -2000000000 - n end
  local st = P .. 's:' .. code .. ':' .. epoch .. ':' .. o
  redis.call('XADD', st, '0-' .. string.format('%d', seq + 1), 'd', data)
  if seq == 0 then redis.call('PEXPIRE', st, ttl) end
  -- spec/relay.md section 8.1: at most buffer_frames frames and buffer_bytes bytes per direction.
  local before = tonumber(r[6])
  local bytes = before + #data
  local total = redis.call('INCRBY', P .. 'buf', #data)
  -- Over the cluster's budget (section 13.6) a direction keeps at most a buffer_bytes / 8.
  local cap = max_bytes
  if budget > 0 and total > budget then cap = big end
  local len = redis.call('XLEN', st)
  while len > 0 and (len > max_frames or bytes > cap) do
    local first = redis.call('XRANGE', st, '-', '+', 'COUNT', 1)[1]
    redis.call('XDEL', st, first[1])
    bytes = bytes - #first[2][2]
    len = len - 1
  end
  if bytes - before - #data ~= 0 then total = redis.call('INCRBY', P .. 'buf', bytes - before - #data) end
  redis.call('HINCRBY', P .. 'rb', code, bytes - before)
  redis.call('HSET', key, 'n' .. s, n + 1, 'b' .. o, bytes)
  if bytes > 0 then redis.call('ZADD', dirs, bytes, code .. ':' .. o)
  else redis.call('ZREM', dirs, code .. ':' .. o) end
  if budget > 0 and total > budget then spill(total) end
  if r[3] ~= '' then
    if node(r[3]) == node(owner) then return FWD_LOCAL + n + 1 end
    redis.call('XADD', inbox(r[3]), 'NOMKSTREAM', 'MAXLEN', '~', 'INBOX_MAX', '*',
               'f', code .. ':' .. epoch .. ':' .. o .. ':' .. seq_text, 'd', data)
  end
  return n + 1
end
local out = {}
for i = 8, #ARGV, 6 do
  out[#out + 1] = forward(ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3], ARGV[i + 4], ARGV[i + 5])
end
return out
""".replace("INBOX_MAX", str(INBOX_MAX)).replace("FWD_LOCAL", "1000000000").replace("SPILL", str(SPILL))
FWD_LOST, FWD_REPLACED, FWD_NO_PEER = -1, -2, -3
FWD_DUP, FWD_GAP = -1_000_000_000, -2_000_000_000
FWD_LOCAL = 1_000_000_000   # added to a stored frame's count: deliver it on this node (counts stay below)

# ARGV: P, code, epoch, seat, received: the seat has every frame below ``received``.
ACK = """
local code, epoch, s, received = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local r = redis.call('HMGET', P .. 'r:' .. code, 'ep', 'b' .. s)
if r[1] ~= epoch then return 0 end
trim(code, epoch, s, received, tonumber(r[2]))
return 1
"""

# ARGV: P, token id -> code, seat, epoch, token
LOOKUP = """
local found = redis.call('GET', P .. 't:' .. ARGV[2])
if not found then return false end
local code, seat = string.sub(found, 1, -2), string.sub(found, -1)
local r = redis.call('HMGET', P .. 'r:' .. code, 'ep', 't' .. seat)
if not r[1] or not r[2] then return false end
return {code, seat, r[1], r[2]}
"""

# ARGV: P, code, seat, epoch, token, owner, received
TAKE = """
local code, s, epoch, token = ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local owner, received = ARGV[6], tonumber(ARGV[7])
local o = 1 - s
local key = P .. 'r:' .. code
local r = redis.call('HMGET', key, 'ep', 't' .. s, 'o' .. s, 'o' .. o, 'n' .. s, 'n' .. o, 'meta', 't' .. o,
                    'b' .. s)
if r[1] ~= epoch or r[2] ~= token then return {'unknown'} end
local sent = tonumber(r[6])
if received > sent then return {'bad'} end
local first = redis.call('XRANGE', stream(code, epoch, s), '-', '+', 'COUNT', 1)[1]
local first_seq = sent
if first then first_seq = tonumber(string.match(first[1], '-(%d+)$')) - 1 end
if received < first_seq then
  close_room(code, 'resume_failed', '')
  return {'gap'}
end
trim(code, epoch, s, received, tonumber(r[9]))
redis.call('HSET', key, 'o' .. s, owner, 'a' .. s, '', 'act', now_ms())
if s == 0 and not r[8] then
  -- The host is back in its open room: the lobby lists it again.
  local lc = redis.call('HMGET', key, 'lk', 'cr')
  if lc[1] and lc[1] ~= '' then redis.call('ZADD', lc[1], lc[2], code) end
end
local old = r[3]
if old ~= '' and old ~= owner then notice(old, code, epoch, s, 'replaced', owner) end
local presence = 'none'
if r[8] then
  if alive(r[4]) then presence = 'present' else presence = 'away' end
end
return {'ok', r[5], sent, presence, r[7], r[4], old}
"""

# ARGV: P, code, epoch, seat, what, extra: tell the holder of ``seat`` (peer_back after a resume).
NOTIFY = """
local code, epoch, s = ARGV[2], ARGV[3], ARGV[4]
local r = redis.call('HMGET', P .. 'r:' .. code, 'ep', 'o' .. s)
if r[1] ~= epoch or not r[2] or r[2] == '' then return 0 end
notice(r[2], code, epoch, s, ARGV[5], ARGV[6])
return 1
"""

# ARGV: P, code, epoch, seat, owner: the owner's connection dropped; the seat is away now.
AWAY = """
local code, epoch, s, owner = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local key = P .. 'r:' .. code
local r = redis.call('HMGET', key, 'ep', 'o' .. s, 'o' .. (1 - s), 'lk')
if r[1] ~= epoch or r[2] ~= owner then return 0 end
redis.call('HSET', key, 'o' .. s, '', 'a' .. s, now_ms())
-- A lobby lists a room only while its host is connected.
if s == 0 and r[4] and r[4] ~= '' then redis.call('ZREM', r[4], code) end
if r[3] then notice(r[3], code, epoch, 1 - s, 'peer_away', '') end
return 1
"""

# ARGV: P, code, epoch, seat, grace ms, dead owner (or ''): end the grace of an away seat.
# Returns 'present', 'away' (with the ms left), 'closed' or 'gone'.
EXPIRE_AWAY = """
local code, epoch, s, grace, dead = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
local key = P .. 'r:' .. code
local r = redis.call('HMGET', key, 'ep', 'o' .. s, 'a' .. s, 'o' .. (1 - s), 't' .. s)
if r[1] ~= epoch or not r[5] then return {'gone'} end
local now = now_ms()
local owner = r[2]
if owner ~= '' then
  if owner ~= dead or alive(owner) then return {'present'} end
  -- The owner's node stopped its heartbeat: the seat is away from now on.
  redis.call('HSET', key, 'o' .. s, '', 'a' .. s, now)
  local lk = redis.call('HGET', key, 'lk')
  if s == 0 and lk and lk ~= '' then redis.call('ZREM', lk, code) end
  notice(r[4], code, epoch, 1 - s, 'peer_away', '')
  return {'away', grace}
end
local since = tonumber(r[3]) or now
if now - since >= grace then
  close_room(code, 'timeout', '')
  return {'closed'}
end
return {'away', grace - (now - since)}
"""

# ARGV: P, code, epoch, reason, except owner
CLOSE = """
local r = redis.call('HGET', P .. 'r:' .. ARGV[2], 'ep')
if r ~= ARGV[3] then return 0 end
return close_room(ARGV[2], ARGV[4], ARGV[5])
"""

# ARGV: P, code, epoch, host owner, new epoch
REJECT = """
local code, epoch, owner, fresh = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local key = P .. 'r:' .. code
local r = redis.call('HMGET', key, 'ep', 'o0', 't1', 'o1', 'k1', 'lk', 'cr')
if r[1] ~= epoch then return lost(code, epoch) end
if r[2] ~= owner then return {'replaced'} end
if not r[3] then return {'no_peer'} end
redis.call('DEL', P .. 't:' .. r[5], stream(code, epoch, 0), stream(code, epoch, 1))
release(code)
redis.call('HDEL', key, 't1', 'k1', 'o1', 'a1')
redis.call('HSET', key, 'ep', fresh, 'n0', 0, 'n1', 0, 'b0', 0, 'b1', 0, 'act', now_ms())
if r[6] and r[6] ~= '' then redis.call('ZADD', r[6], r[7], code) end
if r[4] ~= '' then notice(r[4], code, epoch, 1, 'rejected', '') end
return {'ok'}
"""

# ARGV: P, how many, lobby key, most examined -> now, then code, meta, created, listing ('' for none)
# for each listed room (newest first). The key holds only listed rooms (public, open, host connected:
# the scripts that change that keep it), so a call examines at most ``most examined`` entries,
# removing stale ones.
LOBBY = """
local want, key, most = tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local now = now_ms()
local out = {now}
local found = 0
for _, code in ipairs(redis.call('ZREVRANGE', key, 0, most - 1)) do
  if found >= want then break end
  local r = redis.call('HMGET', P .. 'r:' .. code, 'meta', 'cr', 'o0', 't1', 'lk', 'li')
  if not r[2] or r[4] or r[5] ~= key then
    redis.call('ZREM', key, code)
  elseif alive(r[3]) then
    found = found + 1
    table.insert(out, code)
    table.insert(out, r[1])
    table.insert(out, r[2])
    table.insert(out, r[6] or '')
  end
end
return out
"""

# ARGV: P, code, epoch, ttl ms, active ('1' if a member spoke since the last refresh)
REFRESH = """
local code, epoch, ttl = ARGV[2], ARGV[3], tonumber(ARGV[4])
local key = P .. 'r:' .. code
local r = redis.call('HMGET', key, 'ep', 'k0', 'k1', 'src')
if r[1] ~= epoch then return 0 end
local now = now_ms()
redis.call('PEXPIRE', key, ttl)
if r[4] then
  redis.call('ZADD', P .. 'src:' .. r[4], 'XX', now + ttl, code)
  redis.call('PEXPIRE', P .. 'src:' .. r[4], ttl)
end
for i = 2, 3 do if r[i] then redis.call('PEXPIRE', P .. 't:' .. r[i], ttl) end end
redis.call('PEXPIRE', stream(code, epoch, 0), ttl)
redis.call('PEXPIRE', stream(code, epoch, 1), ttl)
redis.call('ZADD', P .. 'rooms', 'XX', now + ttl, code)
if ARGV[5] == '1' then redis.call('HSET', key, 'act', now) end
return 1
"""

# ARGV: P, code, epoch, idle ms: close the room if nobody in it spoke for that long.
IDLE = """
local code, epoch, idle = ARGV[2], ARGV[3], tonumber(ARGV[4])
local r = redis.call('HMGET', P .. 'r:' .. code, 'ep', 'act')
if r[1] ~= epoch then return 0 end
if now_ms() - tonumber(r[2]) < idle then return 0 end
return close_room(code, 'room_expired', '')
"""

# ARGV: P, code, epoch, seat -> the room as this node's member of ``seat`` must find it after an outage
CHECK = """
local code, epoch, s = ARGV[2], ARGV[3], tonumber(ARGV[4])
local o = 1 - s
local r = redis.call('HMGET', P .. 'r:' .. code, 'ep', 'o' .. s, 'n' .. s, 'n' .. o, 't' .. o, 'o' .. o)
if r[1] ~= epoch then return lost(code, epoch) end
local paired = '0'
if r[5] then paired = '1' end
return {'ok', r[2], r[3], r[4], paired, r[6] or ''}
"""

# ARGV: P, code, epoch, seat, owner: a node that still holds a seat marked away takes it back.
RECLAIM = """
local code, epoch, s, owner = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local key = P .. 'r:' .. code
local r = redis.call('HMGET', key, 'ep', 'o' .. s, 'o' .. (1 - s), 'lk', 'cr', 't1')
if r[1] ~= epoch or r[2] ~= '' then return 0 end
redis.call('HSET', key, 'o' .. s, owner, 'a' .. s, '')
if s == 0 and not r[6] and r[4] and r[4] ~= '' then redis.call('ZADD', r[4], r[5], code) end
if r[3] then notice(r[3], code, epoch, 1 - s, 'peer_back', owner) end
return 1
"""

SCRIPTS: dict[str, str] = {
    "create": CREATE, "join": JOIN, "forward": FORWARD, "ack": ACK, "lookup": LOOKUP, "take": TAKE,
    "notify": NOTIFY, "away": AWAY, "expire_away": EXPIRE_AWAY, "close": CLOSE, "reject": REJECT,
    "lobby": LOBBY, "refresh": REFRESH, "idle": IDLE, "check": CHECK, "reclaim": RECLAIM,
}


def script_sources() -> dict[str, str]:
    """Each script with the shared prelude in front (FORWARD stands alone)."""
    return {name: body if name == "forward" else PRELUDE + body for name, body in SCRIPTS.items()}
