package report

import (
	"bytes"
	"html/template"
	"regexp"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
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
	d := htmlCard{Card: card, W: wordsOf(card), Legend: SetupLegend(), Instead: card.insteadText(), Code: card.Code, Yours: card.Yours}
	if len(card.Instead) > 0 {
		d.Recommended = card.Instead[0].Code
	}
	for _, r := range card.Rows {
		hr := htmlRow{Row: r, Trips: sim.Text{En: r.Trips("en"), Zh: r.Trips("zh")}}
		hr.TripsLine = trusted(fact.Say("report.md.trips", escapeText(hr.Trips)))
		hr.NeedsLine = trusted(fact.Say("report.md.needs", escapeText(sim.Text{En: r.needsText("en"), Zh: r.needsText("zh")})))
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
	W               pageWords
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
// its heading, its code and the words of its two steps.
type sideOf struct {
	Side             string
	Name             htmlText
	Code             *StepCode
	Acquire, Release htmlText
}

type htmlRow struct {
	Row                  *Row
	Trips                sim.Text
	TripsLine, NeedsLine htmlText // the row's sentences, their figures escaped
	Cells                []htmlCell
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
	"side": func(side string, name htmlText, c *StepCode) sideOf {
		return sideOf{Side: side, Name: name, Code: c,
			Acquire: trusted(fact.Say("report.step-acquire")), Release: trusted(fact.Say("report.step-release"))}
	},
}).Parse(setupPageText))

// htmlText is a sentence in both languages as the page writes it: the
// catalogue's words as they are, anything of the user's in them already
// escaped (escapeText).
type htmlText struct{ En, Zh template.HTML }

// trusted is a sentence of the catalogue, filled with escaped arguments,
// as the page writes it.
func trusted(t sim.Text) htmlText {
	return htmlText{En: template.HTML(t.En), Zh: template.HTML(t.Zh)}
}

// textEscaper escapes a string as the page escapes text between tags.
var textEscaper = template.Must(template.New("text").Parse("{{.}}"))

// escapeText is t escaped as the page escapes text between tags, to fill
// a sentence that trusted then writes as it is.
func escapeText(t sim.Text) sim.Text {
	esc := func(s string) string {
		var b strings.Builder
		if err := textEscaper.Execute(&b, s); err != nil {
			panic(err) // a string into a strings.Builder: it cannot fail
		}
		return b.String()
	}
	return sim.Text{En: esc(t.En), Zh: esc(t.Zh)}
}

// pageWords are the page's headings and labels, from the catalogue.
type pageWords struct {
	Title, Question, File, Setup, Verdicts, Lock, Trips, Yours, Instead htmlText
	Code, SideBySide, SideBySideWhat, YoursTitle, RecommendedTitle      htmlText
	Files, Locks, Fault, Found, Counterexamples                         htmlText
}

// wordsOf is the page's words for card: its title names its scenario.
func wordsOf(card *SetupCard) pageWords {
	name := escapeText(sim.Text{En: card.Scenario, Zh: card.Scenario})
	return pageWords{
		Title:            trusted(fact.Say("report.setup.card-for", name)),
		Question:         trusted(fact.Say("report.setup.question")),
		File:             trusted(fact.Say("report.setup.file-word")),
		Setup:            trusted(fact.Say("report.setup.setup-heading")),
		Verdicts:         trusted(fact.Say("report.setup.verdicts-heading")),
		Lock:             trusted(fact.Say("report.md.lock")),
		Trips:            trusted(fact.Say("report.md.round-trips")),
		Yours:            trusted(fact.Say("report.setup.yours-word")),
		Instead:          trusted(fact.Say("report.setup.instead")),
		Code:             trusted(fact.Say("report.setup.code-title")),
		SideBySide:       trusted(fact.Say("report.setup.side-by-side")),
		SideBySideWhat:   trusted(fact.Say("report.setup.side-by-side-what")),
		YoursTitle:       trusted(fact.Say("report.setup.yours-title")),
		RecommendedTitle: trusted(fact.Say("report.setup.recommended-title")),
		Files:            trusted(fact.Say("report.setup.files-heading")),
		Locks:            trusted(fact.Say("report.md.lock-by-lock")),
		Fault:            trusted(fact.Say("report.md.fault")),
		Found:            trusted(fact.Say("report.md.search-found")),
		Counterexamples:  trusted(fact.Say("report.setup.counterexamples-heading")),
	}
}
