// What the server writes in English, in Chinese: the scenario checker's
// problems (a list of patterns with their Chinese: a string with $1…, or a
// function of the match that can translate a part in turn) and the
// server's error codes. An event's words come from the server in both
// languages already (its note, {en, zh}). A text no pattern knows stays as
// written and is kept in `untranslated` (the browser tests read it).

/** untranslated holds the texts asked for in 中文 that no pattern knew. */
export const untranslated = new Set();

function translate(list, text, lang) {
  if (!text || lang !== 'zh') return text || '';
  for (const [re, zh] of list) {
    const m = re.exec(text);
    if (m) return typeof zh === 'function' ? zh(m) : text.replace(re, zh);
  }
  untranslated.add(text);
  return text;
}

// The kinds of things the checker names ("a client", "the integer 7").
const THINGS = {
  scenario: '场景', client: '客户端', node: '节点', fault: '故障', network: '网络', narration: '旁白',
  claim: '断言', storage: '存储', sql: 'SQL 设置', explore: '搜索设置', budget: '预算条目', text: '文本',
  verdict: '结论', algorithm: '算法', event: '事件', kind: '类型', field: '字段', parameter: '参数',
  mark: '标记', 'fault kind': '故障类型', 'event kind': '事件类型', value: '值', key: '键',
};
const thing = (w) => THINGS[w] || w;
const SHAPES = [
  [/^an? list$/, '列表'], [/^an? map$/, '映射'], [/^a map of (.+)$/, '含 $1 的映射'], [/^an alias$/, '别名'],
  [/^nothing$/, '空值'], [/^the integer (.+)$/, '整数 $1'], [/^the number (.+)$/, '数 $1'], [/^a string$/, '字符串'],
  [/^true or false$/, 'true 或 false'], [/^a number$/, '数字'], [/^an integer$/, '整数'],
  [/^a duration such as 3s$/, '时长（如 3s）'], [/^a whole number of at least 0$/, '不小于 0 的整数'],
  [/^a single value$/, '单个值'], [/^a scenario file$/, '场景文件'], [/^a scenario file \(a map of scenarios\)$/, '场景文件（由 scenarios 组成的映射）'],
  [/^a schedule entry$/, 'schedule 条目'], [/^a match \(on:\)$/, '匹配条件（on:）'], [/^this map$/, '这个映射'],
  [/^an? ([a-z ]+) \(a map\)$/, (m) => thing(m[1]) + '（映射）'], [/^an? ([a-z ]+)$/, (m) => thing(m[1])],
  [/^(true|false|"[^"]*"|[\w.-]+)$/, '$1'],
];
const shape = (x) => translate(SHAPES, x, 'zh');
// What names an event of each kind carries, and why a client has no lock
// to take again or keep.
const NAMED = { mark: '标记', fault: '故障', verdict: '结论', say: '旁白', 'lost message': '丢失的消息', error: '错误', 'event name': '事件名' };
const NO_LOCK = [
  [/^algorithm (\S+) takes none$/, '算法 $1 不加锁'],
  [/^algorithm (\S+) retries a WATCH transaction instead$/, '算法 $1 改为重试 WATCH 事务'],
  [/^task buy-item takes and releases its own lock$/, 'buy-item 任务自己加锁、自己释放'],
];
const noLock = (x) => translate(NO_LOCK, x, 'zh');

// The YAML library's syntax errors.
const PARSING = {
  'a flow mapping': '流式映射', 'a block mapping': '块映射', 'a flow sequence': '流式列表', 'a block collection': '块集合',
  'a quoted scalar': '带引号的标量', 'a plain scalar': '普通标量', 'a simple key': '简单键', 'a block scalar': '块标量',
  'a directive': '指令', 'a tag': '标签', 'an anchor': '锚点', 'an alias': '别名', 'a node': '节点',
};
const SYNTAX = [
  [/^(.+) \(while (parsing|scanning) (.+) at (\d+:\d+)\)$/, (m) => `${syntax(m[1])}（在 ${m[4]} 处${m[2] === 'parsing' ? '解析' : '扫描'}${PARSING[m[3]] || m[3]}时）`],
  [/^did not find expected (.+)$/, (m) => '没有找到预期的 ' + (m[1] === 'key' ? '键' : m[1] === 'node content' ? '节点内容' : m[1].replace(/ or /g, ' 或 ').replace(/ indicator$/, ' 标记'))],
  [/^could not find expected (.+)$/, '没有找到预期的 $1'],
  [/^mapping values are not allowed in this context$/, '这里不允许出现映射的值（多了一个冒号？）'],
  [/^block sequence entries are not allowed in this context$/, '这里不允许出现列表条目'],
  [/^found character that cannot start any token$/, '发现了不能作为任何记号开头的字符（例如用 Tab 缩进）'],
  [/^found a tab character (.*)$/, '发现了 Tab 字符（YAML 的缩进只能用空格）'],
  [/^found unexpected end of stream$/, '文件意外结束'],
  [/^found unexpected (.+)$/, '发现了意外的 $1'],
  [/^found unknown escape character$/, '发现了未知的转义字符'],
  [/^found undefined tag handle$/, '发现了未定义的标签句柄'],
  [/^control characters are not allowed$/, '不允许出现控制字符'],
  [/^(invalid leading UTF-8 octet|incomplete UTF-8 octet sequence|invalid trailing UTF-8 octet)$/, 'UTF-8 编码无效'],
  [/^unknown anchor '([^']+)' referenced$/, "引用了未知的锚点 '$1'"],
];
const syntax = (x) => translate(SYNTAX, x, 'zh');

// The scenario checker's problems (internal/scenario).
const PROBLEMS = [
  [/^unknown field "([^"]+)" — did you mean "([^"]+)"\?$/, '未知字段 "$1"——你是想写 "$2" 吗？'],
  [/^unknown field "([^"]+)" in (.+) \(fields: (.+)\)$/, (m) => `${shape(m[2])}中没有字段 "${m[1]}"（可用字段：${m[3]}）`],
  [/^unknown parameter "([^"]+)" for algorithm (\S+) — did you mean "([^"]+)"\?$/, '算法 $2 没有参数 "$1"——你是想写 "$3" 吗？'],
  [/^unknown parameter "([^"]+)" for algorithm (\S+) \(parameters: (.+)\)$/, '算法 $2 没有参数 "$1"（可用参数：$3）'],
  [/^unknown ([a-z ]+) "([^"]+)" — did you mean "([^"]+)"\?$/, (m) => `未知的${thing(m[1])} "${m[2]}"——你是想写 "${m[3]}" 吗？`],
  [/^unknown ([a-z ]+) "([^"]+)" \(known: (.+)\)$/, (m) => `未知的${thing(m[1])} "${m[2]}"（已知：${m[3]}）`],
  [/^no ([a-z ]+) "([^"]+)" in this scenario — did you mean "([^"]+)"\?$/, (m) => `这个场景里没有${thing(m[1])} "${m[2]}"——你是想写 "${m[3]}" 吗？`],
  [/^no ([a-z ]+) "([^"]+)" in this scenario \([a-z ]+: (.+)\)$/, (m) => `这个场景里没有${thing(m[1])} "${m[2]}"（有：${m[3]}）`],
  [/^(field|key) "([^"]+)" is set twice \(first at line (\d+)\)$/, '"$2" 写了两次（第一次在第 $3 行）'],
  [/^duplicate (scenario id|client name|node name) "([^"]+)" \(first at line (\d+)\)$/, (m) => `${{ 'scenario id': '场景 id', 'client name': '客户端名', 'node name': '节点名' }[m[1]]} "${m[2]}" 重复了（第一次在第 ${m[3]} 行）`],
  [/^verdict "([^"]+)" is listed twice$/, '结论 "$1" 列了两次'],
  // A challenge: section (internal/scenario/challenge.go).
  [/^a challenge needs en text: the goal as the learner reads it$/, '挑战需要 en 文本：学习者读到的目标'],
  [/^a challenge's goal needs a verdict, e\.g\. goal: \{verdict: oversell\}$/, '挑战的 goal 需要一个结论，例如 goal: {verdict: oversell}'],
  [/^safe is proved by no event: it takes no by: or of:$/, 'safe 不由任何事件证明：它不接受 by: 或 of:'],
  [/^a challenge needs moves: the most moves the learner may take$/, '挑战需要 moves：学习者最多可走的步数'],
  [/^moves must be at least 1, got (-?\d+)$/, 'moves 至少为 1，实际是 $1'],
  [/^moves (\d+) is over the limit of (\d+)$/, 'moves $1 超过了上限 $2'],
  [/^faults must be between 0 and moves \((\d+)\), got (-?\d+)$/, 'faults 必须在 0 到 moves（$1）之间，实际是 $2'],
  [/^keep_faults names faults by position from 0; this scenario has (\d+), got (-?\d+)$/, 'keep_faults 按从 0 开始的位置指定故障；这个场景有 $1 个，实际写了 $2'],
  [/^(\d+) hints; the limit is (\d+)$/, '$1 条提示；上限是 $2 条'],
  [/^a hint needs en text$/, '提示需要 en 文本'],
  [/^a challenge needs a debrief with en text: what the learner should take away$/, '挑战需要带 en 文本的 debrief：学习者应当带走的结论'],
  [/^safe means no violation at all: it cannot be listed with other verdicts$/, 'safe 表示没有任何违规：不能和其他结论一起列出'],
  [/^node "([^"]+)" cannot be a replica of itself$/, '节点 "$1" 不能是自己的副本'],
  [/^node name "([^"]+)" is taken by the scenario's (\S+) service; choose another$/, '节点名 "$1" 已被这个场景的 $2 服务占用；请换一个'],
  [/^merge keys \(<<\) are not allowed: write the fields out$/, '不允许合并键（<<）：请把字段逐个写出'],
  [/^anchors \(&([^)]+)\) are not allowed: write the value out in full$/, '不允许锚点（&$1）：请把值完整写出'],
  [/^aliases \(\*([^)]+)\) are not allowed: write the value out in full$/, '不允许别名（*$1）：请把值完整写出'],
  [/^custom tags \(([^)]+)\) are not allowed: write the plain value$/, '不允许自定义标签（$1）：请直接写值'],
  [/^nested deeper than (\d+) levels$/, '嵌套超过了 $1 层'],
  [/^the file has more than (\d+) YAML values; the limit is (\d+)$/, '文件里的 YAML 值超过了 $1 个；上限是 $2'],
  [/^the file is (\S+ \S+); the limit is (\S+ \S+)$/, '文件有 $1；上限是 $2'],
  [/^the file is empty: it needs a scenarios: list$/, '文件是空的：需要一个 scenarios: 列表'],
  [/^the file has no scenarios: it needs a scenarios: list$/, '文件里没有场景：需要一个 scenarios: 列表'],
  [/^a scenario file is one YAML document, but this one has several \(---\)$/, '场景文件只能是一个 YAML 文档，这个文件却有好几个（---）'],
  [/^(\d+) (scenarios|clients|nodes|faults|narration entries|schedule entries|budget entries|actions); the limit is (\d+)( per file| per scenario)?$/, (m) => `${m[1]} 个${{ scenarios: '场景', clients: '客户端', nodes: '节点', faults: '故障', 'narration entries': '旁白条目', 'schedule entries': 'schedule 条目', 'budget entries': '预算条目', actions: '动作' }[m[2]]}；上限是${m[4] === ' per file' ? '每个文件' : m[4] ? '每个场景' : ''} ${m[3]} 个`],
  [/^algorithm (\S+) takes no parameters, got "([^"]+)"$/, '算法 $1 不接受参数，却写了 "$2"'],
  [/^algorithm (\S+) needs (\d+) master nodes; the scenario has (\d+)$/, '算法 $1 需要 $2 个主节点；这个场景只有 $3 个'],
  [/^a client needs an algorithm \(one of: (.+)\)$/, '客户端需要 algorithm（可选：$1）'],
  [/^a client needs a name$/, '客户端需要 name'],
  [/^a node needs a name$/, '节点需要 name'],
  [/^a scenario needs an id$/, '场景需要 id'],
  [/^a scenario needs a title with en text$/, '场景需要带 en 文本的 title'],
  [/^a scenario needs clients: at least one$/, '场景需要 clients：至少一个'],
  [/^expect: lists no verdict: write the verdicts the run must end with, e\.g\. \[safe\] or \[oversell\], or leave expect: out$/, 'expect: 没有列出任何结论：请写出运行最后应得出的结论，例如 [safe] 或 [oversell]，或者干脆不写 expect:'],
  [/^narration needs en text$/, '旁白需要 en 文本'],
  [/^real_redis needs expect: the verdicts on a real server$/, 'real_redis 需要 expect：在真实服务器上的结论'],
  [/^real_redis needs why, with en text: what a real server cannot do here$/, 'real_redis 需要带 en 文本的 why：真实服务器在这里做不到什么'],
  [/^id "([^"]+)": use letters, digits and dashes \(no spaces or slashes\)$/, 'id "$1"：只能用字母、数字和连字符（不能有空格或斜杠）'],
  [/^catalog rows start at 1, got (-?\d+)$/, 'catalog 的行号从 1 开始，却写了 $1'],
  // ---- What a run would ignore, or a fault that could never fire ----
  [/^no catalog row (\d+): the rows are (\d+) to (\d+)$/, 'catalog 里没有第 $1 行：行号是 $2 到 $3'],
  [/^(\S+) \((\S+)\) never writes a mark named "([^"]*)", so this never fires: its marks are (.*)$/, (m) => `${m[1]}（${m[2]}）从不写名为 "${m[3]}" 的标记，所以这一条永远不会触发：它会写的标记有 ${m[4].split(', ').join('、')}`],
  [/^no (mark|fault|verdict|say|lost message|error|event name) named "([^"]*)" happens in this scenario, so this never fires — did you mean "([^"]*)"\?$/, (m) => `这个场景里不会出现名为 "${m[2]}" 的${NAMED[m[1]]}，所以这一条永远不会触发——你是想写 "${m[3]}" 吗？`],
  [/^no (mark|fault|verdict|say|lost message|error|event name) named "([^"]*)" happens in this scenario, so this never fires \((?:[a-z ]+): (.*)\)$/, (m) => `这个场景里不会出现名为 "${m[2]}" 的${NAMED[m[1]]}，所以这一条永远不会触发（可能的${NAMED[m[1]]}：${m[3].split(', ').join('、')}）`],
  [/^name: never matches an? (\S+) event: only marks, faults, verdicts, says, lost messages and errors have names$/, 'name：永远匹配不到 $1 事件：只有标记、故障、结论、旁白、丢失的消息和错误才有名字'],
  [/^lag is ignored: node "([^"]*)" is no replica \(lag is a replica's delay behind its master; add replica_of:\)$/, 'lag 不会起作用：节点 "$1" 不是副本（lag 是副本落后于主节点的延迟；请加上 replica_of:）'],
  [/^storage: is ignored: no client's task is write, so nothing writes to the storage$/, 'storage: 不会起作用：没有客户端的 task 是 write，所以没有谁会写存储'],
  [/^sql: is ignored: no client runs mysql-unique-key, so there is no database to sweep$/, 'sql: 不会起作用：没有客户端运行 mysql-unique-key，所以没有可以清理的数据库'],
  [/^keep_lock is ignored: there is no lock to keep \((.+)\)$/, (m) => `keep_lock 不会起作用：没有可以保留的锁（${noLock(m[1])}）`],
  [/^reentry (\d+) is ignored: there is no lock to take again \((.+)\)$/, (m) => `reentry ${m[1]} 不会起作用：没有可以再次获取的锁（${noLock(m[2])}）`],
  [/^algorithm (\S+) runs only the deduct, buy and buy-item tasks inside its WATCH transaction, not (\S+)$/, '算法 $1 在 WATCH 事务里只能运行 deduct、buy 和 buy-item 任务，不能运行 $2'],
  [/^failover of (\S+) can never happen: no node is replica_of (\S+), so there is no replica to promote$/, '$1 的故障转移永远不会发生：没有节点是 $2 的副本（replica_of），所以没有可以提升的副本'],
  [/^the first node is where single-node clients lock and data: is written, and "([^"]*)" is a replica: list its master first$/, '单节点的客户端在第一个节点上加锁，data: 也写在那里，而 "$1" 是副本：请把它的主节点列在前面'],
  [/^algorithm (\S+) locks on every node, and this scenario's replicas would count as masters: its masters must be independent nodes \(remove replica_of, or run the replica in a scenario of its own\)$/, '算法 $1 在每个节点上加锁，这个场景的副本会被当作主节点：它的主节点必须是相互独立的节点（去掉 replica_of，或者把副本放到单独的场景里）'],
  [/^a schedule entry happens at a step: it takes step:, not at: or on:$/, 'schedule 的条目发生在某一步：用 step:，不要用 at: 或 on:'],
  [/^a recorded action happens at a step: it takes step:, not at: or on:$/, '录制的动作发生在某一步：用 step:，不要用 at: 或 on:'],
  [/^a schedule entry needs do: step, or a fault kind such as crash$/, 'schedule 的条目需要 do：step，或者 crash 这样的故障类型'],
  [/^step (\d+) comes before the step of the action above it \((\d+)\): actions go in step order$/, '第 $1 步排在上一个动作的步数（$2）之前：动作要按步数顺序写'],
  [/^a fault needs at: \(a time\) or on: \(an event\)$/, '故障需要 at:（时间）或 on:（事件）'],
  [/^a fault needs do: a fault kind such as crash, pause or partition$/, '故障需要 do：一种故障类型，例如 crash、pause 或 partition'],
  [/^a budget entry needs do: one of (.+)$/, '预算条目需要 do：$1 之一'],
  [/^set at: or on:, not both$/, '只写 at: 或 on: 其中一个，不要都写'],
  [/^pause needs for: how long, e\.g\. 1s$/, 'pause 需要 for：停多久，例如 1s'],
  [/^clock-jump needs by: how far, e\.g\. 5s or -5s$/, 'clock-jump 需要 by：跳多少，例如 5s 或 -5s'],
  [/^skew needs by: how far ahead the clock runs, e\.g\. 2s$/, 'skew 需要 by：时钟快多少，例如 2s'],
  [/^(\S+) needs max: the longest it may be, such as 5s$/, '$1 需要 max：最长可以多久，例如 5s'],
  [/^(\S+) takes no max$/, '$1 不接受 max'],
  [/^(\S+) hits a node, not a client$/, '$1 作用于节点，不是客户端'],
  [/^(\S+) needs a node:$/, '$1 需要 node:'],
  [/^(\S+) needs a client:$/, '$1 需要 client:'],
  [/^holds names the client whose lock the key holds$/, 'holds 写的是键上持有锁的那个客户端'],
  [/^nth counts from 1, got (-?\d+)$/, 'nth 从 1 开始数，却写了 $1'],
  [/^(step|steps|reentry|for) cannot be negative, got (\S+)$/, '$1 不能为负，却写了 $2'],
  [/^(requests|threads|count) must be between (\d+) and (\d+), got (-?\d+)$/, '$1 必须在 $2 到 $3 之间，却写了 $4'],
  [/^(horizon|for|by) (\S+) is longer than the limit of (\S+)$/, '$1 $2 超过了上限 $3'],
  [/^at (\S+) is after the horizon \((\S+)\): it would never happen$/, 'at $1 在观察时长（$2）之后：永远不会发生'],
  [/^start (\S+) is after the horizon \((\S+)\): the client would never run$/, 'start $1 在观察时长（$2）之后：这个客户端永远不会运行'],
  [/^and (\d+) more problems from here on \(only the first (\d+) are listed\): fix these first$/, '从这里往后还有 $1 个问题（只列出了前 $2 个）：先改好这些'],
  [/^a duration cannot be negative here, got (.+)$/, '这里的时长不能为负，却写了 $1'],
  [/^(.+) is longer than the limit of (.+)$/, '$1 超过了上限 $2'],
  [/^bad duration "([^"]+)" \(write e\.g\. 3s, 150ms or 1m\)$/, '时长 "$1" 写错了（请写成 3s、150ms 或 1m 这样）'],
  [/^bad duration "([^"]+)" \(write e\.g\. 3s or 150ms\)$/, '时长 "$1" 写错了（请写成 3s 或 150ms 这样）'],
  [/^want (.+?) \((.+)\), got (.+)$/, (m) => `应为${shape(m[1])}（${shape(m[2])}），实际是${shape(m[3])}`],
  [/^want a string, got a value tagged (.+)$/, '应为字符串，实际是带标签 $1 的值'],
  [/^want (.+), got (.+)$/, (m) => `应为${shape(m[1])}，实际是${shape(m[2])}`],
  [/^the integer (.+) is out of range$/, '整数 $1 超出了范围'],
  [/^bad number (.+)$/, '数字 $1 写错了'],
  [/^cannot be read \((map key )?type (.+)\)$/, '无法读取（类型 $2）'],
  [/^a key must be a name, got (.+)$/, (m) => '键必须是名字，实际是' + shape(m[1])],
  [/^(.+) \((.+) at (\d+:\d+)\)$/, (m) => syntax(m[0])],
  [/^([A-Za-z_][\w.[\]-]*): (.+)$/, (m) => `${m[1]}：${problem(m[2], 'zh')}`],
  ...SYNTAX,
];

/** problem gives a scenario file's problem in lang. */
export function problem(text, lang) {
  return translate(PROBLEMS, text, lang);
}

// The server's errors: a code and its arguments, rendered here.
const ERRORS = {
  'bad-message': ['bad message: {detail}', '消息有误：{detail}'],
  'unknown-op': ['unknown op {op} (see docs/protocol.md)', '未知操作 {op}（见 docs/protocol.md）'],
  'no-scenario': ['no scenario loaded: send load first', '还没有载入场景：请先 load'],
  'no-builtin': ['no built-in scenario {id}', '没有内置场景 {id}'],
  'no-file-scenario': ['the file has no scenario {id}', '文件里没有场景 {id}'],
  'empty-file': ['the file holds no scenario', '文件里没有场景'],
  'load-what': ['load: give a scenario id or yaml', 'load：请给出场景 id 或 YAML'],
  'no-move': ['{client} has no move to make now', '{client} 现在没有可走的一步'],
  'which-client': ['step-client: which client? (client is empty)', 'step-client：哪个客户端？（client 为空）'],
  'step-cap': ['the session reached its cap of {max} steps', '会话已达到 {max} 步的上限'],
  'n-cap': ['step: n {n} is over the cap of {max} steps', 'step：n = {n} 超过了 {max} 步的上限'],
  'speed-cap': ['play: speed {speed} is over the cap of {max} steps per second', 'play：速度 {speed} 超过每秒 {max} 步的上限'],
  'seek-missing': ['seek: step is missing', 'seek：缺少 step'],
  'fault-missing': ['inject: fault is missing', 'inject：缺少 fault'],
  'run-over': ['the run is over: step back to inject a fault', '运行已经结束：请先后退再注入故障'],
  'other-tab': ['this tab no longer drives the session', '本标签页已不再控制这个会话'],
  'bad-fault': ['this fault does not apply here: {detail}', '这个故障在这里不适用：{detail}'],
  'yaml': ['the scenario file has errors: {detail}', '场景文件有错误：{detail}'],
  'too-big': ['the message is over the size limit', '消息超过了大小上限'],
  'clients-cap': ['scenario {id} has {n} clients, over the cap of {max}', '场景 {id} 有 {n} 个客户端，超过了 {max} 个的上限'],
  'nodes-cap': ['scenario {id} has {n} nodes, over the cap of {max}', '场景 {id} 有 {n} 个节点，超过了 {max} 个的上限'],
  'horizon-cap': ['scenario {id} has a horizon of {h}, over the cap of {max}', '场景 {id} 的观察时长是 {h}，超过了 {max} 的上限'],
  'session-busy': ['the session is busy or gone: reload the page', '会话正忙或已不存在：请刷新页面'],
  'hello-first': ['send hello first (see docs/protocol.md)', '请先发送 hello（见 docs/protocol.md）'],
  'shutting-down': ['the server is shutting down', '服务器正在关闭'],
  'sessions-cap': ['too many sessions (the cap is {max}): try again later', '会话太多（上限 {max} 个）：请稍后再试'],
  'busy': ['busy: too many requests in flight, try again', '太忙了：进行中的请求太多，请稍后再试'],
  'recording-big': ['the recording would be {kib} KiB, over the file limit of {max} KiB: step back to an earlier step and save from there', '录制文件会有 {kib} KiB，超过了 {max} KiB 的上限：请先后退到更早的一步再保存'],
  'recording-unreadable': ['the recording would not reopen ({detail}): step back to an earlier step and save from there', '录制文件将无法重新打开（{detail}）：请先后退到更早的一步再保存'],
  'redis-lost': ['the run stopped: a Redis server stopped answering ({detail}); check the server, then reload the run', '运行已停止：Redis 服务器不再响应（{detail}）；请检查服务器，然后重新载入这次运行'],
  // ---- Limits per client address and the server's reserve (docs/protocol.md) ----
  'address-sockets': ['your address has {max} sockets open, the most one address may: close other tabs and try again', '你的地址已打开 {max} 个连接，这是一个地址的上限：请关闭其他标签页后再试'],
  'address-sessions': ['your address holds {max} sessions, the most one address may, each with a tab open: close one and try again', '你的地址已有 {max} 个会话（上限），而且每个都有标签页打开：请关闭一个后再试'],
  'address-searches': ['explore: your address runs {max} searches, the most one address may: wait for one to end', '探索：你的地址正在运行 {max} 个搜索，这是一个地址的上限：请等其中一个结束'],
  'server-sockets': ['the server holds {max} sockets, all it may while keeping room for others: try again later', '服务器已有 {max} 个连接，为了给其他人留出余地不能再多：请稍后再试'],
  // ---- Side by side (compare.js) ----
  'compare': ['{detail}', '无法对比：{detail}'],
  'compare-big': ['the runs have {n} rows, over the view\'s {max}: compare them with visualizer compare', '两次运行有 {n} 行，超过了对比视图的 {max} 行上限：请用 visualizer compare 对比'],
  // ---- Which lock? (report.js) ----
  'report-cell': ['the cell {lock}/{column} has no schedule to open (not decided yet, or nothing found)', '{lock}/{column} 这一格没有可打开的调度（尚未得出结果，或没有发现问题）'],
  'report-real': ['the report card runs on embedded Redis only, not on real servers', '选锁报告卡只能在内置 Redis 上运行，不能在真实服务器上运行'],
  'compare-real': ['compare: runs side by side on embedded Redis only, not on real servers', '并排对比只能在内置 Redis 上运行，不能在真实服务器上运行'],
};


/** addErrors adds codes to the catalogue (a part of the page that has
 * requests of its own, such as the class's). */
export function addErrors(more) { Object.assign(ERRORS, more); }

/** serverError renders an error message from the server: its code's
 * sentence with the code's arguments (an argument the server said in both
 * languages, {en, zh}, in lang), else its text. */
export function serverError(m, lang) {
  const s = m.code && ERRORS[m.code];
  if (!s) return m.error || '';
  let out = lang === 'zh' ? s[1] : s[0];
  for (const [k, v] of Object.entries(m.args || {})) {
    const said = v && typeof v === 'object' ? (lang === 'zh' ? v.zh : v.en) || v.en || '' : String(v);
    out = out.split('{' + k + '}').join(said);
  }
  return out;
}
