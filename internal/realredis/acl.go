package realredis

// ACLRules are the rules of the minimal Redis ACL user for Lockstep, built
// up from -@all: only keys under PrefixRoot, only the keyspace channels of
// those keys (where Redis reports their expiry), and only the commands the
// lessons and the backend use. docs/real-redis.md gives the
// whole ACL SETUSER line; the tests run the catalog as this user.
const ACLRules = "resetkeys ~" + PrefixRoot + "* resetchannels &__keyspace@*__:" + PrefixRoot + "* -@all " +
	"+ping +hello +dbsize +subscribe " +
	"+get +getrange +set +setnx +getset +getdel +del +unlink +exists +type " +
	"+expire +pexpire +ttl +pttl +pexpiretime " +
	"+incr +decr +incrby +decrby " +
	"+hget +hset +hdel +hexists +hincrby +hgetall " +
	"+eval +evalsha +script|load +script|exists " +
	"+watch +unwatch +multi +exec +discard +wait"
