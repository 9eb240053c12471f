package redislock

// This file is not part of upstream redislock: see PATCH.md.

import "embed"

// Source is this module's licence and Go source (tests included), as
// compiled into the program: a simulator's code view shows it.
//
//go:embed LICENSE *.go
var Source embed.FS
