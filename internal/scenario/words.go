package scenario

// The scenario checker's problems in English and Chinese. A problem is a
// sentence of the catalogue (internal/fact/words, ids "scenario.…") said
// with fact.Say and handed to report.add, validator.at and the like as a
// sim.Text; an argument that is itself words (a shape such as "a list", a
// kind of thing, a duration's problem) is a sim.Text too, said in the
// problem's language. An id the catalogue lacks fails internal/fact's
// tests, not a reader.

import (
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// problem is an error that says a problem in both languages (a bad
// duration, say), for a check that returns errors.
type problem struct{ sim.Text }

func (p problem) Error() string   { return p.En }
func (p problem) Words() sim.Text { return p.Text }

// words is an error's words in both languages: a problem's own, or its
// message as it is.
func words(err error) sim.Text {
	if w, ok := err.(interface{ Words() sim.Text }); ok {
		return w.Words()
	}
	return both(err.Error())
}

// both is words the same in both languages (a name, a list of names).
func both(s string) sim.Text { return sim.Text{En: s, Zh: s} }

// things are the kinds of things problems name ("client", "fault kind"),
// by their English.
var things = byEnglish(
	fact.Say("scenario.thing.scenario"), fact.Say("scenario.thing.client"),
	fact.Say("scenario.thing.node"), fact.Say("scenario.thing.fault"),
	fact.Say("scenario.thing.network"), fact.Say("scenario.thing.narration"),
	fact.Say("scenario.thing.claim"), fact.Say("scenario.thing.storage"),
	fact.Say("scenario.thing.sql"), fact.Say("scenario.thing.explore"),
	fact.Say("scenario.thing.budget"), fact.Say("scenario.thing.text"),
	fact.Say("scenario.thing.verdict"), fact.Say("scenario.thing.algorithm"),
	fact.Say("scenario.thing.event"), fact.Say("scenario.thing.kind"),
	fact.Say("scenario.thing.field"), fact.Say("scenario.thing.parameter"),
	fact.Say("scenario.thing.mark"), fact.Say("scenario.thing.fault-kind"),
	fact.Say("scenario.thing.event-kind"), fact.Say("scenario.thing.value"),
	fact.Say("scenario.thing.key"), fact.Say("scenario.thing.action"),
	fact.Say("scenario.thing.challenge"), fact.Say("scenario.thing.hint"),
	fact.Say("scenario.thing.goal"), fact.Say("scenario.thing.match"),
	fact.Say("scenario.thing.real-redis"), fact.Say("scenario.thing.fault-a-search-can-place"),
	fact.Say("scenario.thing.key-hold"), fact.Say("scenario.thing.run"),
	fact.Say("scenario.thing.lock"), fact.Say("scenario.thing.say"),
	fact.Say("scenario.thing.lost-message"), fact.Say("scenario.thing.error"),
	fact.Say("scenario.thing.event-name"),
)

// byEnglish keys words by their English.
func byEnglish(ts ...sim.Text) map[string]sim.Text {
	m := make(map[string]sim.Text, len(ts))
	for _, t := range ts {
		m[t.En] = t
	}
	return m
}

// thing names a kind of thing ("client", "fault kind") in both languages.
func thing(en string) sim.Text {
	if t, ok := things[en]; ok {
		return t
	}
	return both(en)
}

// aThing is "a client", "an explore" in both languages.
func aThing(en string) sim.Text {
	art := "a "
	if strings.ContainsAny(en[:1], "aeiou") {
		art = "an "
	}
	return sim.Text{En: art + en, Zh: thing(en).Zh}
}

// shapes are the shapes a value can have ("a list", "a number"), by
// their English.
var shapes = byEnglish(
	fact.Say("scenario.shape.list"), fact.Say("scenario.shape.map"), fact.Say("scenario.shape.alias"),
	fact.Say("scenario.shape.nothing"), fact.Say("scenario.shape.string"),
	fact.Say("scenario.shape.true-or-false"), fact.Say("scenario.shape.number"),
	fact.Say("scenario.shape.integer"), fact.Say("scenario.shape.duration"),
)

// describeText says a shape ("a list", "the integer 7") in both languages.
func describeText(en string) sim.Text {
	if t, ok := shapes[en]; ok {
		return t
	}
	if n, ok := strings.CutPrefix(en, "the integer "); ok {
		return fact.Say("scenario.shape.the-integer", n)
	}
	if n, ok := strings.CutPrefix(en, "the number "); ok {
		return fact.Say("scenario.shape.the-number", n)
	}
	return both(en)
}

// yamlProblems are the YAML library's syntax problems, their English the
// beginning of its message as the library words it.
var yamlProblems = []sim.Text{
	fact.Say("scenario.yaml.mapping-values"),
	fact.Say("scenario.yaml.sequence-entries"),
	fact.Say("scenario.yaml.cannot-start-token"),
	fact.Say("scenario.yaml.tab"),
	fact.Say("scenario.yaml.end-of-stream"),
	fact.Say("scenario.yaml.unknown-escape"),
	fact.Say("scenario.yaml.undefined-tag-handle"),
	fact.Say("scenario.yaml.control-characters"),
	fact.Say("scenario.yaml.invalid-leading-utf8"),
	fact.Say("scenario.yaml.incomplete-utf8"),
	fact.Say("scenario.yaml.invalid-trailing-utf8"),
}

// yamlZh says the YAML library's syntax problems in Chinese: its message
// (by its beginning, as the library words it), and the construct it was
// reading.
func yamlZh(msg string) string {
	for _, p := range yamlProblems {
		if strings.HasPrefix(msg, p.En) {
			return p.Zh
		}
	}
	if rest, ok := strings.CutPrefix(msg, "did not find expected "); ok {
		return fact.Say("scenario.yaml.did-not-find", yamlThing(rest)).Zh
	}
	if rest, ok := strings.CutPrefix(msg, "could not find expected "); ok {
		return fact.Say("scenario.yaml.could-not-find", yamlThing(rest)).Zh
	}
	if rest, ok := strings.CutPrefix(msg, "found unexpected "); ok {
		return fact.Say("scenario.yaml.found-unexpected", yamlThing(rest)).Zh
	}
	if rest, ok := strings.CutPrefix(msg, "unknown anchor "); ok {
		return fact.Say("scenario.yaml.unknown-anchor", strings.TrimSuffix(rest, " referenced")).Zh
	}
	return fact.Say("scenario.yaml.syntax", msg).Zh
}

// yamlExpected are the things the library expects or finds that have
// words of their own.
var yamlExpected = byEnglish(fact.Say("scenario.yaml.key"), fact.Say("scenario.yaml.node-content"))

// yamlThing says what the library expected or found ("key", "node
// content", "',' or '}'") in Chinese.
func yamlThing(s string) string {
	if t, ok := yamlExpected[s]; ok {
		return t.Zh
	}
	or := fact.Say("scenario.yaml.or")
	s = strings.ReplaceAll(s, or.En, or.Zh)
	if x, ok := strings.CutSuffix(s, " indicator"); ok {
		return fact.Say("scenario.yaml.indicator", x).Zh
	}
	return s
}

// yamlActs and yamlReading are what the library says it was doing
// ("while parsing a flow mapping"), by their English.
var (
	yamlActs    = byEnglish(fact.Say("scenario.yaml.parsing"), fact.Say("scenario.yaml.scanning"))
	yamlReading = byEnglish(
		fact.Say("scenario.yaml.flow-mapping"), fact.Say("scenario.yaml.block-mapping"),
		fact.Say("scenario.yaml.flow-sequence"), fact.Say("scenario.yaml.block-collection"),
		fact.Say("scenario.yaml.quoted-scalar"), fact.Say("scenario.yaml.plain-scalar"),
		fact.Say("scenario.yaml.simple-key"), fact.Say("scenario.yaml.block-scalar"),
		fact.Say("scenario.yaml.directive"), fact.Say("scenario.yaml.tag"),
		fact.Say("scenario.yaml.anchor"), fact.Say("scenario.yaml.alias"), fact.Say("scenario.yaml.node"),
	)
)

// yamlContextZh says what the library was reading, in Chinese.
func yamlContextZh(ctx string) string {
	verb, what, ok := strings.Cut(ctx, " ")
	if !ok || (verb != "while") {
		return ctx
	}
	act, thing, _ := strings.Cut(what, " ")
	a, okAct := yamlActs[act]
	t, okThing := yamlReading[thing]
	if !okAct || !okThing {
		return ctx
	}
	return fact.Say("scenario.yaml.while", a, t).Zh
}
