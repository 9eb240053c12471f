// Every UI string in English and 中文. t(key, lang) picks one; apply()
// rewrites the elements that carry data-i18n.

const S = {
  scenario: ['Scenario', '场景'],
  customOption: ['Your own YAML…', '自己写 YAML…'],
  presenter: ['Presenter', '演示模式'],
  expected: ['Expected verdict:', '预期结论：'],
  reset: ['Reset', '重来'],
  back: ['Back', '后退'],
  step: ['Step', '下一步'],
  play: ['Play', '播放'],
  pause: ['Pause', '暂停'],
  end: ['To the end', '跑到结尾'],
  speed: ['Speed', '速度'],
  seed: ['Seed', '随机种子'],
  narration: ['What is happening', '正在发生什么'],
  offScript: ['Off the lesson\'s script: told from what happens', '已离开课程剧本：按实际发生的事讲述'],
  verdict: ['Verdict', '结论'],
  keys: ['Keys on each node', '各节点上的键'],
  manual: ['You are the scheduler', '由你来调度'],
  manualHint: ['Pick who makes the next move:', '选择下一步由谁行动：'],
  faults: ['Inject a fault now', '现在注入故障'],
  fCrash: ['Crash', '崩溃'],
  fPause: ['Pause 1s', '停顿 1 秒'],
  fDropReply: ['Drop next reply', '丢弃下一个回复'],
  fDropRequest: ['Drop next request', '丢弃下一个请求'],
  fPartition: ['Partition 2s', '网络分区 2 秒'],
  fNodeCrash: ['Kill node', '关掉节点'],
  fNodeRestart: ['Restart node', '重启节点'],
  fClockJump: ['Clock +5s', '时钟 +5 秒'],
  fFailover: ['Fail over', '主从切换'],
  share: ['Share and export', '分享与导出'],
  shareLink: ['Copy link to this view', '复制此视图的链接'],
  exportJSON: ['Event log (JSON)', '事件日志 (JSON)'],
  saveYAML: ['Save run as YAML', '把这次运行存为 YAML'],
  openYAML: ['Open YAML…', '打开 YAML…'],
  editor: ['Write a scenario (YAML)', '编写场景 (YAML)'],
  run: ['Run it', '运行'],
  check: ['Check', '检查'],
  helpTitle: ['Keyboard', '快捷键'],
  helpRead: ['Read the timeline top to bottom: each row is one thing that happened. Arrows are Redis commands going from a client to a node and the reply coming back. Thick bars are critical sections; tapering bars on a node are a lock\'s remaining TTL.',
    '时间线从上往下读：每一行是发生的一件事。箭头是客户端发给节点的 Redis 命令以及返回的回复。粗条是临界区；节点旁逐渐变窄的条是锁剩余的 TTL。'],
  close: ['Close', '关闭'],
  welcome: ['Press Step (or the space bar) to run one Redis command at a time. Each row of the timeline is one thing that happened; read it top to bottom.',
    '按“下一步”（或空格键）每次执行一条 Redis 命令。时间线的每一行是发生的一件事，从上往下读。'],
  nothingYet: ['Nothing has happened yet.', '还什么都没发生。'],
  running: ['Running… no verdict until the run ends.', '运行中……运行结束后才有结论。'],
  safe: ['Safe: no rule was broken.', '安全：没有违反任何规则。'],
  noKeys: ['(no keys)', '（没有键）'],
  down: ['down', '宕机'],
  ttl: ['TTL', '剩余'],
  owner: ['owner', '持有者'],
  noPending: ['Nobody has a move to make now.', '现在没有人可以行动。'],
  moves: ['moves', '行动'],
  stepOf: ['step', '第'],
  stepSuffix: ['', '步'],
  connected: ['', ''],
  reconnecting: ['reconnecting…', '正在重连…'],
  linkCopied: ['Link copied. It reproduces this exact view.', '链接已复制，打开即可重现当前视图。'],
  linkShown: ['Link ready: copy it from the address of this button.', '链接已生成：可从按钮地址复制。'],
  critical: ['critical section', '临界区'],
  inside: ['inside together!', '同时在里面！'],
  paused: ['paused', '停顿'],
  crashed: ['crashed', '崩溃'],
  lost: ['lost', '丢失'],
  expired: ['expired', '过期'],
  partitioned: ['partition', '分区'],
  lockOf: ['lock of', '锁属于'],
  tooBig: ['the file is {n} KiB; the limit is 64 KiB', '文件有 {n} KiB，上限是 64 KiB'],
  realBanner: ["Real Redis ({urls}). Time runs on Redis' clock from your first step: a paused view does not pause Redis, so TTLs run out meanwhile and the next step shows those expiries first. Node clock jumps are not applied. Seeking back replays the run from the start, in real time. Redis ran each command between the moment it went out and the moment its reply came in (the grey whisker beside it); each expiry is one Redis reported.", '真实 Redis（{urls}）。从你走第一步起，时间以 Redis 的时钟为准：暂停界面并不会暂停 Redis，TTL 照样流逝，下一步会先显示这些过期。节点时钟跳变不会执行。向后跳转会从头实时重放。Redis 在命令发出到回复收到之间执行了它（旁边的灰色误差线）；每次过期都是 Redis 自己报告的。'],
  onReal: ['on real Redis:', '在真实 Redis 上：'],
  errorsNone: ['No errors.', '没有错误。'],
  line: ['line', '第'],
  kStep: ['Step one move', '前进一步'],
  kBack: ['Step back', '后退一步'],
  kPlay: ['Play / pause', '播放 / 暂停'],
  kReset: ['Reset', '重来'],
  kEnd: ['Run to the end', '跑到结尾'],
  kPresenter: ['Presenter mode (large type)', '演示模式（大字）'],
  kLang: ['English / 中文', 'English / 中文'],
  kHelp: ['This help', '本帮助'],
  kClicker: ['Clicker: next / previous', '翻页笔：下一步 / 上一步'],
  time: ['time', '时间'],
  // The timeline's own words.
  now: ['▼ now', '▼ 现在'],
  ended: ['end', '结束'],
  timeout: ['timeout', '超时'],
  start: ['start', '开始'],
  done: ['done', '结束'],
  init: ['init', '初始'],
  gone: ['gone', '已删除'],
  items: ['{n} items', '{n} 项'],
  gutterHead: ['# event · time', '# 事件 · 时间'],
  insideTogether: ['{who} inside together!', '{who} 同时在里面！'],
  letMove: ['Let {c} make its next move', '让 {c} 走下一步'],
  // The detail panel.
  detail: ['Selected event', '选中的事件'],
  detailNone: ['Click a row of the timeline (or focus it and press ↑ / ↓) to see everything about that event here.', '点击时间线上的一行（或聚焦时间线后按 ↑ / ↓），这里会显示该事件的全部信息。'],
  dEvent: ['event', '事件'],
  dStep: ['step', '步'],
  dTime: ['time', '时间'],
  dKind: ['what', '类型'],
  dClient: ['client', '客户端'],
  dThread: ['thread', '线程'],
  dNode: ['node', '节点'],
  dCommand: ['command', '命令'],
  dReply: ['reply', '回复'],
  dSentAt: ['sent at', '发送于'],
  dRan: ['ran', '执行'],
  dRanWithin: ['between {from} and {to}: a real Redis does not say exactly when it ran a command, only that it was after the command went out ({from}) and before its whole reply was in ({to}), {width} apart', '在 {from} 到 {to} 之间：真实的 Redis 不会说出它执行命令的确切时刻，只能确定是在命令发出（{from}）之后、完整回复收到（{to}）之前，相差 {width}'],
  dKeysBefore: ['before', '之前'],
  dKeysAfter: ['after', '之后'],
  dKey: ['keys', '键'],
  dNote: ['note', '说明'],
  dRole: ['in the verdict', '在结论中的作用'],
  dRoleProves: ['proves {v} (verdict #{seq})', '证明了 {v}（结论 #{seq}）'],
  dRoleNarrated: ['narrated: “{say}”', '旁白：“{say}”'],
  dRoleNone: ['not cited by the verdict', '结论没有引用这个事件'],
  dRequest: ['request', '请求'],
  dArgs: ['arguments', '参数'],
  dNoTTL: ['no TTL', '没有 TTL'],
  dAbsent: ['(absent)', '（不存在）'],
  kindSend: ['a command is sent', '发出命令'],
  kindExec: ['the node runs the command', '节点执行命令'],
  kindReply: ['the reply arrives', '收到回复'],
  kindLost: ['a message is lost', '消息丢失'],
  kindTimeout: ['the client gives up waiting', '客户端等待超时'],
  kindStart: ['a client thread starts', '客户端线程开始'],
  kindDone: ['a client thread ends', '客户端线程结束'],
  kindMark: ['the lock code says', '锁代码的标记'],
  kindInit: ['initial data', '初始数据'],
  kindExpire: ['a key expires', '键过期'],
  kindFault: ['a fault', '故障'],
  kindVerdict: ['the verdict', '结论'],
  // Following the newest step.
  follow: ['↓ Follow the newest step', '↓ 跟随最新一步'],
  followTip: ['The timeline stopped following because you scrolled or jumped to an event. Click to follow the newest step again.', '你滚动或跳转到了某个事件，时间线因此不再跟随。点击重新跟随最新一步。'],
  // Units.
  cursorTip: ['Steps count the engine’s moves (one Redis command delivered, one reply, one expiry…); the # numbers on the timeline count events, several per step.', '“步”是引擎的动作次数（投递一条命令、一个回复、一次过期……）；时间线上的 # 编号是事件编号，一步可能产生多个事件。'],
  eventsCount: ['{n} events', '{n} 个事件'],
  // Faults in plain words.
  fCrashTip: ['The client’s process dies now: it never releases what it holds.', '客户端进程立刻死掉：它持有的东西永远不会释放。'],
  fPauseTip: ['The client freezes for 1 second (a GC pause): its clock and its lock keep running.', '客户端冻结 1 秒（比如 GC 停顿）：时钟和锁的 TTL 照样在走。'],
  fDropReplyTip: ['The node runs the client’s next command but the reply is lost on the way back.', '节点执行了客户端的下一条命令，但回复在返回途中丢了。'],
  fDropRequestTip: ['The client’s next command is lost before it reaches the node.', '客户端的下一条命令在到达节点前丢了。'],
  fPartitionTip: ['Cut the node off from everyone for 2 seconds.', '把这个节点与所有人隔开 2 秒。'],
  fNodeCrashTip: ['The node goes down (until you restart it).', '节点宕机（直到你重启它）。'],
  fNodeRestartTip: ['Bring a downed node back, without its data.', '让宕机的节点恢复，但数据丢失。'],
  fClockJumpTip: ['The node’s clock jumps 5 seconds ahead: its keys expire early.', '节点的时钟向前跳 5 秒：它上面的键提前过期。'],
  fFailoverTip: ['The master dies and its replica is promoted, with whatever it has received so far.', '主节点死掉，它的副本被提升为主节点，只带着它已经收到的数据。'],
  faultClient: ['Client', '客户端'],
  faultNode: ['Node', '节点'],
  noFaults: ['No fault applies now.', '现在没有可以注入的故障。'],
  stuck: ['No one can make progress: every node is down. Restart a node, or run to the end to see the verdict.', '没有人能继续推进：所有节点都宕机了。重启一个节点，或者跑到结尾看结论。'],
  runOver: ['The run is over: nobody has a move left.', '运行已结束：没有人还能行动。'],
  // Counters.
  counters: ['Counters', '计数'],
  countersNone: ['No counted events yet.', '还没有计数的事件。'],
  // Your own scenarios.
  yourFile: ['Your file', '你的文件'],
  labs: ['Labs', '实验'],
  lessons: ['Lessons', '课程'],
  expectContradicted: ['expect: {want}, but this run ended with {got}', 'expect 写的是 {want}，但这次运行的结论是 {got}'],
  editorEmpty: ['Loading the current scenario…', '正在载入当前场景…'],
  // The connection.
  takenOver: ['This session is now open in another tab; this tab stopped driving it.', '这个会话已在另一个标签页中打开；本标签页不再控制它。'],
  takeBack: ['Take it back', '收回控制'],
  caption: ['{title} · seed {seed} · step {step} · {verdict}', '{title} · 种子 {seed} · 第 {step} 步 · {verdict}'],
  noVerdictYet: ['no verdict yet', '尚无结论'],
  dismiss: ['Dismiss', '关闭'],
  selectedHint: ['↑ / ↓ select rows', '↑ / ↓ 选择行'],
  docTitle: ['Lockstep — distributed locks, one step at a time', 'Lockstep —— 一步一步看分布式锁'],
  runControls: ['Run controls', '运行控制'],
  timelineLabel: ['Timeline', '时间线'],
  eventsLabel: ['Events', '事件'],
  kSelect: ['Select the previous / next event (timeline focused)', '选择上一个 / 下一个事件（时间线获得焦点时）'],
  // the schedule search panel (explore.js)
  exploreTitle: ['Find a bad schedule', '找一个出错的调度'],
  exploreFind: ['Find', '搜索'],
  exploreCancel: ['Cancel', '取消'],
  exploreBudget: ['Fault budget, e.g. pause:5s (empty: the lesson\'s own faults)', '故障预算，例如 pause:5s（留空：用本课自己的故障）'],
  exploreBudgetLabel: ['Fault budget', '故障预算'],
  exploreStrategy: ['Strategy', '搜索策略'],
  exploreRandom: ['random', '随机'],
  exploreExhaustive: ['exhaustive', '穷举'],
  exploreSearching: ['Searching…', '搜索中…'],
  exploreProgress: ['{n} schedules, {d} distinct, {s}s', '{n} 个调度，{d} 个不同，{s} 秒'],
  exploreFound: ['Found {v} after {n} schedules; the shrunk run is loaded: {m} moves.', '搜索了 {n} 个调度后发现 {v}；精简后的运行已载入：{m} 个动作。'],
  exploreNone: ['No violation in {n} schedules (the search stopped at its limit).', '{n} 个调度中没有发现问题（搜索已到上限）。'],
  exploreAll: ['No violation in any of {n} schedules within the bound.', '在界限内的全部 {n} 个调度中都没有发现问题。'],
  exploreCancelled: ['Cancelled after {n} schedules.', '已取消，共搜索 {n} 个调度。'],
  exploreFailed: ['The search failed: {e}', '搜索失败：{e}'],
};

// The names the lock code, the engine and the checker give their marks and
// faults, in plain words.
const NAMES = {
  acquired: ['acquired', '拿到锁'], enter: ['enter', '进入'], leave: ['leave', '离开'],
  released: ['released', '已释放'], 'release-refused': ['release refused', '拒绝释放'],
  deduct: ['deduct', '扣库存'], bought: ['bought', '买到'], listed: ['listed', '上架'],
  retry: ['retry', '重试'], 'sold-out': ['sold out', '卖完了'], missed: ['missed', '没买到'],
  empty: ['empty', '空'], dispatch: ['dispatch', '分派'], expired: ['expired', '已过期'],
  kept: ['kept', '未释放'], 'local-lock': ['local lock', '本地加锁'], 'local-unlock': ['local unlock', '本地解锁'],
  'local-wait': ['local wait', '本地等待'], 'no-quorum': ['no quorum', '未过半'], quorum: ['quorum', '过半'],
  'too-late': ['too late', '太晚了'], reenter: ['re-enter', '重入'], 'renew-lost': ['renewal lost', '续期失败'],
  renewed: ['renewed', '已续期'], repair: ['repair', '修复'], replicated: ['replicated', '已复制'],
  token: ['token', '令牌'], 'wait-blocked': ['WAIT blocked', 'WAIT 阻塞'], 'write-rejected': ['write rejected', '写入被拒'],
  wrote: ['wrote', '已写入'], 'gave-up': ['gave up', '放弃'], failed: ['failed', '失败'],
  crash: ['crash', '崩溃'], pause: ['pause', '停顿'], resume: ['resume', '恢复运行'],
  'drop-request': ['request dropped', '请求被丢弃'], 'drop-reply': ['reply dropped', '回复被丢弃'],
  partition: ['partition', '网络分区'], heal: ['heal', '分区恢复'], 'node-crash': ['node down', '节点宕机'],
  'node-restart': ['node restart', '节点重启'], 'clock-jump': ['clock jump', '时钟跳变'], skew: ['clock skew', '时钟偏移'],
  failover: ['failover', '主从切换'], 'clock-offset': ['clock offset', '时钟偏移'],
  refused: ['refused', '被拒绝'], request: ['request lost', '请求丢失'], reply: ['reply lost', '回复丢失'],
};

/** name gives a mark's or fault's name in plain words. */
export function name(n, lang) {
  const s = NAMES[n];
  if (!s) return n;
  return lang === 'zh' ? s[1] : s[0];
}

// The notes the engine and the lock code write on events, as patterns with
// their Chinese. A note no pattern knows stays as written.
const NOTES = [
  [/^TTL ran out; (\S+)'s lock is gone$/, 'TTL 到期，$1 的锁没了'],
  [/^TTL ran out$/, 'TTL 到期'],
  [/^cleanup job deleted the rows older than (\S+) \(created_ms < (\d+)\): (\d+) row\(s\); (\S+)'s lock is gone$/, '清理任务删除了早于 $1 的行（created_ms < $2）：$3 行；$4 的锁没了'],
  [/^cleanup job deleted the rows older than (\S+) \(created_ms < (\d+)\): (\d+) row\(s\)$/, '清理任务删除了早于 $1 的行（created_ms < $2）：$3 行'],
  [/^(\S+)'s clock jumps by (\S+)$/, '$1 的时钟跳了 $2'],
  [/^(\S+) crashed$/, '$1 崩溃了'],
  [/^(\S+) dies before replicating (.+) \(lost\); replica is promoted: clients asking for (\S+) now reach (\S+)$/, '$1 在把 $2 复制出去之前死了（丢失）；副本被提升：访问 $3 的客户端现在连到 $4'],
  [/^(\S+) dies with every write replicated; replica is promoted: clients asking for (\S+) now reach (\S+)$/, '$1 死了，所有写入都已复制；副本被提升：访问 $2 的客户端现在连到 $3'],
  [/^(\S+) is down$/, '$1 宕机了'],
  [/^(\S+) is back, empty \(no persistence\)$/, '$1 恢复了，但数据是空的（没有持久化）'],
  [/^(\S+) is back(.*)$/, '$1 恢复了$2'],
  [/^(\S+) is cut off from (\S+)$/, '$1 与 $2 之间的网络断开'],
  [/^(\S+) stops the world for (\S+)$/, '$1 停顿（stop-the-world）$2'],
  [/^(\S+) runs again$/, '$1 恢复运行'],
  [/^replica of (\S+) \(lag (\S+)\): full sync$/, '$1 的副本（延迟 $2）：全量同步'],
  [/^the request never reached (\S+)$/, '请求没有到达 $1'],
  [/^the reply never reached (\S+)$/, '回复没有到达 $1'],
  [/^hold (\d+) of (\d+)$/, '重入计数 $1 / $2'],
  [/^hold (\d+) of (\d+) given back$/, '归还一层（$1 / $2）'],
  [/^stock (\S+) -> (\S+)$/, '库存 $1 → $2'],
  [/^request (\S+) runs on pool thread (\S+)$/, '请求 $1 在线程池线程 $2 上运行'],
  [/^nothing listed$/, '没有上架的商品'],
  [/^the lock's timestamp (\S+) has passed by this client's clock$/, '按这个客户端的时钟，锁的时间戳 $1 已经过了'],
  [/^the request ends without releasing: the unlock is left to a later callback$/, '请求结束时没有释放锁：解锁留给之后的回调'],
  [/^local mutex$/, '本地互斥锁'],
  [/^local mutex is held by (\S+)$/, '本地互斥锁被 $1 持有'],
  [/^(\S+) was already sold$/, '$1 已经被卖掉了'],
  [/^(\d+)\/(\d+) in (\S+), need (\d+): releasing on every master$/, '$3 内拿到 $1/$2 票，需要 $4 票：在每个主节点上释放'],
  [/^(\d+)\/(\d+) in (\S+), validity (\S+) = ttl (\S+) - elapsed (\S+) - drift (\S+): no time left, releasing on every master$/, '$3 内拿到 $1/$2 票，有效期 $4 = TTL $5 − 耗时 $6 − 漂移 $7：没有剩余时间，在每个主节点上释放'],
  [/^(\d+)\/(\d+) in (\S+), validity (\S+) = ttl (\S+) - elapsed (\S+) - drift (\S+)$/, '$3 内拿到 $1/$2 票，有效期 $4 = TTL $5 − 耗时 $6 − 漂移 $7'],
  [/^asks again for the lock it holds \(hold (\d+) of (\d+)\)$/, '再次请求自己已持有的锁（重入计数 $1 / $2）'],
  [/^the lock was no longer ours; left it alone$/, '锁已经不是我们的了；不去动它'],
  [/^the lock is no longer ours: the watchdog stops$/, '锁已经不是我们的了：看门狗停止'],
  [/^expire (\S+)$/, '续期到 $1'],
  [/^the lock has no TTL: its holder died before EXPIRE; setting it$/, '锁没有 TTL：持有者在 EXPIRE 之前就死了；现在补上'],
  [/^WAIT: (\d+) of (\d+) replicas have the lock$/, 'WAIT：$2 个副本中有 $1 个拿到了锁'],
  [/^WAIT blocks: (\S+) has applied (\d+) of the (\d+) writes shipped$/, 'WAIT 阻塞：$1 只应用了已发送的 $3 个写入中的 $2 个'],
  [/^(\S+) died while the WAIT was blocked$/, '$1 在 WAIT 阻塞期间死了'],
  [/^EXEC answered nil: a watched key changed \(retry (\d+)\)$/, 'EXEC 返回 nil：被监视的键变了（第 $1 次重试）'],
  [/^no stock left$/, '没有库存了'],
  [/^fencing token (\S+)$/, 'fencing 令牌 $1'],
  [/^the storage refused fencing token (\S+)$/, '存储拒绝了 fencing 令牌 $1'],
  [/^the storage accepted fencing token (\S+)$/, '存储接受了 fencing 令牌 $1'],
  [/^the storage accepted the write$/, '存储接受了写入'],
  [/^rejected: (.+) \(the highest token seen is (\d+)\)$/, '被拒绝：$1（见过的最大令牌是 $2）'],
  [/^not applied: (.+)$/, '未执行：$1'],
  [/^new connection: (.+)$/, '新连接：$1'],
];

// The scenario checker's problems (internal/scenario), as patterns with
// their Chinese; a problem no pattern knows stays as written.
const PROBLEMS = [
  [/^unknown field "([^"]+)" — did you mean "([^"]+)"\?$/, '未知字段 "$1"——你是想写 "$2" 吗？'],
  [/^unknown field "([^"]+)" in (\S+) \(fields: (.+)\)$/, '$2 中没有字段 "$1"（可用字段：$3）'],
  [/^unknown parameter "([^"]+)" for algorithm (\S+) — did you mean "([^"]+)"\?$/, '算法 $2 没有参数 "$1"——你是想写 "$3" 吗？'],
  [/^unknown parameter "([^"]+)" for algorithm (\S+) \(parameters: (.+)\)$/, '算法 $2 没有参数 "$1"（可用参数：$3）'],
  [/^unknown (\S+) "([^"]+)" — did you mean "([^"]+)"\?$/, '未知的 $1 "$2"——你是想写 "$3" 吗？'],
  [/^unknown (\S+) "([^"]+)" \(known: (.+)\)$/, '未知的 $1 "$2"（已知：$3）'],
  [/^no (\S+) "([^"]+)" in this scenario — did you mean "([^"]+)"\?$/, '这个场景里没有 $1 "$2"——你是想写 "$3" 吗？'],
  [/^no (\S+) "([^"]+)" in this scenario \((.+)\)$/, '这个场景里没有 $1 "$2"（$3）'],
  [/^(field|key) "([^"]+)" is set twice \(first at line (\d+)\)$/, '"$2" 写了两次（第一次在第 $3 行）'],
  [/^verdict "([^"]+)" is listed twice$/, '结论 "$1" 列了两次'],
  [/^safe means no violation at all: it cannot be listed with other verdicts$/, 'safe 表示没有任何违规：不能和其他结论一起列出'],
  [/^node "([^"]+)" cannot be a replica of itself$/, '节点 "$1" 不能是自己的副本'],
  [/^merge keys \(<<\) are not allowed: write the fields out$/, '不允许合并键（<<）：请把字段逐个写出'],
  [/^algorithm (\S+) takes no parameters, got "([^"]+)"$/, '算法 $1 不接受参数，却写了 "$2"'],
  [/^a schedule entry happens at a step: it takes step:, not at: or on:$/, 'schedule 的条目发生在某一步：用 step:，不要用 at: 或 on:'],
  [/^a fault needs at: \(a time\) or on: \(an event\)$/, '故障需要 at:（时间）或 on:（事件）'],
  [/^(.+) needs a node:$/, '$1 需要 node:'],
  [/^(.+) needs a client:$/, '$1 需要 client:'],
  [/^(.+): a duration cannot be negative here, got (.+)$/, '$1：这里的时长不能为负，却写了 $2'],
  [/^(.+): (.+) is longer than the limit of (.+)$/, '$1：$2 超过了上限 $3'],
  [/^(.+): want (.+), got (.+)$/, '$1：应为 $2，实际是 $3'],
  [/^bad duration "([^"]+)" \(write e\.g\. 3s, 150ms or 1m\)$/, '时长 "$1" 写错了（请写成 3s、150ms 或 1m 这样）'],
  [/^the file is (\S+) KiB; the limit is 64 KiB$/, '文件有 $1 KiB，上限是 64 KiB'],
];

/** problem gives a scenario file's problem in lang. */
export function problem(text, lang) {
  if (!text || lang !== 'zh') return text || '';
  for (const [re, zh] of PROBLEMS) if (re.test(text)) return text.replace(re, zh);
  return text;
}

/** note gives an event's note in lang. */
export function note(text, lang) {
  if (!text || lang !== 'zh') return text || '';
  for (const [re, zh] of NOTES) if (re.test(text)) return text.replace(re, zh);
  return text;
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
};

/** serverError renders an error message from the server: its code and
 * arguments when it has them, else its text. */
export function serverError(m, lang) {
  const s = m.code && ERRORS[m.code];
  if (!s) return m.error || '';
  let out = lang === 'zh' ? s[1] : s[0];
  for (const [k, v] of Object.entries(m.args || {})) out = out.split('{' + k + '}').join(String(v));
  return out;
}

/** fill replaces {name} in a catalogue string with values. */
export function fill(key, lang, vals = {}) {
  let s = t(key, lang);
  for (const [k, v] of Object.entries(vals)) s = s.split('{' + k + '}').join(String(v));
  return s;
}

export const KEYS = [
  ['Space, →, .', 'kStep'], ['←', 'kBack'], ['P', 'kPlay'], ['Home', 'kReset'], ['End', 'kEnd'],
  ['PageDown / PageUp', 'kClicker'], ['↑ / ↓', 'kSelect'], ['F', 'kPresenter'], ['L', 'kLang'], ['?', 'kHelp'],
];

/** t gives the string for key in lang ('en' or 'zh'). */
export function t(key, lang) {
  const s = S[key];
  if (!s) return key;
  return lang === 'zh' ? s[1] : s[0];
}

/** pick chooses the en or zh side of a {en, zh} text. */
export function pick(text, lang) {
  if (!text) return '';
  return (lang === 'zh' ? text.zh : text.en) || text.en || text.zh || '';
}

/** apply rewrites every element with data-i18n under root. */
export function apply(root, lang) {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('docTitle', lang);
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = t(el.dataset.i18n, lang);
  }
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    el.title = t(el.dataset.i18nTitle, lang);
  }
  for (const el of root.querySelectorAll('[data-i18n-group]')) {
    el.label = t(el.dataset.i18nGroup, lang);
  }
  for (const el of root.querySelectorAll('[data-i18n-label]')) {
    el.setAttribute('aria-label', t(el.dataset.i18nLabel, lang));
  }
}
