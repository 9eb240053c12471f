-- Take the lock and draw a fencing token in one atomic step (row 16).
-- KEYS[1] the lock, KEYS[2] the token counter; ARGV[1] owner, ARGV[2] ttl in ms.
-- Returns the new token, or 0 when the lock is taken.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return redis.call('incr', KEYS[2])
end
return 0
