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
	h, intro := fact.Say("cmd.docs.live-heading"), fact.Say("cmd.docs.live-intro")
	fmt.Fprintf(b, "\n## %s / %s\n\n%s\n\n%s\n", h.En, h.Zh, intro.En, intro.Zh)
	for _, s := range live {
		fmt.Fprintf(b, "\n### `%s` — %s\n\n", s.Algorithm, s.Service)
		fmt.Fprintf(b, "The client library `%s`, on %s.\n\n", s.Library, s.Server)
		b.WriteString("| lesson | what happens | verdicts |\n|---|---|---|\n")
		for _, l := range s.Lessons {
			fmt.Fprintf(b, "| `%s` | %s | `%s` |\n", l.ID, strings.ReplaceAll(l.Title.En+" / "+l.Title.Zh, "|", `\|`), strings.Join(l.Expect, "`, `"))
		}
	}
}
