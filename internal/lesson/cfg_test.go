package lesson

import "github.com/lockstep/lockstep/internal/embedded"

// cfg is the Config of a run on embedded Redis with a seed.
func cfg(seed int64) Config { return Config{Seed: seed, Servers: embedded.Servers{}} }
