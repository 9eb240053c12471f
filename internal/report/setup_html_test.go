package report

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/fact"
)

// The HTML export of the card for a setup opens offline: nothing in it
// is fetched (no src, no href but the page's own anchors, no url(), no
// @import, no script), and it carries the facts the Markdown does — the
// setup, every lock and column, each cell's words and replay id, What to
// use instead, in both languages — plus each counterexample as YAML,
// linked from its ✗, and the code of the user's lock beside the
// recommended lock's. The card: your-lock-unconditional-del (a plain DEL
// release, work 1500ms under a 1s lease) beside the watchdog under
// contention (TestSetupCardWorkLongerThanTheLease argues its cells).
func TestSetupCardHTML(t *testing.T) {
	card := setupOf(t, "../../labs/your-lock.yaml", "your-lock-unconditional-del", []string{"watchdog"}, []string{"contention"})
	page, err := card.HTML()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)\ssrc\s*=`), regexp.MustCompile(`(?i)href\s*=\s*"[^#]`), regexp.MustCompile(`(?i)url\(`),
		regexp.MustCompile(`(?i)@import`), regexp.MustCompile(`(?i)<script`), regexp.MustCompile(`(?i)<link`),
		regexp.MustCompile(`(?i)https?://`),
	} {
		if m := bad.FindString(page); m != "" {
			t.Errorf("the page refers outside itself: %q", m)
		}
	}
	for _, a := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `id="`+a[1]+`"`) {
			t.Errorf("the link #%s leads nowhere in the page", a[1])
		}
	}
	want := []string{"Does our lock hold in our setup", "我们的锁成立吗", card.Setup.En, card.Setup.Zh,
		"What to use instead", "改用什么", "plain-del", "watchdog", SetupLegend().En, SetupLegend().Zh,
		"locks/plain-del.yaml", "scenarios:"}
	for _, raw := range []string{`<section id="cx-plain-del-contention"`, `href="#cx-plain-del-contention"`} {
		if !strings.Contains(page, raw) {
			t.Errorf("the page lacks %s: the ✗ links to its counterexample's YAML", raw)
		}
	}
	for _, c := range card.Columns {
		want = append(want, c.Title.En, c.Title.Zh)
	}
	for _, r := range card.Rows {
		want = append(want, r.Advice.En, r.Advice.Zh)
		for _, c := range r.Cells {
			tx := c.Text(r)
			want = append(want, tx.En, tx.Zh)
			if id := replayID(c); id != "" {
				want = append(want, id)
			}
		}
	}
	for _, a := range card.Instead {
		want = append(want, a.Difference.En, a.Difference.Zh)
	}
	if len(card.Code) != 2 || card.Code[0].Algorithm != "plain-del" || card.Code[1].Algorithm != "watchdog" {
		t.Errorf("the code shown: %+v, want the user's plain-del and the watchdog", card.Code)
	}
	for _, c := range card.Code {
		want = append(want, c.File, strings.SplitN(c.Text, "\n", 2)[0])
	}
	// The code is one section: the acquire and release side by side,
	// then each whole file folded, to copy; no second section of code.
	code := regexp.MustCompile(`(?s)<h2 id="code">.*?(<h2 |$)`).FindString(page)
	if n := strings.Count(page, "<h2 id=\"code\""); n != 1 || strings.Contains(page, "<h2 id=\"side-by-side\"") ||
		!strings.Contains(code, `data-part="side-by-side"`) || strings.Index(code, `data-part="side-by-side"`) > strings.Index(code, `<details class="file">`) {
		t.Errorf("the code is not one section, side by side first and then the whole files (%d sections headed code): %.400s", n, code)
	}
	for _, c := range card.Code {
		if !strings.Contains(code, `<details class="file"><summary><code>`+c.File+`</code>`) {
			t.Errorf("%s's whole file %s is not folded in the code's section", c.Algorithm, c.File)
		}
	}
	md := card.Markdown()
	// Side by side: plain-del's own steps (its release a bare DEL) in the
	// column marked yours, the watchdog's Go and Lua in the other.
	if card.Yours == nil || card.Yours.Algorithm != "plain-del" || card.Instead[0].Code == nil || card.Instead[0].Code.Algorithm != "watchdog" {
		t.Fatalf("side by side: yours %+v, recommended %+v: want plain-del beside the watchdog", card.Yours, card.Instead[0].Code)
	}
	sbs := regexp.MustCompile(`(?s)<div class="sbs" data-part="side-by-side"><section data-side="yours">(.*?)</section><section data-side="instead">(.*?)</section></div>`).FindStringSubmatch(page)
	if sbs == nil {
		t.Fatalf("the page sets no two columns side by side")
	}
	for i, c := range []*StepCode{card.Yours, card.Instead[0].Code} {
		for _, sn := range append(c.Acquire, c.Release...) {
			if !strings.Contains(sbs[i+1], htmlEscape(sn.Text)) || !strings.Contains(md, sn.Text) {
				t.Errorf("%s's %s:%d is not in its column and in the Markdown", c.Algorithm, sn.File, sn.Line)
			}
		}
	}
	for _, w := range []string{"DEL $key", "reentrant_unlock.lua", "func (l *Reentrant) Unlock"} {
		if !strings.Contains(page, htmlEscape(w)) {
			t.Errorf("side by side lacks %q", w)
		}
	}
	if strings.Contains(sbs[1], "Reentrant") || strings.Contains(sbs[2], "plain-del") {
		t.Errorf("a column holds the other lock's code")
	}
	for _, w := range want {
		if !strings.Contains(page, htmlEscape(w)) {
			t.Errorf("the page lacks %q", w)
		}
	}
	for _, w := range []string{card.Setup.En, card.Instead[0].Difference.En, "plain-del", replayID(card.Rows[0].Cells[0])} {
		if !strings.Contains(md, w) {
			t.Errorf("the Markdown lacks %q: the two exports should say the same", w)
		}
	}
}

// htmlEscape is s as html/template writes it in text.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(s)
}

// The page's words come from the catalogue as written, but what the user
// named goes into them escaped: a scenario named with markup is shown as
// text in the title and the heading, never as tags.
func TestSetupCardHTMLEscapesTheScenarioInItsWords(t *testing.T) {
	card := &SetupCard{Scenario: `a<b>&'+"`, Setup: fact.Say("report.setup.file-word")}
	page, err := card.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page, "<b>") {
		t.Errorf("the scenario's name is written as markup:\n%s", page)
	}
	const esc = `a&lt;b&gt;&amp;&#39;&#43;&#34;`
	for _, want := range []string{"<title>The card for " + esc + " · " + esc + " 的报告卡</title>",
		"<h1>The card for " + esc + ` <span lang="zh">· ` + esc + " 的报告卡</span></h1>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}
