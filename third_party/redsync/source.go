package redsync

// This file is not part of upstream redsync: see PATCH.md.

import "embed"

// Source is this module's licence and the Go source of the packages a
// go-redis v9 user runs (tests included), as compiled into the program: a
// simulator's code view shows it.
//
//go:embed LICENSE *.go redis/*.go redis/goredis/v9/*.go
var Source embed.FS
