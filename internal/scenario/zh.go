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

// thingsZh are the kinds of things problems name, in Chinese.
var thingsZh = map[string]string{
	"scenario": "场景", "client": "客户端", "node": "节点", "fault": "故障", "network": "网络", "narration": "旁白",
	"claim": "断言", "storage": "存储", "sql": "SQL 设置", "explore": "搜索设置", "budget": "预算条目", "text": "文本",
	"verdict": "结论", "algorithm": "算法", "event": "事件", "kind": "类型", "field": "字段", "parameter": "参数",
	"mark": "标记", "fault kind": "故障类型", "event kind": "事件类型", "value": "值", "key": "键", "action": "动作",
	"challenge": "挑战", "hint": "提示", "goal": "目标", "match": "匹配条件", "real_redis": "real_redis 设置",
	"fault a search can place": "搜索可放置的故障", "key hold": "键的持有", "run": "运行",
	"lock": "锁", "say": "旁白", "lost message": "丢失的消息", "error": "错误", "event name": "事件名",
}

// thing names a kind of thing ("client", "fault kind") in both languages.
func thing(en string) sim.Text {
	if zh, ok := thingsZh[en]; ok {
		return sim.Text{En: en, Zh: zh}
	}
	return sim.Text{En: en, Zh: en}
}

// aThing is "a client", "an explore" in both languages.
func aThing(en string) sim.Text {
	art := "a "
	if strings.ContainsAny(en[:1], "aeiou") {
		art = "an "
	}
	return sim.Text{En: art + en, Zh: thing(en).Zh}
}

// describeText says a shape ("a list", "the integer 7") in both languages.
func describeText(en string) sim.Text {
	switch en {
	case "a list":
		return sim.Text{En: en, Zh: "列表"}
	case "a map":
		return sim.Text{En: en, Zh: "映射"}
	case "an alias":
		return sim.Text{En: en, Zh: "别名"}
	case "nothing":
		return sim.Text{En: en, Zh: "空值"}
	case "a string":
		return sim.Text{En: en, Zh: "字符串"}
	case "true or false":
		return sim.Text{En: en, Zh: "true 或 false"}
	case "a number":
		return sim.Text{En: en, Zh: "数字"}
	case "an integer":
		return sim.Text{En: en, Zh: "整数"}
	case "a duration such as 3s":
		return sim.Text{En: en, Zh: "时长（如 3s）"}
	}
	if n, ok := strings.CutPrefix(en, "the integer "); ok {
		return sim.Text{En: en, Zh: "整数 " + n}
	}
	if n, ok := strings.CutPrefix(en, "the number "); ok {
		return sim.Text{En: en, Zh: "数 " + n}
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
