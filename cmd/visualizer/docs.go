package main

import (
	"io"
	"os"
	"strings"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// cmdDocs writes docs/lessons.md (lesson.LessonsDoc of the built-in
// catalog, then the etcd and ZooKeeper lessons of their packages' tables)
// to stdout, or to the file --out names. go generate
// ./internal/lesson runs it; a test fails when the file in the repository
// is not what it writes.
func cmdDocs(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("docs", stderr)
	out := fs.String("out", "", "write to this file instead of stdout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badUsage("docs takes no arguments, got %q", fs.Arg(0))
	}
	f, err := loadFile("")
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(lesson.LessonsDoc(f))
	liveDoc(&b, liveLessons())
	doc := b.String()
	if *out == "" {
		_, err := io.WriteString(stdout, doc)
		return err
	}
	return os.WriteFile(*out, []byte(doc), 0o644)
}

// liveLessons are the etcd and ZooKeeper lessons, from their packages'
// lesson tables, for docs/lessons.md.
func liveLessons() []liveSection {
	e := liveSection{Algorithm: etcd.AlgorithmID, Service: "etcd's concurrency.Mutex", Library: etcd.Library,
		Server: "a real etcd embedded in the process by default (nothing to install), or --etcd URL"}
	var stops []string
	for _, l := range etcd.Lessons {
		e.Lessons = append(e.Lessons, liveLesson{ID: l.ID, Title: l.Title, Expect: l.Expect})
		if l.StopsServer() {
			stops = append(stops, l.ID)
		}
	}
	if len(stops) > 0 {
		// the embedded server is in this process, an external one is not ours
		verb, names := "which stops the server and runs", stops[0]
		if n := len(stops); n > 1 {
			verb, names = "which stop or kill the server and run", strings.Join(stops[:n-1], ", ")+" and "+stops[n-1]
		}
		e.Server += " (except " + names + ", " + verb + " only on an etcd process Lockstep starts from Debian's etcd-server: " + etcd.InstallCommand() + ")"
	}
	z := liveSection{Algorithm: zookeeper.AlgorithmID, Service: "ZooKeeper's lock recipe", Library: zookeeper.Library,
		Server: "a real ZooKeeper, a JVM Lockstep starts from Debian's libzookeeper-java (needs Java: " + zookeeper.InstallCommand() + "), or --zookeeper=HOST:PORT"}
	var pauses []string
	for _, l := range zookeeper.Lessons {
		z.Lessons = append(z.Lessons, liveLesson{ID: l.ID, Title: l.Title, Expect: l.Expect})
		if l.ServerPause > 0 {
			pauses = append(pauses, l.ID)
		}
	}
	if len(pauses) > 0 {
		// an external server cannot be stopped from here
		z.Server += " (except " + strings.Join(pauses, ", ") + ", which stops the server and runs only on the JVM Lockstep starts)"
	}
	return []liveSection{e, z}
}
