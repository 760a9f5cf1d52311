// The Lua scripts the Redis presence store runs (each one atomic) and their typed commands.

// KEYS: holders count (hash), online (set), this instance's holds (set). ARGV: user id.
export const HOLD_SCRIPT = `
if redis.call('SADD', KEYS[3], ARGV[1]) == 0 then return 0 end
local holders = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if holders == 1 then redis.call('SADD', KEYS[2], ARGV[1]) return 1 end
return 0
`;
export const RELEASE_SCRIPT = `
if redis.call('SREM', KEYS[3], ARGV[1]) == 0 then return 0 end
local holders = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if holders <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return 1
end
return 0
`;

// Hosted events carry the hosted service's time: one older than the user's last one is dropped
// (a webhook retried or delivered late must not undo a newer one).
// KEYS: holders, online, the hosted holds (set), the hosted releases (sorted set), the last event
// times (hash). ARGV: user id, event time (ms).
export const HOLD_HOSTED_SCRIPT = `
local last = tonumber(redis.call('HGET', KEYS[5], ARGV[1]) or '0')
if tonumber(ARGV[2]) < last then return 0 end
redis.call('HSET', KEYS[5], ARGV[1], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[1])
if redis.call('SADD', KEYS[3], ARGV[1]) == 0 then return 0 end
local holders = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if holders == 1 then redis.call('SADD', KEYS[2], ARGV[1]) return 1 end
return 0
`;
// KEYS: the hosted holds, the hosted releases, the last event times. ARGV: user id, event time
// (ms), release moment (ms).
export const LEAVE_HOSTED_SCRIPT = `
local last = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0')
if tonumber(ARGV[2]) < last then return 0 end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1]) end
return 0
`;
// KEYS: holders, online, the hosted holds, the hosted releases. ARGV: now (ms), at most this many.
// Returns how many releases were due and done, then user id, release moment, … for those who
// went offline.
export const RELEASE_DUE_HOSTED_SCRIPT = `
local due = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local gone = { #due / 2 }
for i = 1, #due, 2 do
  local user = due[i]
  redis.call('ZREM', KEYS[4], user)
  if redis.call('SREM', KEYS[3], user) == 1 then
    local holders = redis.call('HINCRBY', KEYS[1], user, -1)
    if holders <= 0 then
      redis.call('HDEL', KEYS[1], user)
      redis.call('SREM', KEYS[2], user)
      table.insert(gone, user)
      table.insert(gone, due[i + 1])
    end
  end
end
return gone
`;
// KEYS: holders, online, the instances (set), the dead instance's holds, its alive key.
// ARGV: its id. Takes the holds of a dead instance (only if it is still dead and still listed:
// one sweeper, and never an instance that came back) and returns who went offline.
export const SWEEP_INSTANCE_SCRIPT = `
if redis.call('EXISTS', KEYS[5]) == 1 then return {} end
if redis.call('SREM', KEYS[3], ARGV[1]) == 0 then return {} end
local gone = {}
for _, user in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  local holders = redis.call('HINCRBY', KEYS[1], user, -1)
  if holders <= 0 then
    redis.call('HDEL', KEYS[1], user)
    redis.call('SREM', KEYS[2], user)
    table.insert(gone, user)
  end
end
redis.call('DEL', KEYS[4])
return gone
`;

export interface PresenceCommands {
  presenceHold(holders: string, online: string, mine: string, userId: number): Promise<number>;
  presenceRelease(holders: string, online: string, mine: string, userId: number): Promise<number>;
  presenceHoldHosted(
    holders: string,
    online: string,
    hosted: string,
    leaving: string,
    lastEvents: string,
    userId: number,
    at: number,
  ): Promise<number>;
  presenceLeaveHosted(
    hosted: string,
    leaving: string,
    lastEvents: string,
    userId: number,
    at: number,
    releaseAt: number,
  ): Promise<number>;
  presenceReleaseDueHosted(
    holders: string,
    online: string,
    hosted: string,
    leaving: string,
    now: number,
    limit: number,
  ): Promise<(string | number)[]>;
  presenceSweepInstance(
    holders: string,
    online: string,
    instances: string,
    holds: string,
    alive: string,
    instanceId: string,
  ): Promise<string[]>;
}
