-- Seed 002: KEYS[1] lock, ARGV[1] owner. -1: not ours, 0: still held, 1: deleted.
if (redis.call('hexists', KEYS[1], ARGV[1]) == 0) then
    return -1;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[1], -1);
if (counter > 0) then
    return 0;
else
    redis.call('del', KEYS[1]);
    return 1;
end;
