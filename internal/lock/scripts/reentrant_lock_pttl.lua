-- Seed 002 (after Redisson): KEYS[1] lock, ARGV[1] ttl in ms, ARGV[2] owner.
-- -1: held (new or re-entered); otherwise the lock's remaining PTTL.
if (redis.call('exists', KEYS[1]) == 0) then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return -1;
end;
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return -1;
end;
return redis.call('pttl', KEYS[1]);
