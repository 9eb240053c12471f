-- Seed 000 ④ / 004 正确姿势: delete the lock only if it still holds our value.
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
else
    return 0
end
