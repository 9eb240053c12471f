module github.com/go-redsync/redsync/v4

go 1.26.0

require (
	github.com/redis/go-redis/v9 v9.23.0
	github.com/stvp/tempredis v0.0.0-20181119212430-b82af8480203
	golang.org/x/sync v0.24.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/gomodule/redigo v1.9.3 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace github.com/stvp/tempredis => github.com/hjr265/tempredis v0.0.0-20231015061547-ad8aa5a343a2

retract v4.14.0
