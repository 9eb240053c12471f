package zookeeper

import (
	_ "embed"
	"strings"
	"testing/fstest"

	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// What the code view shows of the ZooKeeper lessons, as compiled in: the
// recipe the clients run (this package's lock.go: go-zookeeper's Lock
// with the fencing token in view and protection a choice), and beside it
// go-zookeeper's own lock.go, copied from the module this program is
// built with (.go.txt, so that it is not built twice);
// TestTheCodeViewShowsTheRecipeAsCompiled holds both to their sources.
var (
	//go:embed lock.go
	recipeSource []byte
	//go:embed source/lock.go.txt
	zkLockSource []byte
)

// The files' names in the code view (/source/…): the recipe under
// zookeeper/, the library's under its own directory.
const (
	recipeFile = "zookeeper/lock.go"
	zkDir      = "zk"
	zkLockFile = zkDir + "/lock.go"
)

// Code is what the code view shows of the ZooKeeper lessons: the recipe
// the clients run, where their lock code starts, and go-zookeeper's Lock.
func (s *Service) Code() live.Code {
	files := fstest.MapFS{
		recipeFile: &fstest.MapFile{Data: recipeSource, Mode: 0o444},
		zkLockFile: &fstest.MapFile{Data: zkLockSource, Mode: 0o444},
	}
	version := strings.TrimSuffix(strings.Fields(Library)[1], ",")
	return live.Code{Files: files, File: recipeFile, Dir: zkDir,
		Module: "github.com/go-zookeeper/zk", Version: version, License: "BSD-3-Clause",
		URL: "https://github.com/go-zookeeper/zk/blob/" + version + "/lock.go"}
}

var _ live.Coded = (*Service)(nil)

// createSite is the recipe's create of its lock node (Mutex.create): the
// line a create whose reply is lost was sent from.
var createSite = siteOf(recipeSource, recipeFile, "m.c.Create(name,", "(*Mutex).create")

// siteOf is the line of body (file) that holds call, in function fn.
func siteOf(body []byte, file, call, fn string) sim.Site {
	for i, line := range strings.Split(string(body), "\n") {
		if strings.Contains(line, call) {
			return sim.Site{File: file, Line: i + 1, Func: fn}
		}
	}
	panic("zookeeper: " + file + " has no " + call)
}
