package realredis_test

import (
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
)

// Servers is what the lessons place runs on.
var _ lesson.Servers = (*realredis.Servers)(nil)
