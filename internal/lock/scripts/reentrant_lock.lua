-- Seed 000 ⑤: take the lock if it is free or already ours, counting the holds.
-- KEYS[1] lock, ARGV[1] owner, ARGV[2] expire in seconds. 1: held, 0: busy.
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[1]) == 1
then
	redis.call('hincrby', KEYS[1], ARGV[1], 1)
	redis.call('expire', KEYS[1], ARGV[2])
	return 1
else
	return 0
end
