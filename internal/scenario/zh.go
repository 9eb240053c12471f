package scenario

// The scenario checker's problems in English and Chinese. A problem is
// written once, as a format and its arguments (report.add, validator.at,
// ...): the format is its key in zhFormats, and an argument that is itself
// words (a shape such as "a list", a kind of thing, a duration's problem)
// is a sim.Text, said in the problem's language. A format without its
// Chinese fails the package's tests (zh_test.go), not a reader.

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// say renders a problem's format with its arguments in both languages.
func say(format string, args ...any) sim.Text {
	en, zh := make([]any, len(args)), make([]any, len(args))
	for i, a := range args {
		switch w := a.(type) {
		case sim.Text:
			en[i], zh[i] = w.En, w.Zh
		case interface{ Words() sim.Text }:
			t := w.Words()
			en[i], zh[i] = t.En, t.Zh
		default:
			en[i], zh[i] = a, a
		}
	}
	t := sim.Text{En: fmt.Sprintf(format, en...)}
	if z, ok := zhFormats[format]; ok {
		t.Zh = fmt.Sprintf(z, zh...)
	}
	return t
}

// problem is an error that says a problem in both languages (a bad
// duration, say), for a check that returns errors.
type problem struct{ sim.Text }

func (p problem) Error() string   { return p.En }
func (p problem) Words() sim.Text { return p.Text }

// problemf is a problem error from a format of zhFormats.
func problemf(format string, args ...any) error { return problem{say(format, args...)} }

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

// zhFormats is the Chinese of every problem format. Arguments keep their
// order; %[n]s picks them where Chinese orders them otherwise.
var zhFormats = map[string]string{
	// Check my lock's short form (form.go)
	"%d workers: give 1 to %d (the clients of one scenario)":      "%d 个工作者：请给出 1 到 %d 个（一个场景的客户端数）",
	"pick a lock or paste one, not both":                          "请选一把锁或粘贴你的锁，不要两者都给",
	"unknown lock %q (known: %s)":                                 "未知的锁 %q（已知：%s）",
	"paste your lock's acquire (Lua or commands), or pick a lock": "请粘贴你的锁的加锁步骤（Lua 或命令），或选一把锁",
	"paste your lock's release (Lua or commands)":                 "请粘贴你的锁的释放步骤（Lua 或命令）",
	"%s must be above zero":                                       "%s 必须大于零",
	"%s is longer than a scenario may run (%s)":                   "%s 比一个场景能运行的时间（%s）还长",
	"line %d: %s":                                                                      "第 %d 行：%s",
	"line %d, column %d: %s":                                                           "第 %d 行第 %d 列：%s",
	"%d locks; the limit is %d per scenario":                                           "%d 把锁；上限是每个场景 %d 把",
	"MULTI without EXEC: end the transaction with [EXEC]":                              "MULTI 之后没有 EXEC：请用 [EXEC] 结束事务",
	"watch: goes with commands; a script is atomic already":                            "watch: 只用于命令；脚本本身已是原子的",
	"%s needs the step's watch: keys (a transaction runs on the WATCHed connection)":   "%s 需要步骤的 watch: 键（事务在被 WATCH 的连接上执行）",
	"%s takes no arguments":                                                            "%s 不接受参数",
	"MULTI inside a transaction: end the first with [EXEC]":                            "事务中又出现 MULTI：请先用 [EXEC] 结束前一个事务",
	"EXEC without MULTI":                                                               "EXEC 之前没有 MULTI",
	"a lock needs a name":                                                              "锁需要 name",
	"lock name %q: use letters, digits and dashes":                                     "锁名 %q：请用字母、数字和连字符",
	"duplicate lock name %q (first at line %d)":                                        "锁名 %q 重复（第一次在第 %d 行）",
	"lock name %q is a catalog algorithm's: give your lock a name of its own":          "锁名 %q 是目录中算法的名字：请给你的锁另起一个名字",
	"parameter %q: name it with lower-case letters, digits and _":                      "参数 %q：请用小写字母、数字和 _ 命名",
	"parameter %q is one every lock has: set it as a field of the lock":                "参数 %q 是每把锁都有的：请把它写成锁的字段",
	"every: goes with extend only":                                                     "every: 只用于 extend",
	"a lock needs %s: commands or a Lua script (lua:)":                                 "锁需要 %s：命令（commands）或 Lua 脚本（lua:）",
	"a step is commands or a Lua script (lua:), not both":                              "一个步骤要么是命令，要么是 Lua 脚本（lua:），不能两者都有",
	"a step needs commands or a Lua script (lua:)":                                     "步骤需要命令（commands）或 Lua 脚本（lua:）",
	"keys and args go with a Lua script (lua:); a command writes its arguments in run": "keys 和 args 只用于 Lua 脚本（lua:）；命令的参数写在 run 里",
	"ok: of a step goes with a Lua script; give each command its own ok":               "步骤的 ok: 只用于 Lua 脚本；请给每条命令写它自己的 ok",
	"a command needs at least its name":                                                "命令至少需要它的名字",
	"the engine cannot model %s: a lock's commands must be among %s":                   "引擎无法模拟 %s：锁的命令必须是以下之一：%s",
	"unknown placeholder %s (placeholders: %s)":                                        "未知的占位符 %s（可用占位符：%s）",
	"Lua syntax error: %s":                                                             "Lua 语法错误：%s",
	"script line %d, column %d: %s":                                                    "脚本第 %d 行第 %d 列：%s",
	"%s":                                                                               "%s",
	"%s: %s":                                                                           "%s：%s",
	"%s: %v":                                                                           "%s：%v",
	"%s%v":                                                                             "%s%v",
	"%s.%s":                                                                            "%s.%s",
	"%s needs a client:":                                                               "%s 需要 client:",
	"%s needs a node:":                                                                 "%s 需要 node:",
	"%s hits a node, not a client":                                                     "%s 作用于节点，不是客户端",
	"%s needs max: the longest it may be, such as 5s":                                  "%s 需要 max：最长可以多久，例如 5s",
	"ttl %s runs as %s: %s sets its TTL with EXPIRE, in whole seconds":                 "ttl %s 实际按 %s 运行：%s 用 EXPIRE 设置 TTL，单位是整秒",
	"the fenced storage refuses every write that carries no fencing token, and %s issues none: every write of client %s will be refused": "带 fencing 的存储拒绝所有不带 fencing token 的写入，而 %s 不发放 token：客户端 %s 的每次写入都会被拒绝",
	"%s takes no max":                                                                     "%s 不接受 max",
	"%d budget entries; the limit is %d":                                                  "%d 个预算条目；上限是 %d 个",
	"%d clients; the limit is %d per scenario":                                            "%d 个客户端；上限是每个场景 %d 个",
	"%d faults; the limit is %d per scenario":                                             "%d 个故障；上限是每个场景 %d 个",
	"%d hints; the limit is %d":                                                           "%d 条提示；上限是 %d 条",
	"%d narration entries; the limit is %d per scenario":                                  "%d 个旁白条目；上限是每个场景 %d 个",
	"%d nodes; the limit is %d per scenario":                                              "%d 个节点；上限是每个场景 %d 个",
	"%d scenarios; the limit is %d per file":                                              "%d 个场景；上限是每个文件 %d 个",
	"%d schedule entries; the limit is %d per scenario":                                   "%d 个 schedule 条目；上限是每个场景 %d 个",
	"%d actions; the limit is %d":                                                         "%d 个动作；上限是 %d 个",
	"%s%s is longer than the limit of %s":                                                 "%s%s 超过了上限 %s",
	"%s: %s is longer than the limit of %s":                                               "%s：%s 超过了上限 %s",
	"%s: a duration cannot be negative here, got %s":                                      "%s：这里的时长不能为负，却写了 %s",
	"%s: want %s, got %s":                                                                 "%s：应为%s，实际是%s",
	"%sa duration cannot be negative here, got %s":                                        "%s这里的时长不能为负，却写了 %s",
	"%sbad number %s":                                                                     "%s数字 %s 写错了",
	"%scannot be read (map key type %s)":                                                  "%s无法读取（键的类型 %s）",
	"%scannot be read (type %s)":                                                          "%s无法读取（类型 %s）",
	"%sthe integer %s is out of range":                                                    "%s整数 %s 超出了范围",
	"%swant %s (%s), got %s":                                                              "%s应为%s（%s），实际是%s",
	"%swant %s, got %s":                                                                   "%s应为%s，实际是%s",
	"%swant a duration such as 3s, got %s":                                                "%s应为时长（如 3s），实际是%s",
	"%swant a list, got %s":                                                               "%s应为列表，实际是%s",
	"%swant a map, got %s":                                                                "%s应为映射，实际是%s",
	"%swant a number, got %s":                                                             "%s应为数字，实际是%s",
	"%swant a single value, got %s":                                                       "%s应为单个值，实际是%s",
	"%swant a string, got a value tagged %s":                                              "%s应为字符串，实际是带标签 %s 的值",
	"%swant a whole number of at least 0, got %s":                                         "%s应为不小于 0 的整数，实际是%s",
	"%swant an integer, got %s":                                                           "%s应为整数，实际是%s",
	"%swant true or false, got %s":                                                        "%s应为 true 或 false，实际是%s",
	"a budget entry needs do: one of %s":                                                  "预算条目需要 do：%s 之一",
	"a challenge needs a debrief with en text: what the learner should take away":         "挑战需要带 en 文本的 debrief：学习者应当带走的结论",
	"a challenge needs en text: the goal as the learner reads it":                         "挑战需要 en 文本：学习者读到的目标",
	"a challenge needs moves: the most moves the learner may take":                        "挑战需要 moves：学习者最多可走的步数",
	"a challenge's goal needs a verdict, e.g. goal: {verdict: oversell}":                  "挑战的 goal 需要一个结论，例如 goal: {verdict: oversell}",
	"a client needs a name":                                                               "客户端需要 name",
	"a client needs an algorithm (one of: %s)":                                            "客户端需要 algorithm（可选：%s）",
	"a fault needs at: (a time) or on: (an event)":                                        "故障需要 at:（时间）或 on:（事件）",
	"a fault needs do: a fault kind such as crash, pause or partition":                    "故障需要 do：一种故障类型，例如 crash、pause 或 partition",
	"a hint needs en text":                                                                "提示需要 en 文本",
	"a key must be a name, got %s":                                                        "键必须是名字，实际是%s",
	"a node needs a name":                                                                 "节点需要 name",
	"a recorded action happens at a step: it takes step:, not at: or on:":                 "录制的动作发生在某一步：用 step:，不要用 at: 或 on:",
	"a run of hand steps (clients:) takes do: step, not %q":                               "一串手动步骤（clients:）要用 do: step，不能是 %q",
	"a run of hand steps (clients:) takes only step:, do: step and clients:":              "一串手动步骤（clients:）只接受 step:、do: step 和 clients:",
	"a scenario needs a title with en text":                                               "场景需要带 en 文本的 title",
	"a scenario needs an id":                                                              "场景需要 id",
	"a scenario needs clients: at least one":                                              "场景需要 clients：至少一个",
	"a schedule entry happens at a step: it takes step:, not at: or on:":                  "schedule 的条目发生在某一步：用 step:，不要用 at: 或 on:",
	"a schedule entry needs do: step, or a fault kind such as crash":                      "schedule 的条目需要 do：step，或者 crash 这样的故障类型",
	"a schedule entry takes client: (one step) or clients: (a run of steps), not both":    "schedule 的条目用 client:（一步）或 clients:（一串步骤），不能都写",
	"algorithm %s needs %d master nodes; the scenario has %d":                             "算法 %s 需要 %d 个主节点；这个场景只有 %d 个",
	"algorithm %s takes no parameters, got %q":                                            "算法 %s 不接受参数，却写了 %q",
	"aliases (*%s) are not allowed: write the value out in full":                          "不允许别名（*%s）：请把值完整写出",
	"anchors (&%s) are not allowed: write the value out in full":                          "不允许锚点（&%s）：请把值完整写出",
	"at %s is after the horizon (%s): it would never happen":                              "at %s 在观察时长（%s）之后：永远不会发生",
	"by %s is longer than the limit of %s":                                                "by %s 超过了上限 %s",
	"catalog rows start at 1, got %d":                                                     "catalog 的行号从 1 开始，却写了 %d",
	"count must be between 0 and %d, got %d":                                              "count 必须在 0 到 %d 之间，却写了 %d",
	"custom tags (%s) are not allowed: write the plain value":                             "不允许自定义标签（%s）：请直接写值",
	"duplicate client name %q (first at line %d)":                                         "客户端名 %q 重复了（第一次在第 %d 行）",
	"duplicate node name %q (first at line %d)":                                           "节点名 %q 重复了（第一次在第 %d 行）",
	"duplicate scenario id %q (first at line %d)":                                         "场景 id %q 重复了（第一次在第 %d 行）",
	"faults must be between 0 and moves (%d), got %d":                                     "faults 必须在 0 到 moves（%d）之间，却写了 %d",
	"field %q is set twice (first at line %d)":                                            "字段 %q 写了两次（第一次在第 %d 行）",
	"for %s is longer than the limit of %s":                                               "for %s 超过了上限 %s",
	"for cannot be negative, got %s":                                                      "for 不能为负，却写了 %s",
	"holds names the client whose lock the key holds":                                     "holds 写的是键上持有锁的那个客户端",
	"horizon %s is longer than the limit of %s":                                           "horizon %s 超过了上限 %s",
	"id %q: use letters, digits and dashes (no spaces or slashes)":                        "id %q：只能用字母、数字和连字符（不能有空格或斜杠）",
	"keep_faults names faults by position from 0; this scenario has %d, got %d":           "keep_faults 按从 0 开始的位置指定故障；这个场景有 %d 个，却写了 %d",
	"key %q is set twice (first at line %d)":                                              "键 %q 写了两次（第一次在第 %d 行）",
	"merge keys (<<) are not allowed: write the fields out":                               "不允许合并键（<<）：请把字段逐个写出",
	"moves %d is over the limit of %d":                                                    "moves %d 超过了上限 %d",
	"moves must be at least 1, got %d":                                                    "moves 至少为 1，却写了 %d",
	"narration needs en text":                                                             "旁白需要 en 文本",
	"nested deeper than %d levels":                                                        "嵌套超过了 %d 层",
	"no %s %q in this scenario (%ss: %s)":                                                 "这个场景里没有%s %q（有：%[4]s）",
	"no %s %q in this scenario — did you mean %q?":                                        "这个场景里没有%s %q——你是想写 %q 吗？",
	"node %q cannot be a replica of itself":                                               "节点 %q 不能是自己的副本",
	"node name %q is taken by the scenario's %s service; choose another":                  "节点名 %q 已被这个场景的 %s 服务占用；请换一个",
	"nth counts from 1, got %d":                                                           "nth 从 1 开始数，却写了 %d",
	"real_redis needs expect: the verdicts on a real server":                              "real_redis 需要 expect：在真实服务器上的结论",
	"real_redis needs why, with en text: what a real server cannot do here":               "real_redis 需要带 en 文本的 why：真实服务器在这里做不到什么",
	"reentry cannot be negative, got %d":                                                  "reentry 不能为负，却写了 %d",
	"requests must be between 0 and %d, got %d":                                           "requests 必须在 0 到 %d 之间，却写了 %d",
	"safe is proved by no event: it takes no by: or of:":                                  "safe 不由任何事件证明：它不接受 by: 或 of:",
	"safe means no violation at all: it cannot be listed with other verdicts":             "safe 表示没有任何违规：不能和其他结论一起列出",
	"set at: or on:, not both":                                                            "只写 at: 或 on: 其中一个，不要都写",
	"start %s is after the horizon (%s): the client would never run":                      "start %s 在观察时长（%s）之后：这个客户端永远不会运行",
	"step %d comes before the step of the action above it (%d): actions go in step order": "第 %d 步排在上一个动作的步数（%d）之前：动作要按步数顺序写",
	"step cannot be negative, got %d":                                                     "step 不能为负，却写了 %d",
	"steps %d is over the limit of %d engine steps a schedule":                            "steps %d 超过了每个调度 %d 个引擎步骤的上限",
	"steps cannot be negative, got %d":                                                    "steps 不能为负，却写了 %d",
	"the file has more than %d YAML values; the limit is %d":                              "文件里的 YAML 值超过了 %d 个；上限是 %d",
	"the file has no scenarios: it needs a scenarios: list":                               "文件里没有场景：需要一个 scenarios: 列表",
	"the file is %s; the limit is %s":                                                     "文件有 %s；上限是 %s",
	"the file is empty: it needs a scenarios: list":                                       "文件是空的：需要一个 scenarios: 列表",
	"a scenario file is one YAML document, but this one has several (---)":                "场景文件只能是一个 YAML 文档，这个文件却有好几个（---）",
	"threads must be between 0 and %d, got %d":                                            "threads 必须在 0 到 %d 之间，却写了 %d",
	"unknown %s %q (known: %s)":                                                           "未知的%s %q（已知：%s）",
	"unknown %s %q — did you mean %q?":                                                    "未知的%s %q——你是想写 %q 吗？",
	"unknown field %q in %s (fields: %s)":                                                 "%[2]s中没有字段 %[1]q（可用字段：%[3]s）",
	"unknown field %q — did you mean %q?":                                                 "未知字段 %q——你是想写 %q 吗？",
	"unknown parameter %q for algorithm %s (parameters: %s)":                              "算法 %[2]s 没有参数 %[1]q（可用参数：%[3]s）",
	"unknown parameter %q for algorithm %s — did you mean %q?":                            "算法 %[2]s 没有参数 %[1]q——你是想写 %[3]q 吗？",
	"verdict %q is listed twice":                                                          "结论 %q 列了两次",
	"and %d more problems from here on (only the first %d are listed): fix these first":   "从这里往后还有 %d 个问题（只列出了前 %d 个）：先改好这些",
	"bad duration %q (write e.g. 3s, 150ms or 1m)":                                        "时长 %q 写错了（请写成 3s、150ms 或 1m 这样）",
	"want a duration such as 3s":                                                          "应为时长（如 3s）",
	"want a duration string such as \"3s\"":                                               "应为时长字符串（如 \"3s\"）",
	"%s (%s) never writes a mark named %q, so this never fires: its marks are %s":         "%s（%s）从不写名为 %q 的标记，所以这一条永远不会触发：它会写的标记有 %s",
	"algorithm %s locks on every node, and this scenario's replicas would count as masters: its masters must be independent nodes (remove replica_of, or run the replica in a scenario of its own)": "算法 %s 在每个节点上加锁，这个场景的副本会被当作主节点：它的主节点必须是相互独立的节点（去掉 replica_of，或者把副本放到单独的场景里）",
	"algorithm %s runs only the deduct, buy and buy-item tasks inside its WATCH transaction, not %s":                                                                                                "算法 %s 在 WATCH 事务里只能运行 deduct、buy 和 buy-item 任务，不能运行 %s",
	"expect: lists no verdict: write the verdicts the run must end with, e.g. [safe] or [oversell], or leave expect: out":                                                                           "expect: 没有列出任何结论：请写出运行最后应得出的结论，例如 [safe] 或 [oversell]，或者干脆不写 expect:",
	"%s is a service the engine answers without a network: a fault names a Redis node (nodes: %s); a client's crash or pause between its command and the service's answer can be staged":            "%s 是引擎直接应答的服务，不经过网络：故障只能指向 Redis 节点（节点：%s）；客户端在发出命令和收到服务应答之间的崩溃或停顿可以设置",
	"failover of %s can never happen: no node is replica_of %s, so there is no replica to promote":                                                                                                  "%s 的故障转移永远不会发生：没有节点是 %s 的副本（replica_of），所以没有可以提升的副本",
	"keep_lock is ignored: there is no lock to keep (%s)":                                                                                                                                           "keep_lock 不会起作用：没有可以保留的锁（%s）",
	"lag is ignored: node %q is no replica (lag is a replica's delay behind its master; add replica_of:)":                                                                                           "lag 不会起作用：节点 %q 不是副本（lag 是副本落后于主节点的延迟；请加上 replica_of:）",
	"a %s event carries no command, so this never fires: cmd: matches %s events":                                                                                                                    "%s 事件从不带命令，所以这一条永远不会触发：cmd: 只匹配这些事件：%s",
	"a %s event names no key, so this never fires: key: matches %s events":                                                                                                                          "%s 事件从不涉及键，所以这一条永远不会触发：key: 只匹配这些事件：%s",
	"name: never matches a%s %s event: only marks, faults, verdicts, says, lost messages and errors have names":                                                                                     "name：永远匹配不到 %[2]s 事件：只有标记、故障、结论、旁白、丢失的消息和错误才有名字",
	"no event of any run carries the command %q, so this never fires — did you mean %q?":                                                                                                            "任何运行的事件都不会带命令 %q，所以这一条永远不会触发——你是想写 %q 吗？",
	"no event of any run carries the command %q, so this never fires (commands: %s)":                                                                                                                "任何运行的事件都不会带命令 %q，所以这一条永远不会触发（可用的命令：%s）",
	"no %s named %q happens in this scenario, so this never fires (%ss: %s)":                                                                                                                        "这个场景里不会出现名为 %[2]q 的%[1]s，所以这一条永远不会触发（可能的%[3]s：%[4]s）",
	"no %s named %q happens in this scenario, so this never fires — did you mean %q?":                                                                                                               "这个场景里不会出现名为 %[2]q 的%[1]s，所以这一条永远不会触发——你是想写 %[3]q 吗？",
	"no catalog row %d: the rows are %d to %d":                                                                                                                                                      "catalog 里没有第 %d 行：行号是 %d 到 %d",
	"reentry %d is ignored: there is no lock to take again (%s)":                                                                                                                                    "reentry %d 不会起作用：没有可以再次获取的锁（%s）",
	"sql: is ignored: no client runs mysql-unique-key, so there is no database to sweep":                                                                                                            "sql: 不会起作用：没有客户端运行 mysql-unique-key，所以没有可以清理的数据库",
	"storage: is ignored: no client's task is write, so nothing writes to the storage":                                                                                                              "storage: 不会起作用：没有客户端的 task 是 write，所以没有谁会写存储",
	"the first node is where single-node clients lock and data: is written, and %q is a replica: list its master first":                                                                             "单节点的客户端在第一个节点上加锁，data: 也写在那里，而 %q 是副本：请把它的主节点列在前面",
	"algorithm %s takes none":                          "算法 %s 不加锁",
	"algorithm %s retries a WATCH transaction instead": "算法 %s 改为重试 WATCH 事务",
	"task buy-item takes and releases its own lock":    "buy-item 任务自己加锁、自己释放",
	"%s (%s at %d:%d)":                                 "%s（在 %[3]d:%[4]d 处%[2]s时）",
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
