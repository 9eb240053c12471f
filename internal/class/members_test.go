package class

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A browser holds one membership of a class: a second tab of it cannot
// join under another nickname (and vote twice) while the first is open;
// under the same nickname it is the same student, her answer kept; once
// the first tab is closed, a new nickname takes its place and her answer
// goes with her. Other browsers on the same network are other students.
func TestABrowserHoldsOneMembership(t *testing.T) {
	_, rm, _, _ := openClass(t, roomy)
	tab1 := newDesk("school")
	ann, err := rm.Join(tab1, "Ann", "", "browser-1")
	if err != nil {
		t.Fatal(err)
	}
	q, _ := freeQuestion(Ask{Kind: Free, Text: "Ready?", Choices: []string{"yes", "no"}})
	rm.Ask(q, 0)
	if err := rm.Answer(ann, 1, new(int)); err != nil {
		t.Fatal(err)
	}
	tab2 := newDesk("school")
	_, err = rm.Join(tab2, "Ann again", "", "browser-1")
	refused(t, "another nickname from Ann's open browser", err, "class-one-seat")
	if _, err := rm.Join(newDesk("school"), "Bo", "", "browser-2"); err != nil {
		t.Fatalf("Bo, another browser on the same network: %v", err)
	}
	again, err := rm.Join(tab2, "ann", "", "browser-1")
	if err != nil || again != ann {
		t.Fatalf("Ann's second tab as ann: got %v, %v, want Ann's membership", again, err)
	}
	if !rm.Gone(tab1, ann) || rm.Gone(tab2, ann) {
		t.Fatal("Ann's membership should have moved to her second tab")
	}
	refused(t, "Ann answering again from her second tab", rm.Answer(ann, 1, new(int)), "already-answered")

	tab2.online.Store(false) // her tab is closed
	cy, err := rm.Join(newDesk("school"), "Cy", "", "browser-1")
	if err != nil {
		t.Fatalf("a new nickname after Ann's tab closed: %v", err)
	}
	if !rm.Gone(tab2, ann) || cy.Name() != "Cy" {
		t.Fatal("Cy should have taken Ann's place")
	}
	if c := rm.Look(nil, &Seen{}, true).Counts; c.Members != 2 || c.Answered != 0 {
		t.Fatalf("after Cy took Ann's place: %+v, want 2 members and Ann's answer gone", c)
	}
}

// A nickname is trimmed, one to 24 characters, without control or
// invisible characters, and one per class in any case; a student who
// rejoins with her token is herself, whatever name she sends.
func TestNicknamesAreCleanAndOnePerClass(t *testing.T) {
	_, rm, _, _ := openClass(t, roomy)
	bo, err := rm.Join(newDesk("school"), "  Bo  ", "", "")
	if err != nil || bo.Name() != "Bo" {
		t.Fatalf("'  Bo  ' joined as %v (%v), want Bo", bo, err)
	}
	for _, bad := range []string{"", "   ", strings.Repeat("é", 25), "a\u2028b", "a\x00b", "a\u200bb", "\xff"} {
		_, err := rm.Join(newDesk("school"), bad, "", "")
		refused(t, "the nickname "+strings.ToValidUTF8(bad, "?"), err, "bad-name")
	}
	_, err = rm.Join(newDesk("school"), "BO", "", "")
	refused(t, "BO beside Bo", err, "name-taken")
	back, err := rm.Join(newDesk("home"), "anything", bo.Token(), "")
	if err != nil || back != bo {
		t.Fatalf("Bo rejoining with his token: got %v, %v", back, err)
	}
}

// A class holds MaxClassSize students; one more is refused, while a
// member coming back with her token still gets in.
func TestAFullClassTakesNoMore(t *testing.T) {
	l := roomy
	l.MaxClassSize = 2
	_, rm, _, _ := openClass(t, l)
	ann, _ := rm.Join(newDesk("school"), "Ann", "", "")
	if _, err := rm.Join(newDesk("school"), "Bo", "", ""); err != nil {
		t.Fatal(err)
	}
	_, err := rm.Join(newDesk("school"), "Cy", "", "")
	refused(t, "a third student in a class of two", err, "class-full")
	if _, err := rm.Join(newDesk("school"), "", ann.Token(), ""); err != nil {
		t.Fatalf("Ann rejoining a full class: %v", err)
	}
}

// A student switches between roaming and following SwitchBurst times at
// once, then once every SwitchEvery; the refusal says how many seconds
// to wait.
func TestSwitchingComesInABurstThenSlowly(t *testing.T) {
	var s Switches
	now := time.Unix(1000, 0)
	for i := range SwitchBurst {
		if err := s.Spend(now); err != nil {
			t.Fatalf("switch %d of the burst: %v", i+1, err)
		}
	}
	err := s.Spend(now)
	refused(t, "one switch past the burst", err, "switch-slow-down")
	var e *Error
	if !errors.As(err, &e) || e.Args["seconds"] != 1 {
		secs := any(nil)
		if e != nil {
			secs = e.Args["seconds"]
		}
		t.Fatalf("the refusal says wait %v s, want 1", secs)
	}
	now = now.Add(SwitchEvery)
	if err := s.Spend(now); err != nil {
		t.Fatalf("a switch after waiting %v: %v", SwitchEvery, err)
	}
	refused(t, "the next at once", s.Spend(now), "switch-slow-down")
	now = now.Add(time.Hour)
	for i := range SwitchBurst {
		if err := s.Spend(now); err != nil {
			t.Fatalf("after an hour, switch %d: the allowance refills to the burst only: %v", i+1, err)
		}
	}
	refused(t, "the burst after an hour", s.Spend(now), "switch-slow-down")
}
