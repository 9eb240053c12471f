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

// yamlZh says the YAML library's syntax problems in Chinese: its message
// (by its beginning, as the library words it), and the construct it was
// reading.
func yamlZh(msg string) string {
	for _, p := range []struct{ en, zh string }{
		{"mapping values are not allowed in this context", "这里不允许出现映射的值（多了一个冒号？）"},
		{"block sequence entries are not allowed in this context", "这里不允许出现列表条目"},
		{"found character that cannot start any token", "发现了不能作为任何记号开头的字符（例如用 Tab 缩进）"},
		{"found a tab character", "发现了 Tab 字符（YAML 的缩进只能用空格）"},
		{"found unexpected end of stream", "文件意外结束"},
		{"found unknown escape character", "发现了未知的转义字符"},
		{"found undefined tag handle", "发现了未定义的标签句柄"},
		{"control characters are not allowed", "不允许出现控制字符"},
		{"invalid leading UTF-8 octet", "UTF-8 编码无效"},
		{"incomplete UTF-8 octet sequence", "UTF-8 编码无效"},
		{"invalid trailing UTF-8 octet", "UTF-8 编码无效"},
	} {
		if strings.HasPrefix(msg, p.en) {
			return p.zh
		}
	}
	if rest, ok := strings.CutPrefix(msg, "did not find expected "); ok {
		return "没有找到预期的 " + yamlThing(rest)
	}
	if rest, ok := strings.CutPrefix(msg, "could not find expected "); ok {
		return "没有找到预期的 " + yamlThing(rest)
	}
	if rest, ok := strings.CutPrefix(msg, "found unexpected "); ok {
		return "发现了意外的 " + yamlThing(rest)
	}
	if rest, ok := strings.CutPrefix(msg, "unknown anchor "); ok {
		return "引用了未知的锚点 " + strings.TrimSuffix(rest, " referenced")
	}
	return "YAML 语法错误：" + msg
}

// yamlThing says what the library expected or found ("key", "node
// content", "',' or '}'") in Chinese.
func yamlThing(s string) string {
	switch s {
	case "key":
		return "键"
	case "node content":
		return "节点内容"
	}
	s = strings.ReplaceAll(s, " or ", " 或 ")
	return strings.TrimSuffix(s, " indicator") + map[bool]string{true: " 标记", false: ""}[strings.HasSuffix(s, " indicator")]
}

// yamlContextZh says what the library was reading, in Chinese.
func yamlContextZh(ctx string) string {
	verb, what, ok := strings.Cut(ctx, " ")
	if !ok || (verb != "while") {
		return ctx
	}
	act, thing, _ := strings.Cut(what, " ")
	zhAct := map[string]string{"parsing": "解析", "scanning": "扫描"}[act]
	zhThing := map[string]string{
		"a flow mapping": "流式映射", "a block mapping": "块映射", "a flow sequence": "流式列表", "a block collection": "块集合",
		"a quoted scalar": "带引号的标量", "a plain scalar": "普通标量", "a simple key": "简单键", "a block scalar": "块标量",
		"a directive": "指令", "a tag": "标签", "an anchor": "锚点", "an alias": "别名", "a node": "节点",
	}[thing]
	if zhAct == "" || zhThing == "" {
		return ctx
	}
	return zhAct + zhThing
}
