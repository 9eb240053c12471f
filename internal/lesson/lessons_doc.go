package lesson

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
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

Every lock algorithm of the seed documents, then the two Go libraries engineers import (rows 18
and 19, their own code run as it is), the claim each makes or the flaw it teaches, and the
built-in scenarios that show it; last, the lessons taken from the libraries' issue trackers. Open one in the browser, or print its event log with
` + "`go run ./cmd/visualizer run ID`" + `. Seeds: 000 = reentrant/watchdog/Redlock walk-through (zh),
001 = SETNX + GETSET timestamp lock, 002 = reentrant lock keyed by thread id (zh), 003 = Redis in
Action market and WATCH (zh), 004 = MySQL / Redis / Redisson / Redlock survey (zh).

This file is generated from ` + "`internal/lock`" + ` and ` + "`scenarios.yaml`" + ` by
` + "`go generate ./internal/lesson`" + ` (which runs ` + "`visualizer docs`" + `).
`)
	for _, a := range lock.Algorithms {
		fmt.Fprintf(&b, "\n## %d. `%s` — %s\n\n", a.Row, a.ID, a.Title)
		if l := a.Library; l != nil {
			fmt.Fprintf(&b, "Library [%s](%s) %s (%s), its own code run as it is from `third_party/%s` (what was changed, and why: PATCH.md there). %s.\n\n",
				l.Module, l.URL, l.Version, l.License, l.Dir, upperFirst(a.Flaw))
		} else {
			fmt.Fprintf(&b, "Seed %s. %s.\n\n", a.Seed, upperFirst(a.Flaw))
		}
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
	trackersDoc(&b, f)
	return b.String()
}

// report is where a scenario's source cites a library's users: owner/repo
// followed by issue or pull request numbers (#107, #143) or by README.
var report = regexp.MustCompile(`([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)((?:#\d+)(?:,\s*#\d+)*|\s+README)`)

// trackersDoc writes the section of the lessons taken from the libraries'
// issue trackers: for each library, in order of first appearance, the
// scenarios whose source cites its reports, each report linked.
func trackersDoc(b *strings.Builder, f *scenario.File) {
	type entry struct {
		sc   *scenario.Scenario
		refs []string
	}
	var repos []string
	byRepo := map[string][]entry{}
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		for _, m := range report.FindAllStringSubmatch(sc.Source, -1) {
			repo := m[1]
			var refs []string
			if strings.TrimSpace(m[2]) == "README" {
				refs = append(refs, fmt.Sprintf("[README](https://github.com/%s#readme)", repo))
			}
			for _, n := range regexp.MustCompile(`#(\d+)`).FindAllStringSubmatch(m[2], -1) {
				refs = append(refs, fmt.Sprintf("[#%s](https://github.com/%s/issues/%s)", n[1], repo, n[1]))
			}
			if _, ok := byRepo[repo]; !ok {
				repos = append(repos, repo)
			}
			byRepo[repo] = append(byRepo[repo], entry{sc, refs})
		}
	}
	if len(repos) == 0 {
		return
	}
	heading, intro := fact.Say("lesson.trackers-heading"), fact.Say("lesson.trackers-intro")
	fmt.Fprintf(b, "\n## %s / %s\n\n%s\n\n%s\n", heading.En, heading.Zh, intro.En, intro.Zh)
	for _, repo := range repos {
		fmt.Fprintf(b, "\n### [%s](https://github.com/%s)\n\n", repo, repo)
		b.WriteString("| report | scenario | what happens | verdicts |\n|---|---|---|---|\n")
		for _, e := range byRepo[repo] {
			title := e.sc.Title.En
			if e.sc.Title.Zh != "" {
				title += " / " + e.sc.Title.Zh
			}
			fmt.Fprintf(b, "| %s | `%s` | %s | `%s` |\n", strings.Join(e.refs, ", "), e.sc.ID, cell(title), strings.Join(e.sc.Expect, "`, `"))
		}
	}
}

// cell escapes the pipes of a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
