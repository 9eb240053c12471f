package main

import (
	"io"
	"os"

	"github.com/lockstep/lockstep/internal/lesson"
)

// cmdDocs writes docs/lessons.md (lesson.LessonsDoc of the built-in
// catalog) to stdout, or to the file --out names. go generate
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
	doc := lesson.LessonsDoc(f)
	if *out == "" {
		_, err := io.WriteString(stdout, doc)
		return err
	}
	return os.WriteFile(*out, []byte(doc), 0o644)
}
