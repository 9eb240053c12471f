package redsync

import (
	"context"
	"os"
	"testing"

	"github.com/go-redsync/redsync/v4/redis"
	goredis_v9 "github.com/go-redsync/redsync/v4/redis/goredis/v9"
	goredislib_v9 "github.com/redis/go-redis/v9"
	"github.com/stvp/tempredis"
)

var servers []*tempredis.Server

type testCase struct {
	poolCount int
	pools     []redis.Pool
}

func makeCases(poolCount int) map[string]*testCase {
	return map[string]*testCase{
		"goredis_v9": {
			poolCount,
			newMockPoolsGoredisV9(poolCount),
		},
	}
}

// Maintain separate blocks of servers for each type of driver
const (
	ServerPools    = 1
	ServerPoolSize = 8
	GoredisV9Block = 0
)

func TestMain(m *testing.M) {
	os.Exit(testRunner(m))
}

func testRunner(m *testing.M) int {
	for range ServerPoolSize * ServerPools {
		// Lockstep: the clients reach the servers by their Unix sockets,
		// so no TCP port (upstream's 51200+i lie in Linux's ephemeral
		// range, where another connection may hold one), and no dump.rdb.
		server, err := tempredis.Start(tempredis.Config{
			"port": "0",
			"save": "",
		})
		if err != nil {
			panic(err)
		}
		defer server.Term()

		servers = append(servers, server)
	}

	return m.Run()
}

func TestRedsync(t *testing.T) {
	ctx := context.Background()
	for k, v := range makeCases(8) {
		t.Run(k, func(t *testing.T) {
			rs := New(v.pools...)

			mutex := rs.NewMutex("test-redsync")
			_ = mutex.Lock()

			assertAcquired(ctx, t, v.pools, mutex)
		})
	}
}

func newMockPoolsGoredisV9(n int) []redis.Pool {
	pools := make([]redis.Pool, n)

	offset := GoredisV9Block * ServerPoolSize

	for i := range n {
		client := goredislib_v9.NewClient(&goredislib_v9.Options{
			Network: "unix",
			Addr:    servers[i+offset].Socket(),
		})
		pools[i] = goredis_v9.NewPool(client)
	}
	return pools
}
