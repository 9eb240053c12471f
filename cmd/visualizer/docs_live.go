package main

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
)

// liveSection is a coordination service's lessons for docs/lessons.md: a
// lock on a live server, run in real time (internal/etcd,
// internal/zookeeper), read from those packages' lesson tables; the
// catalog's part of the file is lesson.LessonsDoc's.
type liveSection struct {
	Algorithm string // the lock's id (visualizer list --algorithms)
	Service   string // "etcd", "ZooKeeper"
	Library   string // the client library whose code runs, with its version and license
	Server    string // the server it runs on by default, and what it needs
	Lessons   []liveLesson
}

// liveLesson is one lesson of a service: its id, title and the verdicts
// its run must end with.
type liveLesson struct {
	ID     string
	Title  fact.Text
	Expect []string
}

// liveDoc writes the section of the lessons on live servers.
func liveDoc(b *strings.Builder, live []liveSection) {
	if len(live) == 0 {
		return
	}
	b.WriteString(`
## On a live server, in real time / 真实服务器，真实时间

The locks engineers move to when they give up on Redis locks, run as their own code against their
real servers: the lease or session is ended by the server's own clock, so these lessons run in real
time and cannot be searched (their report-card rows are samples of real runs: [choosing-a-lock.md](choosing-a-lock.md)).
The same lesson gives the same verdicts, not the same milliseconds. ` + "`go run ./cmd/visualizer run ID`" + `
prints one; ` + "`visualizer test --etcd`" + ` and ` + "`--zookeeper`" + ` run them all.

工程师放弃 Redis 锁之后转向的锁，用它们自己的代码在真实服务器上运行：租约或会话由服务器自己的时钟结束，
所以这些课程以真实时间运行，无法搜索（它们在报告卡上的行是真实运行的抽样）。同一节课得出同样的结论，
但毫秒数不同。
`)
	for _, s := range live {
		fmt.Fprintf(b, "\n### `%s` — %s\n\n", s.Algorithm, s.Service)
		fmt.Fprintf(b, "The client library `%s`, on %s.\n\n", s.Library, s.Server)
		b.WriteString("| lesson | what happens | verdicts |\n|---|---|---|\n")
		for _, l := range s.Lessons {
			fmt.Fprintf(b, "| `%s` | %s | `%s` |\n", l.ID, strings.ReplaceAll(l.Title.En+" / "+l.Title.Zh, "|", `\|`), strings.Join(l.Expect, "`, `"))
		}
	}
}
