-- Seed 000 ⑤: give back one hold; the last one deletes the lock.
-- KEYS[1] lock, ARGV[1] owner. nil: not ours, 1: deleted, 0: still held.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0
then
	return nil
elseif redis.call('hincrby', KEYS[1], ARGV[1], -1) == 0
then
	return redis.call('del', KEYS[1])
else
	return 0
end
