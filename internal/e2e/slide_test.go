package e2e

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// svgSlide is what a test reads of an exported slide: its size and its
// texts in document order, each with its font size.
type svgSlide struct {
	w, h  string
	texts []svgText
}

type svgText struct {
	size string
	s    string
}

func readSlide(t *testing.T, b []byte) svgSlide {
	t.Helper()
	var out svgSlide
	dec := xml.NewDecoder(bytes.NewReader(b))
	var cur *svgText
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG does not parse: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			attr := func(n string) string {
				for _, a := range x.Attr {
					if a.Name.Local == n {
						return a.Value
					}
				}
				return ""
			}
			if x.Name.Local == "svg" && out.w == "" {
				out.w, out.h = attr("width"), attr("height")
			}
			if x.Name.Local == "text" {
				out.texts = append(out.texts, svgText{size: attr("font-size")})
				cur = &out.texts[len(out.texts)-1]
			}
		case xml.CharData:
			if cur != nil {
				cur.s += string(x)
			}
		case xml.EndElement:
			if x.Name.Local == "text" {
				cur = nil
			}
		}
	}
	return out
}

// caption is the slide's caption: its first texts at the caption's size.
func (s svgSlide) caption() string {
	var b strings.Builder
	for _, t := range s.texts {
		if t.size != "22" {
			break
		}
		b.WriteString(t.s)
	}
	return b.String()
}

// seqs are the events whose rows the slide draws (their "#N" labels).
func (s svgSlide) seqs() []int {
	var out []int
	re := regexp.MustCompile(`^#(\d+)$`)
	for _, t := range s.texts {
		if m := re.FindStringSubmatch(t.s); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
	}
	return out
}

// TestBrowserSlides exports slides (16:9) of the timeline: the rows in
// view, and a chosen range of events, as SVG (1280×720) and PNG
// (1920×1080). A slide draws exactly those rows, and its caption, which
// names them, is whole however long (a long title in 中文 with the
// verdict wraps over lines). A range too long to be read on one slide
// keeps the rows that can be, and the caption says which.
func TestBrowserSlides(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := tab(t, startBrowser(t), false) // downloads go to the default browser context's folder
	probs := watch(t, ctx)
	t.Cleanup(func() {
		for _, p := range probs.take() {
			t.Errorf("page problem: %s", p)
		}
	})
	open(t, ctx, url)
	dir := artifacts(t)
	down := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: down}); err != nil {
		t.Fatal(err)
	}
	export := func(t *testing.T, testid, suffix string) []byte {
		t.Helper()
		for _, n := range must(filepath.Glob(filepath.Join(down, "*"))) {
			_ = os.Remove(n)
		}
		click(t, ctx, testid)
		return downloaded(t, down, suffix)
	}
	rowSeqs := func(a, b int) []int {
		return eval[[]int](t, ctx, fmt.Sprintf(`lockstep.state.model.rows.map(e => e.seq).filter(s => s >= %d && s <= %d)`, a, b))
	}

	load(t, ctx, "redlock-split-vote")
	click(t, ctx, "end")
	waitFor(t, ctx, "the end", `lockstep.state.snap.ended && lockstep.state.model.verdicts.length > 0`)
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
	// Scroll to the middle of the log.
	do(t, ctx, "scroll", chromedp.Evaluate[chromedp.Void](`lockstep.timeline.scrollToRow(Math.floor(lockstep.state.model.rows.length / 2))`))
	waitFor(t, ctx, "the middle", `!lockstep.timeline.follow && lockstep.timeline.rowsInView().r1 < lockstep.state.model.rows.length - 5`)
	view := eval[[]int](t, ctx, `(v => [lockstep.state.model.rows[v.r0].seq, lockstep.state.model.rows[v.r1].seq])(lockstep.timeline.rowsInView())`)
	title := eval[string](t, ctx, `lockstep.state.snap.title.zh`)
	step := eval[int](t, ctx, `lockstep.state.snap.step`)
	seed := eval[int](t, ctx, `lockstep.state.snap.seed`)

	t.Run("rows-in-view", func(t *testing.T) {
		sl := readSlide(t, export(t, "export-svg", ".svg"))
		if sl.w != "1280" || sl.h != "720" {
			t.Errorf("the SVG slide is %sx%s, want 1280x720", sl.w, sl.h)
		}
		if got, want := sl.seqs(), rowSeqs(view[0], view[1]); !slices.Equal(got, want) {
			t.Errorf("the slide of the rows in view draws rows %v, want %v", got, want)
		}
		caption := strings.ReplaceAll(sl.caption(), " ", "")
		for _, want := range []string{title, fmt.Sprintf("种子%d", seed), fmt.Sprintf("第%d步", step), "安全（safe）", fmt.Sprintf("#%d–#%d", view[0], view[1])} {
			if !strings.Contains(caption, strings.ReplaceAll(want, " ", "")) {
				t.Errorf("the caption %q lacks %q", sl.caption(), want)
			}
		}
		img, err := png.Decode(bytes.NewReader(export(t, "export-png", ".png")))
		if err != nil {
			t.Fatalf("the PNG slide does not decode: %v", err)
		}
		if b := img.Bounds(); b.Dx() != 1920 || b.Dy() != 1080 {
			t.Errorf("the PNG slide is %v, want 1920x1080", b)
		}
		_ = os.WriteFile(filepath.Join(dir, "slide-rows-in-view.png"), must(os.ReadFile(must(filepath.Glob(filepath.Join(down, "*.png")))[0])), 0o644)
	})

	t.Run("a-range", func(t *testing.T) {
		choose(t, ctx, "export-rows", "range")
		waitFor(t, ctx, "the range prefilled", `!document.querySelector('[data-testid=export-from]').closest('[hidden]') && !!document.querySelector('[data-testid=export-from]').value`)
		choose(t, ctx, "export-from", "12")
		choose(t, ctx, "export-to", "40")
		sl := readSlide(t, export(t, "export-svg", ".svg"))
		if got, want := sl.seqs(), rowSeqs(12, 40); !slices.Equal(got, want) {
			t.Errorf("the slide of #12–#40 draws rows %v, want %v", got, want)
		}
		names := must(filepath.Glob(filepath.Join(down, "*.svg")))
		if len(names) != 1 || !strings.HasSuffix(names[0], "-rows12-40.svg") {
			t.Errorf("the slide's file name: want …-rows12-40.svg, got %v", names)
		}
	})

	t.Run("too-many-rows", func(t *testing.T) {
		choose(t, ctx, "export-from", "1")
		choose(t, ctx, "export-to", "100000")
		sl := readSlide(t, export(t, "export-svg", ".svg"))
		got := sl.seqs()
		if len(got) < 20 || got[0] != 1 || len(got) >= len(rowSeqs(1, 100000)) {
			t.Fatalf("a range of the whole log: want the first rows (at least 20, not all), got %d rows from %v", len(got), got[:min(len(got), 3)])
		}
		if caption, want := sl.caption(), fmt.Sprintf("#1–#%d", got[len(got)-1]); !strings.Contains(caption, want) {
			t.Errorf("the caption %q does not say the rows drawn, %s", caption, want)
		}
		choose(t, ctx, "export-rows", "view")
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
