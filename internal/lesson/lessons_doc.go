package lesson

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
)

//go:generate go run ../../cmd/visualizer docs --out ../../docs/lessons.md

// LessonsDoc writes docs/lessons.md: for each row of the lesson catalog,
// the algorithm, the seed it comes from, the flaw it teaches, and the
// scenarios of f that show it, with their sources and verdicts. The file
// is generated (visualizer docs, run by go generate) so that it cannot
// drift from the code and the catalog; a test of cmd/visualizer fails
// when it is stale.
func LessonsDoc(f *scenario.File) string {
	var b strings.Builder
	b.WriteString(`# The lessons, row by row

Every lock algorithm of the seed documents, the claim each makes or the flaw it teaches, and the
built-in scenarios that show it. Open one in the browser, or print its event log with
` + "`go run ./cmd/visualizer run ID`" + `. Seeds: 000 = reentrant/watchdog/Redlock walk-through (zh),
001 = SETNX + GETSET timestamp lock, 002 = reentrant lock keyed by thread id (zh), 003 = Redis in
Action market and WATCH (zh), 004 = MySQL / Redis / Redisson / Redlock survey (zh).

This file is generated from ` + "`internal/lock`" + ` and ` + "`scenarios.yaml`" + ` by
` + "`go generate ./internal/lesson`" + ` (which runs ` + "`visualizer docs`" + `).
`)
	for _, a := range lock.Algorithms {
		fmt.Fprintf(&b, "\n## %d. `%s` — %s\n\n", a.Row, a.ID, a.Title)
		fmt.Fprintf(&b, "Seed %s. %s.\n\n", a.Seed, upperFirst(a.Flaw))
		b.WriteString("| scenario | what happens | source | verdicts |\n|---|---|---|---|\n")
		n := 0
		for _, sc := range f.Scenarios {
			if !slices.Contains(sc.Catalog, a.Row) {
				continue
			}
			n++
			title := sc.Title.En
			if sc.Title.Zh != "" {
				title += " / " + sc.Title.Zh
			}
			verdicts := "`" + strings.Join(sc.Expect, "`, `") + "`"
			if sc.RealRedis != nil {
				verdicts += " (real Redis: `" + strings.Join(sc.RealRedis.Expect, "`, `") + "`)"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", sc.ID, cell(title), cell(sc.Source), verdicts)
		}
		if n == 0 {
			b.WriteString("| (none yet) | | | |\n")
		}
	}
	return b.String()
}

// cell escapes the pipes of a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
