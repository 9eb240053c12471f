package simtest

import (
	"time"

	"github.com/redis/go-redis/v9"
)

func redisSetNXPX(ttl time.Duration) redis.SetArgs {
	return redis.SetArgs{Mode: "NX", TTL: ttl}
}
