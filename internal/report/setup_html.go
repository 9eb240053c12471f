package report

import (
	"bytes"
	"html/template"
	"regexp"
	"strings"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// HTML is the card for a user's setup as one page for a design review,
// in English and Chinese, that opens offline (from file://): its style
// inline, no script, nothing fetched. It says what Markdown says — the
// question, the setup, the grid, what to use instead, each lock's cells
// — and adds each counterexample as YAML, linked from its ✗, and the
// code of the user's locks beside the recommended lock's.
func (card *SetupCard) HTML() (string, error) {
	d := htmlCard{Card: card, Legend: SetupLegend(), Instead: card.insteadText(), Code: card.Code, Yours: card.Yours}
	if len(card.Instead) > 0 {
		d.Recommended = card.Instead[0].Code
	}
	for _, r := range card.Rows {
		hr := htmlRow{Row: r, Trips: sim.Text{En: r.Trips("en"), Zh: r.Trips("zh")},
			Needs: sim.Text{En: r.needsText("en"), Zh: r.needsText("zh")}}
		for i, c := range r.Cells {
			hc := htmlCell{Mark: Symbol(c.Kind), Kind: c.Kind, Verdict: c.Verdict, Text: c.Text(r), Column: card.Columns[i].Title, ID: replayID(c)}
			if c.Counterexample != nil {
				y, err := scenario.Marshal(&scenario.File{Scenarios: []scenario.Scenario{*c.Counterexample}})
				if err != nil {
					return "", err
				}
				hc.Anchor = "cx-" + r.Algorithm + "-" + c.Column
				d.Counterexamples = append(d.Counterexamples, htmlExample{Anchor: hc.Anchor, Lock: r.Algorithm, Column: card.Columns[i].Title,
					Verdict: c.Verdict, Text: hc.Text, ID: c.Counterexample.ID, YAML: string(y)})
			}
			hr.Cells = append(hr.Cells, hc)
		}
		d.Rows = append(d.Rows, hr)
	}
	if card.failures() > 0 {
		h := card.ReplayHow()
		d.Replay = &h
	}
	var b bytes.Buffer
	if err := setupPage.Execute(&b, d); err != nil {
		return "", err
	}
	return b.String(), nil
}

// htmlCard is what the page is made from.
type htmlCard struct {
	Card            *SetupCard
	Legend, Instead sim.Text
	Rows            []htmlRow
	Counterexamples []htmlExample
	Code            []LockCode
	// Yours and Recommended are set side by side: the user's acquire and
	// release, and the first alternative's.
	Yours, Recommended *StepCode
	Replay             *sim.Text
}

// sideOf is one column of the side by side: its side (yours, instead),
// its heading and its code.
type sideOf struct {
	Side, En, Zh string
	Code         *StepCode
}

type htmlRow struct {
	Row          *Row
	Trips, Needs sim.Text
	Cells        []htmlCell
}

type htmlCell struct {
	Mark, Kind, Verdict, Anchor, ID string
	Text, Column                    sim.Text
}

type htmlExample struct {
	Anchor, Lock, Verdict, ID, YAML string
	Column, Text                    sim.Text
}

// lines splits What to use instead into its heading and its items, each
// without its number (the page's list numbers them).
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		out = append(out, numbered.ReplaceAllString(strings.TrimSpace(l), ""))
	}
	return out
}

var numbered = regexp.MustCompile(`^\d+\. `)

var setupPage = template.Must(template.New("setup").Funcs(template.FuncMap{
	"first": func(s string) string { return lines(s)[0] },
	"rest":  func(s string) []string { return lines(s)[1:] },
	"side": func(side, en, zh string, c *StepCode) sideOf {
		return sideOf{Side: side, En: en, Zh: zh, Code: c}
	},
}).Parse(setupPageText))
