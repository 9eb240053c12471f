package server

import (
	"fmt"
	"io/fs"
	"regexp"
	"testing"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/zookeeper"
	"github.com/lockstep/lockstep/web"
)

// The page speaks the server's protocol version: socket.js's PROTOCOL is
// ProtocolVersion (bump both together; a page that meets a welcome of
// another version asks to be reloaded).
func TestPageSpeaksTheProtocolVersion(t *testing.T) {
	static, _ := web.Embedded()
	src, err := fs.ReadFile(static, "socket.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`export const PROTOCOL = (\d+);`).FindSubmatch(src)
	if m == nil {
		t.Fatal("socket.js declares no PROTOCOL")
	}
	if got := string(m[1]); got != fmt.Sprint(ProtocolVersion) {
		t.Errorf("socket.js speaks protocol %s, the server %d", got, ProtocolVersion)
	}
}

// The welcome message declares every fault kind of sim.Actions, with the
// menu's among them (their labels in the catalogue are held by
// TestAddingAFaultKindFollowsTheChecklist), and on real Redis leaves off
// the kinds only embedded Redis can do.
func TestEveryMenuFaultHasALabel(t *testing.T) {
	rows := faultRows(false)
	if len(rows) != len(sim.FaultKinds) {
		t.Fatalf("the welcome declares %d fault kinds, sim.Actions %d", len(rows), len(sim.FaultKinds))
	}
	menu := 0
	for _, r := range rows {
		if r.Menu {
			menu++
		}
	}
	if menu == 0 {
		t.Error("no fault on the menu")
	}
	for _, r := range faultRows(true) {
		if r.Do == string(sim.FaultFailover) && r.Menu {
			t.Error("on real Redis, the menu should not offer failover (MenuEmbedded)")
		}
	}
}

// A server's stop and resume (the server pause lessons' fault events) and
// an etcd server's kill and restart have their names in both languages
// too.
func TestTheServerPauseHasEventNames(t *testing.T) {
	named := namesTable(t)
	for _, n := range []string{zookeeper.FaultServerPause, zookeeper.FaultServerResume,
		etcd.FaultServerPause, etcd.FaultServerResume, etcd.FaultServerCrash, etcd.FaultServerRestart} {
		if !named(n) {
			t.Errorf("%s has no event name page.name.%s in the catalogue (internal/fact/words)", n, n)
		}
	}
}

// Every mark a client can write has its name in both languages in
// the catalogue (page.name.<mark>): every algorithm's marks with every task, a pool, re-entry and a
// kept lock (scenario.AllMarks, from the MarksOf the scenario checker reads).
func TestEveryMarkHasAName(t *testing.T) {
	named := namesTable(t)
	seen := map[string]bool{}
	for _, m := range scenario.AllMarks() {
		if !named(m) {
			t.Errorf("mark %s has no name page.name.%s in the catalogue (internal/fact/words)", m, m)
		}
		seen[m] = true
	}
	if !seen[sim.MarkRead] || !seen[sim.MarkEnter] {
		t.Errorf("the marks checked %v lack read or enter: the test checks little", seen)
	}
}

// namesTable tells whether the catalogue names n for the page
// (page.name.<n>, web/static/i18n.js name) in every language.
func namesTable(t *testing.T) func(n string) bool {
	t.Helper()
	if _, ok := fact.Said(fact.Languages[0], "page.name.acquired"); !ok {
		t.Fatal("the catalogue has no page.name.acquired: the page's names are not page.name.<n>")
	}
	return func(n string) bool {
		for _, lang := range fact.Languages {
			if s, ok := fact.Said(lang, fact.Msg("page.name."+n)); !ok || s == "" {
				return false
			}
		}
		return true
	}
}
