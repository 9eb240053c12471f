package report

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A card whose time limit runs out before its cells are searched advises
// nothing from them: every cell stopped is ? (Unsearched) with its words in
// both languages, never ~ "none found", the row's sentence names no
// unsearched fault as one it may be used against, and the card says how
// many cells the limit stopped, and the limit. redislock is the row the
// card got wrong this way ("Use it when any of these faults can happen",
// though its pause, clock-jump, restart and failover cells are ✗).
//
// Two cards: one whose 1ms limit stops every cell, and one stopped (a
// cancel) once its first two cells, contention and the lost reply, are
// done, so that its advice rests on those two alone.
func TestNoAdviceFromUnsearchedCells(t *testing.T) {
	t.Run("limit", func(t *testing.T) {
		card, err := Build(context.Background(), Options{Algorithms: []string{"redislock"}, Limit: time.Millisecond, Workers: 1})
		if err == nil || card == nil {
			t.Fatalf("a card with a 1ms limit ended with %v", err)
		}
		checkUnsearched(t, card, len(Columns))
		if card.Unsearched == nil || !strings.Contains(card.Unsearched.En, "1ms") || !strings.Contains(card.Unsearched.Zh, "1ms") {
			t.Errorf("the card does not state how many cells its limit stopped, and the limit: %+v", card.Unsearched)
		}
	})
	t.Run("two-done", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		card, err := Build(ctx, Options{Algorithms: []string{"redislock"}, Workers: 1,
			Progress: func(_ string, _ *Cell, done, _ int) {
				if done == 2 {
					cancel()
				}
			}})
		if err == nil || card == nil {
			t.Fatalf("a cancelled card ended with %v", err)
		}
		checkUnsearched(t, card, len(Columns)-2)
		// Contention and the lost reply, both searched to their end
		// (redislock's ✓ on the committed card), are all it may vouch for.
		if a := card.Rows[0].Advice.En; !strings.HasPrefix(a, "Use it when a lost reply is all you fear") {
			t.Errorf("the advice is not read from the two finished cells: %q", a)
		}
	})
}

// checkUnsearched holds a card of one row, of which want cells were
// stopped, to saying so and to advising nothing from them.
func checkUnsearched(t *testing.T, card *Card, want int) {
	t.Helper()
	row := card.Rows[0]
	open := 0
	for _, c := range row.Cells {
		if c.Kind == NotFound && c.Stopped {
			t.Errorf("%s: a stopped cell reads as ~ none found: %s", c.Column, c.Text(row).En)
		}
		if c.Kind != Unsearched {
			continue
		}
		open++
		txt := c.Text(row)
		if Symbol(c.Kind) != "?" || !strings.HasPrefix(txt.En, "? not searched to its end") || !strings.HasPrefix(txt.Zh, "? 没有搜索完") ||
			!strings.Contains(txt.En, "--cell redislock/"+c.Column) {
			t.Errorf("%s: an unsearched cell that does not say so in both languages: %q / %q", c.Column, txt.En, txt.Zh)
		}
		if p := phrase[c.Column]; !strings.HasPrefix(row.Advice.En, "No advice:") && (strings.Contains(before(row.Advice.En, "Nothing is said"), p.En) ||
			strings.Contains(before(row.Advice.Zh, "。对"), p.Zh)) {
			t.Errorf("the advice draws on the unsearched %s cell: %q / %q", c.Column, row.Advice.En, row.Advice.Zh)
		}
	}
	if open != want {
		t.Fatalf("%d cells stopped, want %d: %+v", open, want, row.Cells)
	}
	if strings.Contains(row.Advice.En, "Use it when any of these faults can happen") {
		t.Errorf("the advice vouches for every fault though %d cells were not searched: %q", open, row.Advice.En)
	}
	if card.Unsearched == nil || !strings.HasPrefix(card.Unsearched.En, fmt.Sprintf("%d of %d cells", want, len(Columns))) {
		t.Fatalf("the card does not say how many cells were not searched: %+v", card.Unsearched)
	}
	if !strings.Contains(card.Text("en"), card.Unsearched.En) || !strings.Contains(card.Markdown(), card.Unsearched.Zh) {
		t.Errorf("the card's text or markdown leaves out that %d cells were not searched", open)
	}
}

// before is s up to sep (all of s without it).
func before(s, sep string) string {
	b, _, _ := strings.Cut(s, sep)
	return b
}
