-- Seed 000 ⑥: renew the lock only while it is still ours.
-- KEYS[1] lock, ARGV[1] owner, ARGV[2] expire in seconds. 1: renewed, 0: gone.
if(redis.call('hexists', KEYS[1], ARGV[1]) == 1) then redis.call('expire', KEYS[1], ARGV[2]); return 1; else return 0; end
