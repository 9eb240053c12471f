package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// A live cell says it is a sample of real runs, in its mark and its
// words, never a search's ✓; a stored live row whose tally does not add
// up, or whose cell no run decided, is refused.
func TestLiveRowsReadBack(t *testing.T) {
	js, err := os.ReadFile(filepath.Join("..", "..", "docs", "choosing-a-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	card, err := Decode(js)
	if err != nil {
		t.Fatal(err)
	}
	if len(card.Live) == 0 {
		t.Fatal("the stored card has no live rows: go test ./internal/livecard -run TestLiveRows -update")
	}
	for _, r := range card.Live {
		for _, c := range r.Cells {
			if c.Kind != Broke && c.Kind != Unbroken {
				continue
			}
			text := c.Text(r)
			if !strings.HasSuffix(c.Mark(), Clock) || !strings.Contains(text.En, "real-time runs") || !strings.Contains(text.En, "not a search") ||
				!strings.Contains(text.Zh, "真实时间运行") || !strings.Contains(text.Zh, "不是搜索") {
				t.Errorf("%s/%s: %q %q %q does not say it is a sample of real runs", r.Name(), c.Column, c.Mark(), text.En, text.Zh)
			}
		}
	}
	md := card.Markdown()
	if !strings.Contains(md, "## Live servers, real time") || !strings.Contains(card.Text("zh"), "真实服务器，真实时间") {
		t.Error("the card's Markdown or text leaves out the live rows")
	}
	c := card.Live[0].Cells[0]
	c.Runs++ // a tally that no longer adds up
	bad, err := card.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(bad); err == nil || !strings.Contains(err.Error(), "tally") {
		t.Errorf("a live cell whose tally does not add up read back: %v", err)
	}
	c.Runs--
	c.Kind = Holds // a search's verdict on a live row
	if bad, err = card.JSON(); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(bad); err == nil || !strings.Contains(err.Error(), "no real-time run decides") {
		t.Errorf("a live cell with a search's ✓ read back: %v", err)
	}
}

// The marks of live cells carry their tally.
func TestLiveMarks(t *testing.T) {
	for _, tc := range []struct {
		c    Cell
		want string
	}{
		{Cell{Kind: Broke, Runs: 5, Broken: 4}, "✗ 4/5 ◷"},
		{Cell{Kind: Unbroken, Runs: 20}, "✓ 0/20 ◷"},
		{Cell{Kind: NA, Why: &sim.Text{}}, "n/a"},
	} {
		if got := tc.c.Mark(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.c.Kind, got, tc.want)
		}
	}
}
