// Every UI string in English and 中文. t(key, lang) picks one; apply()
// rewrites the elements that carry data-i18n.

import { untranslated } from './messages.js';

const S = {
  scenario: ['Scenario', '场景'],
  customOption: ['Your own YAML…', '自己写 YAML…'],
  presenter: ['Presenter', '演示模式'],
  expected: ['Expected verdict:', '预期结论：'],
  lessonPlan: ['The lesson\'s plan (this run has left it at step {step}):', '课程原本的安排（这次运行已在第 {step} 步离开它）：'],
  lessonPlanChallenge: ['The lesson\'s plan (the challenge runs without its script: you schedule this run):', '课程原本的安排（挑战不按剧本运行：这次运行由你调度）：'],
  expectedPlan: ['The lesson expected (this run has left its script):', '课程预期的结论（这次运行已离开剧本）：'],
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
  fPause: ['Pause {d}', '停顿 {d}'],
  fDropReply: ['Drop next reply', '丢弃下一个回复'],
  fDropRequest: ['Drop next request', '丢弃下一个请求'],
  fPartition: ['Partition {d}', '网络分区 {d}'],
  fNodeCrash: ['Kill node', '关掉节点'],
  fNodeRestart: ['Restart node', '重启节点'],
  fClockJump: ['Clock +{d}', '时钟 +{d}'],
  fFailover: ['Fail over', '主从切换'],
  share: ['Share and export', '分享与导出'],
  shareLink: ['Copy link to this view', '复制此视图的链接'],
  cmpShare: ['Copy link', '复制链接'],
  exportJSON: ['Event log (JSON)', '事件日志 (JSON)'],
  exportRows: ['A slide (16:9) of', '导出一页幻灯片 (16:9)：'],
  exportView: ['the rows in view', '当前可见的行'],
  exportRange: ['rows from … to …', '从第…行到第…行'],
  exportFrom: ['From event #', '起始事件 #'],
  exportTo: ['To event #', '结束事件 #'],
  exportBadRange: ['No event between #{a} and #{b} to export.', '#{a} 到 #{b} 之间没有可导出的事件。'],
  saveYAML: ['Save run as YAML', '把这次运行存为 YAML'],
  openYAML: ['Open YAML…', '打开 YAML…'],
  editor: ['Write a scenario (YAML)', '编写场景 (YAML)'],
  run: ['Run it', '运行'],
  check: ['Check', '检查'],
  helpTitle: ['Keyboard', '快捷键'],
  helpRead: ['Read the timeline top to bottom: each row is one thing that happened. Arrows are Redis commands going from a client to a node and the reply coming back. Thick bars are critical sections; tapering bars on a node are a lock\'s remaining TTL.',
    '时间线从上往下读：每一行是发生的一件事。箭头是客户端发给节点的 Redis 命令以及返回的回复。粗条是临界区；节点旁逐渐变窄的条是锁剩余的 TTL。'],
  close: ['Close', '关闭'],
  lanesLabel: ['Lanes: a client\'s name lets it make its next move', '泳道：点客户端的名字让它走下一步'],
  lessonMore: ['More ▾', '展开 ▾'],
  lessonLess: ['Less ▴', '收起 ▴'],
  storyAhead: ['The run is under way. Its story is told here as it happens, never ahead of it.', '运行已经开始。这里随着事情的发生讲述它的经过，绝不提前透露。'],
  welcome: ['Press Step (or the space bar) to run one Redis command at a time. Each row of the timeline is one thing that happened; read it top to bottom.',
    '按“下一步”（或空格键）每次执行一条 Redis 命令。时间线的每一行是发生的一件事，从上往下读。'],
  nothingYet: ['Nothing has happened yet.', '还什么都没发生。'],
  running: ['Running… no verdict until the run ends.', '运行中……运行结束后才有结论。'],
  kept: ['no {v}: stopped', '没有{v}：被挡住了'],
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
  tooBig: ['the file is {n} KiB; the limit is {max} KiB', '文件有 {n} KiB，上限是 {max} KiB'],
  liveLessons: ['On a live server, in real time', '在真实服务器上，实时运行'],
  liveBanner: ["Real time on a real {service} server ({server}), not the virtual clock: the run goes on at the server's own pace from your first step, and a paused view does not pause it. The same schedule gives the same verdict, not the same milliseconds.", '这次运行在真实的 {service} 服务器上实时进行（{server}），不是虚拟时钟：从你走第一步起，它按服务器自己的节奏运行，暂停界面并不会暂停它。同样的安排得到同样的结论，但不是同样的毫秒数。'],
  liveLeaseBar: ["The lease's bar is what is left of the holder's lease as its client last heard.", '租约条表示持有者的租约还剩多少（以它的客户端最后一次听到的为准）。'],
  liveNotStarted: ['it starts with your first step', '从你走第一步时启动'],
  realBanner: ["Real Redis ({urls}). Time runs on Redis' clock from your first step: a paused view does not pause Redis, so TTLs run out meanwhile and the next step shows those expiries first. Node clock jumps are not applied. Seeking back replays the run from the start, in real time. Redis ran each command between the moment it went out and the moment its reply came in (the grey whisker beside it); each expiry is one Redis reported.", '真实 Redis（{urls}）。从你走第一步起，时间以 Redis 的时钟为准：暂停界面并不会暂停 Redis，TTL 照样流逝，下一步会先显示这些过期。节点时钟跳变不会执行。向后跳转会从头实时重放。Redis 在命令发出到回复收到之间执行了它（旁边的灰色误差线）；每次过期都是 Redis 自己报告的。'],
  onReal: ['on real Redis:', '在真实 Redis 上：'],
  errorsNone: ['No errors.', '没有错误。'],
  warningLabel: ['Note: ', '提醒：'],
  editorStale: ['This text is yours, not the scenario loaded.', '这段文字是你写的，不是当前加载的场景。'],
  editorStaleLoad: ['Show the loaded one', '显示当前加载的场景'],
  editorDraft: ['This is the scenario loaded; your text is kept.', '这是当前加载的场景；你写的文字还留着。'],
  editorDraftBack: ['Back to my text', '回到我写的文字'],
  lineAt: ['line {line}', '第 {line} 行'],
  lineColAt: ['line {line}:{col}', '第 {line} 行第 {col} 列'],
  kStep: ['Step one move', '前进一步'],
  kBack: ['Step back', '后退一步'],
  kPlay: ['Play / pause', '播放 / 暂停'],
  kReset: ['Reset', '重来'],
  kEnd: ['Run to the end', '跑到结尾'],
  kPresenter: ['Presenter mode (large type)', '演示模式（大字）'],
  kTime: ['Time to scale: rows placed by virtual time, or one row per event', '按时间比例排布，或每个事件一行'],
  timeScale: ['Time to scale', '按时间比例'],
  timeScaleTip: ['Place the rows by virtual time (T): a 100 ms wait is 100 px and a 1 ms reply sits right under its request; an idle stretch over 0.6 s is cut short and marked with its length. Each node’s clock shows under its name.', '按虚拟时间排布各行（T）：等 100 毫秒就隔 100 像素，1 毫秒的回复紧挨着请求；超过 0.6 秒的空闲段会被压缩，并标出时长。每个节点名下显示它的时钟。'],
  timeBreak: ['⋯ {d} with nothing happening ⋯', '⋯ {d} 无事发生 ⋯'],
  clockTip: ['{who}’s clock at the cursor: the world’s time {now}, {d}.', '光标处 {who} 的时钟：世界时间 {now}，{d}。'],
  clockRight: ['on time', '准时'],
  clockAhead: ['{d} ahead', '快 {d}'],
  clockBehind: ['{d} behind', '慢 {d}'],
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
  replicate: ['replicate', '复制'],
  push: ['push', '推送'],
  gone: ['gone', '已删除'],
  items: ['{n} items', '{n} 项'],
  gutterHead: ['# event · time', '# 事件 · 时间'],
  gutterHeadNarrow: ['# event', '# 事件'],
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
  fPauseTip: ['The client freezes for {d} (a GC pause): its clock and its lock keep running.', '客户端冻结 {d}（比如 GC 停顿）：时钟和锁的 TTL 照样在走。'],
  fDropReplyTip: ['The node runs the client’s next command but the reply is lost on the way back.', '节点执行了客户端的下一条命令，但回复在返回途中丢了。'],
  fDropRequestTip: ['The client’s next command is lost before it reaches the node.', '客户端的下一条命令在到达节点前丢了。'],
  fPartitionTip: ['Cut the node off from everyone for {d}.', '把这个节点与所有人隔开 {d}。'],
  fNodeCrashTip: ['The node goes down (until you restart it).', '节点宕机（直到你重启它）。'],
  fNodeRestartTip: ['Bring a downed node back, without its data.', '让宕机的节点恢复，但数据丢失。'],
  fClockJumpTip: ['The node’s clock jumps {d} ahead: its keys expire early.', '节点的时钟向前跳 {d}：它上面的键提前过期。'],
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
  stalePage: ['This page and the server speak different versions of their protocol (the server was updated): reload the page.', '这个页面与服务器使用的协议版本不同（服务器已更新）：请重新载入页面。'],
  reload: ['Reload', '重新载入'],
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
  kSelect: ['Select the previous / next event (timeline focused; in Side by side a row of both runs, Enter goes to it)', '选择上一个 / 下一个事件（时间线获得焦点时；并排对比中选中两边的同一行，Enter 跳到那里）'],
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
  exploreFound: ['Found {v} after {n} schedules; the shrunk run is loaded ({m} moves and faults).', '搜索了 {n} 个调度后发现 {v}；精简后的运行已载入（{m} 个动作和故障）。'],
  exploreSampled: ['None found in {n} sampled schedules ({s} search): not a proof. Searched: {b}.', '在抽样的 {n} 个调度中没有发现问题（{s}搜索）：这不是证明。搜索范围：{b}。'],
  explorePartial: ['None found in the first {n} schedules: the exhaustive search stopped at its limit before covering them all, so this is not a proof. Bound: {b}.', '前 {n} 个调度中没有发现问题：穷举搜索在覆盖全部调度之前就到了上限，所以这不是证明。界限：{b}。'],
  exploreAll: ['No violation in any of {n} schedules within the bound: {b}.', '在界限内的全部 {n} 个调度中都没有发现问题。界限：{b}。'],
  exploreCancelled: ['Cancelled after {n} schedules: nothing found so far, which proves nothing.', '已取消，共搜索 {n} 个调度：目前没有发现问题，但这证明不了什么。'],
  exploreFailed: ['The search failed: {e}', '搜索失败：{e}'],
  // ---- Side by side (compare.js) ----
  repOpen: ['Which lock?', '选哪把锁？'],
  // Check my lock: the card for the user's own setup (report.js, mode mine).
  repMine: ['Check my lock', '检查我的锁'],
  repMineTip: ['Your own lock, checked: the scenario loaded, or a lock you describe in a short form, beside every catalog lock in its workload, against each fault', '检查你自己的锁：已加载的场景，或你在简短的表里描述的锁，与目录里的每一把锁一起放进它的工作负载，对每一种故障检查'],
  repMineTitle: ['Check my lock: {id}', '检查我的锁：{id}'],
  repMineHint: ['Your locks first, then every catalog lock, each placed in your workload. Click a ✗ to watch its counterexample on your setup; a ✓ or ~ says beside it the bound it covers.', '先是你的锁，然后是目录里的每一把锁，每一把都放进你的工作负载。点击 ✗ 可以看它在你的设置上的反例；✓ 和 ~ 旁边写着它覆盖的界限。'],
  repMineStarting: ['Running each lock alone first…', '先让每把锁单独运行一次……'],
  repMineProgress: ['{n} of {total} cells searched, {w} at a time (time budget {limit})…', '已搜索 {n} / {total} 格，每次 {w} 格（时间预算 {limit}）……'],
  repMineDone: ['Every cell searched: {n} cells.', '全部 {n} 格都已搜索完。'],
  repMineStopped: ['The card stopped: {e}', '报告卡停止了：{e}'],
  repMineSetup: ['Your setup: {s}.', '你的设置：{s}。'],
  repMineYours: ['yours', '你的'],
  repMineCancel: ['Cancel', '取消'],
  repMineExport: ['Download as Markdown', '下载为 Markdown'],
  repMineExportTip: ['The card for a design review, in English and 中文: the same text as visualizer report --file --markdown', '用于设计评审的报告卡（英文和中文）：与 visualizer report --file --markdown 的内容相同'],
  // Check my lock's short form (mineform.js).
  rfTitle: ['Fill a short form: your lock, your workload, the faults you fear', '填一张简短的表：你的锁、你的工作负载、你担心的故障'],
  rfHint: ['Paste your acquire and release as Lua (KEYS[1] is the lock key, ARGV[1] the client\'s token, ARGV[2] the TTL in ms) or as commands, one a line (SET $key $token NX PX $ttl => OK: after => the reply that means success); or pick a catalog lock. The scenario it makes goes into the editor, for you to keep.', '把你的加锁和释放粘贴为 Lua（KEYS[1] 是锁的键，ARGV[1] 是客户端的令牌，ARGV[2] 是以毫秒计的 TTL），或粘贴为命令，每行一条（SET $key $token NX PX $ttl => OK：=> 后面是表示成功的回复）；也可以选一把目录里的锁。生成的场景会放进编辑器，供你保存。'],
  rfLock: ['Lock', '锁'],
  rfPaste: ['— my own, pasted below —', '— 我自己的，粘贴在下面 —'],
  rfAcquire: ['Acquire (Lua or commands)', '加锁（Lua 或命令）'],
  rfAcquireOK: ['Acquire\'s success reply', '加锁成功的回复'],
  rfRelease: ['Release (Lua or commands)', '释放（Lua 或命令）'],
  rfReleaseOK: ['Release\'s success reply', '释放成功的回复'],
  rfWorkers: ['Workers (1–16)', '工作者数（1–16）'],
  rfTTL: ['TTL', 'TTL（租约）'],
  rfWork: ['Work', '工作时间'],
  rfRetry: ['Retry every', '重试间隔'],
  rfFaults: ['The faults you fear (the card searches only these)', '你担心的故障（报告卡只搜索这些）'],
  rfRun: ['Check this lock', '检查这把锁'],
  rfNoFault: ['Tick at least one fault.', '请至少勾选一种故障。'],
  repMineExportHTML: ['Download as HTML', '下载为 HTML'],
  repMineExportHTMLTip: ['The card as one page that opens offline, in English and 中文: each ✗ linked to its counterexample as YAML, your code beside the recommended lock\'s (visualizer report --file --html)', '报告卡做成一个可离线打开的网页（英文和中文）：每个 ✗ 链接到它的反例 YAML，你的代码与推荐的锁的代码并排（visualizer report --file --html）'],
  repInstead: ['What to use instead', '改用什么'],
  repInsteadEvery: ['What to use instead: these hold in every column (ranked by what they need beyond one Redis node, then round trips).', '改用什么：这些锁在每一列都成立（先按除一个 Redis 节点之外还需要什么排序，再按往返次数）。'],
  repInsteadClosest: ['What to use instead: no lock held (✓ or ~) in every column; the closest:', '改用什么：没有一把锁在每一列都成立（✓ 或 ~）；最接近的是：'],
  repInsteadNone: ['What to use instead: no other lock was searched to the end of every column (a ? gives no advice).', '改用什么：没有其他锁在每一列都搜索完（? 不产生建议）。'],
  repInsteadWaiting: ['What to use instead: once every cell is searched.', '改用什么：等所有格子都搜索完。'],
  repInsteadCounts: ['{h} ✓, {s} ~', '{h} 个 ✓，{s} 个 ~'],
  repInsteadFails: ['fails {c}', '在 {c} 失败'],
  repInsteadNA: ['n/a {c}', '{c} 不适用'],
  repSideBySide: ['Side by side', '并排对比'],
  repCodeSummary: ['Its acquire and release beside yours', '它的加锁与释放，与你的并排'],
  repCodeYours: ['Yours:', '你的：'],
  repCodeInstead: ['Instead:', '改用：'],
  repCodeAcquire: ['acquire', '加锁'],
  repCodeRelease: ['release', '释放'],
  repSideBySideTip: ['Run {scenario} with {lock} in place of your lock, under the same schedule', '用 {lock} 替换你的锁运行 {scenario}，调度相同'],
  repTitle: ['Which lock? Every lock against every fault, proven by search', '选哪把锁？每一把锁对每一种故障，由搜索证明'],
  repProgress: ['{n} of {total} cells decided…', '已得出 {n} / {total} 格……'],
  repStarting: ['Running each lock alone first…', '先让每把锁单独运行一次……'],
  repDone: ['Every cell decided: {n} cells.', '全部 {n} 格都已得出结果。'],
  repStored: ['Every cell decided: {n} cells, searched when this build was made.', '全部 {n} 格都已得出结果：在构建这个版本时搜索得出。'],
  repStopped: ['The card stopped: {e}', '报告卡停止了：{e}'],
  repLock: ['lock', '锁'],
  repLockTip: ['{id}: {title}. Click to read its row in full.', '{id}：{title}。点击可读完整的一行。'],
  repNotSearched: ['not searched', '未搜索'],
  repNoneFound: ['none found', '未发现'],
  repNA: ['n/a', '不适用'],
  repLegend: ['✗ a schedule breaks it (click it to watch) · ✓ no schedule breaks it within the bound beside it: clients × requests each · the lease · ~ none found in the schedules sampled (not a proof) · ? not searched: the card\'s time ran out · n/a the fault cannot hit this lock',
    '✗ 有调度能打破它（点击观看） · ✓ 在旁边写的界限内没有调度能打破它：客户端数 × 每个的请求数 · 租约 · ~ 在抽样的调度中没有发现（不是证明） · ? 未搜索：报告卡的时间用完了 · 不适用：这种故障打不到这把锁'],
  repSearched: ['What each cell searched', '每一格搜索了什么'],
  repLive: ['On a live server, in real time: each cell a sample of real runs, not a search', '真实服务器，真实时间：每一格是真实运行的抽样，不是搜索'],
  repLiveBroke: ['{k} of {n} real runs', '{n} 次真实运行中 {k} 次'],
  repLiveNoBreak: ['no break in {n} real runs', '{n} 次真实运行都没有打破'],
  repLiveNotRun: ['not run here', '这里没有运行'],
  repTrips: ['round trips (acquire / release)', '往返（加锁 / 释放）'],
  repNeeds: ['needs', '需要'],
  repAdvice: ['use it when…', '什么时候用'],
  repPending: ['being searched', '搜索中'],
  repOpenCell: ['{lock} under {column}: open its schedule in the timeline', '{lock}：{column}——在时间线中打开它的调度'],
  repHint: ['Click a ✗ to open its counterexample in the timeline (or a fencing ✓ to see the storage refuse the late write); click a lock to read its row in full.', '点击 ✗ 会在时间线中打开它的反例（点击栅栏令牌的 ✓ 可以看到存储拒绝迟到的写入）；点击一把锁可读完整的一行。'],
  cmpOpen: ['Side by side', '并排对比'],
  cmpTitle: ['Side by side: the same faults, two locks', '并排对比：同样的故障，两把锁'],
  cmpWith: ['Compare with', '对比对象'],
  cmpGo: ['Compare', '对比'],
  cmpPair: ['{with} (the classic pair)', '{with}（经典对照）'],
  cmpAlgorithms: ['Algorithms (same clients)', '算法（同样的客户端）'],
  cmpLessonsSame: ['Lessons with the same clients ({clients})', '客户端相同的课程（{clients}）'],
  cmpLeft: ['This run', '当前运行'],
  cmpRight: ['Compared', '对照'],
  cmpRunning: ['Running both against the same faults…', '正在让两边经受同样的故障……'],
  cmpPick: ['Pick a second algorithm or lesson with the same clients, then Compare.', '选择第二个算法或客户端相同的课程，然后点“对比”。'],
  cmpSame: ['The two runs are the same: all {n} rows match.', '两次运行完全相同：{n} 行全部一致。'],
  cmpDiverge: ['The two runs part at row {row} (marked ▼ on both).', '两次运行从第 {row} 行开始分叉（两边都标有 ▼）。'],
  cmpSeed: ['Seed {seed}.', '种子 {seed}。'],
  cmpNoFaults: ['No faults: both sides run by the engine\'s own order.', '没有故障：两边都按引擎自己的顺序运行。'],
  cmpFaults: ['Faults, placed on the right where they mean the same (not at the same step):', '故障按含义放到右侧（不是按同一步）：'],
  cmpPlaced: ['(placed)', '（已施加）'],
  cmpNotPlaced: ['(no equivalent point on the right)', '（右侧没有对应的时机）'],
  cmpUnfair: ['Not the same test: the right did not face every fault of the left, so its verdict does not answer the left\'s question.', '不是同一个测试：右侧没有经受左侧的全部故障，所以它的结论回答不了左侧的问题。'],
  cmpNoRow: ['(this run has ended)', '（这次运行已结束）'],
  cmpSeek: ['Go to this moment in both runs', '两边都跳到这一刻'],
  cmpText: ['Rows as text', '文字行'],
  cmpTextTip: ['Show both runs as two columns of text rows (the drawn timelines again with a second press)', '把两次运行显示为两列文字行（再按一次回到时间线图）'],
  cmpFirst: ['Go to the first difference', '跳到第一处不同'],
  sbsEnded: ['(this run ended at row {row})', '（这次运行在第 {row} 行结束）'],
  sbsFirst: ['first difference: row {row}', '第一处不同：第 {row} 行'],
  sbsLabel: ['Both runs drawn as timelines, rows aligned: ↑ ↓ select a row, Enter goes to its moment in both runs', '两次运行画成时间线，行对齐：↑ ↓ 选择一行，Enter 让两边都跳到这一刻'],
  // ---- end of side by side ----
  // ---- The teaching tools: the code view (code.js), chapters (chapters.js), challenges (challenge.js) ----
  code: ['Code', '代码'],
  codeOf: ['The lock code {client} runs', '{client} 运行的锁代码'],
  codeAuto: ['follow', '跟随'],
  codeAutoTip: ['Follow the client of the newest command', '跟随最新命令所属的客户端'],
  codeShow: ['Lock code', '锁代码'],
  codeTip: ['Show or hide the lock code beside the timeline', '在时间线旁显示或隐藏锁的代码'],
  codeNone: ['{client} has sent no command of its lock yet.', '{client} 还没有发出锁的任何命令。'],
  codeWorkload: ['{client}\'s latest command ({cmd}) is the lesson\'s workload, not lock code.', '{client} 最近的命令（{cmd}）是课程的业务代码，不是锁代码。'],
  codeLast: ['Lit: its latest lock command, #{seq}.', '高亮的是它最近一条锁命令 #{seq}。'],
  codeCmd: ['#{seq} {kind}: {cmd}', '#{seq} {kind}：{cmd}'],
  codeVia: ['called from', '调用自'],
  codeScript: ['Lua script {name}, run on the node as one command', 'Lua 脚本 {name}，在节点上作为一条命令执行'],
  codeRan: ['Lit: the redis.call lines this run of the script executed.', '高亮：这次脚本执行到的 redis.call 行。'],
  codeAll: ['The script is about to run (or its node cannot tell which lines ran): the whole script is lit.', '脚本即将执行（或节点无法告知执行了哪些行）：整段脚本都高亮。'],
  codeLoading: ['Loading {file}…', '正在加载 {file}…'],
  codeOwn: ['{file} (declared in the scenario: its own lock, run as written)', '{file}（在场景中声明的锁，按原样运行）'],
  codeLib: ['{module}@{version} ({license}, the library\'s own code, run as it is) — {file}', '{module}@{version}（{license}，库自己的代码，原样运行）— {file}'],
  chapters: ['Chapters', '章节'],
  paced: ['Stop at each chapter when playing', '播放时在每一章停下'],
  beatStop: ['Stopped at a chapter: press Play to go on.', '已在一章处停下：按“播放”继续。'],
  chapterAt: ['step {step}', '第 {step} 步'],
  chaptersAhead: ['{n} more ahead: each chapter appears here once the run has reached it.', '后面还有 {n} 章：运行到那里时，它才会出现在这里。'],
  chaptersPlan: ['At step {step} you changed the run: the chapters below are the lesson\'s plan, not this run.', '你在第 {step} 步改变了这次运行：下面的章节是课程原本的安排，不是这次运行。'],
  challenge: ['Challenge', '挑战'],
  chTake: ['Take the challenge', '接受挑战'],
  chLeave: ['Back to the lesson', '回到课程'],
  chRetry: ['Try again', '再试一次'],
  chIntro: ['You schedule the run: step clients by hand (or Step), inject faults. Every step and every fault is a move. The lesson\'s own faults and narration are off.', '由你来调度：手动让客户端行动（或按“下一步”），注入故障。每一步、每个故障都算一步棋。课程自带的故障和旁白都已关闭。'],
  chMoves: ['Moves: {n} of {max}', '步数：{n} / {max}'],
  chFaults: ['Faults: {n} of {max}', '故障：{n} / {max}'],
  chMovesOver: ['Moves: {n}, {over} past the limit of {max}', '步数：{n}，超出上限 {max} 步 {over} 步'],
  chFaultsOver: ['Faults: {n}, {over} past the limit of {max}', '故障：{n}，超出上限 {max} 个 {over} 个'],
  chWon: ['Won! The checker found it at #{at}.', '成功！检查器在 #{at} 发现了它。'],
  chNotYet: ['Not yet.', '还没有达成。'],
  chLate: ['Reached at #{at}, but with too many {what}: step back and find a shorter way.', '在 #{at} 达成了，但{what}用得太多：后退一步，找条更短的路。'],
  chOver: ['Out of moves: step back or try again.', '步数用完了：后退一步或再试一次。'],
  chOverFaults: ['Too many faults: step back or try again.', '故障用得太多了：后退一步或再试一次。'],
  chEnded: ['The run is over and the goal was not reached.', '运行已结束，目标没有达成。'],
  wMoves: ['moves', '步数'],
  wFaults: ['faults', '故障'],
  chHint: ['Show a hint', '给个提示'],
  chHintN: ['Hint {n}', '提示 {n}'],
  chDebrief: ['Debrief', '复盘'],
  chProof: ['The events that prove it:', '证明它的事件：'],
  chGoal: ['Goal', '目标'],
  chOffScript: ['You changed this run at step {step}, but it is the lesson\'s run, not the challenge: nothing done here counts toward the goal. Take the challenge to have your moves counted.', '你在第 {step} 步改变了这次运行，但这是课程的运行，不是挑战：在这里做的事都不计入目标。接受挑战后，你的每一步才会计数。'],
  // ---- end of the teaching tools ----

};

// The names the lock code, the engine and the checker give their marks and
// faults, in plain words.
const NAMES = {
  acquired: ['acquired', '拿到锁'], enter: ['enter', '进入'], leave: ['leave', '离开'],
  released: ['released', '已释放'], 'release-refused': ['release refused', '拒绝释放'],
  read: ['read', '已读库存'], deduct: ['deduct', '扣库存'], bought: ['bought', '买到'], listed: ['listed', '上架'],
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
  'not-replicated': ['not replicated', '未复制到副本'], 'release-failed': ['release failed', '释放失败'],
  'renew-failed': ['renewal failed', '续期出错'], restart: ['restart', '重启'],
  refused: ['refused', '被拒绝'], request: ['request lost', '请求丢失'], reply: ['reply lost', '回复丢失'],
  'valid-until': ['valid until', '有效期至'], extended: ['extended', '已延期'], 'extend-failed': ['extend failed', '延期失败'],
  'no-extend': ['no extend loop', '没有延期循环'], refreshed: ['refreshed', '已刷新'], 'refresh-failed': ['refresh failed', '刷新失败'],
  'no-refresh': ['no refresh loop', '没有刷新循环'], 'session-done': ['session done', '会话结束'], 'no-watchdog': ['no watchdog', '没有看门狗'],
  'session-expired': ['session expired', '会话已过期'], watch: ['watch', '设监视'], woken: ['woken', '被唤醒'],
  'server-pause': ['server stopped', '服务器停住'], 'server-resume': ['server resumed', '服务器恢复'], 'server-crash': ['server killed', '服务器被杀掉'], 'server-restart': ['server restarted', '服务器重启'],
};

// The checker's verdicts (docs/verdicts.md). In 中文 a verdict reads in
// Chinese with its name beside it: the name is what a scenario's expect:
// and the command line write.
const VERDICTS = {
  safe: '安全', 'mutual-exclusion': '互斥被打破', 'foreign-unlock': '误删他人的锁', deadlock: '死锁',
  starvation: '饥饿', 'stale-write': '过期写入', oversell: '超卖', 'lost-update': '更新丢失',
  'no-progress': '毫无进展',
};

/** verdictName gives a verdict's name as the page shows it in lang:
 * oversell, or 超卖（oversell）. */
export function verdictName(n, lang) {
  if (lang !== 'zh' || !n) return n;
  const z = VERDICTS[n];
  if (!z) {
    untranslated.add('verdict: ' + n);
    return n;
  }
  return z + '（' + n + '）';
}

/** verdictWord gives a verdict's name alone, as a narrow cell shows it:
 * oversell, or 超卖 (its name then goes in the cell's tooltip). */
export function verdictWord(n, lang) {
  if (lang !== 'zh' || !n) return n;
  if (!VERDICTS[n]) untranslated.add('verdict: ' + n);
  return VERDICTS[n] || n;
}

/** verdictNames writes a list of verdict names in lang, comma-separated. */
export function verdictNames(names, lang) {
  return names.map((n) => verdictName(n, lang)).join(lang === 'zh' ? '，' : ', ');
}

/** name gives a mark's or fault's name in plain words. */
export function name(n, lang) {
  const s = NAMES[n];
  if (!s) {
    if (lang === 'zh' && n) untranslated.add('name: ' + n);
    return n;
  }
  return lang === 'zh' ? s[1] : s[0];
}

// The server's error codes are said by messages.js; everything else the
// server writes comes in both languages ({en, zh}).
export { serverError, untranslated } from './messages.js';

/** fill replaces {name} in a catalogue string with values. */
export function fill(key, lang, vals = {}) {
  let s = t(key, lang);
  for (const [k, v] of Object.entries(vals)) s = s.split('{' + k + '}').join(String(v));
  return s;
}

export const KEYS = [
  ['Space, →, .', 'kStep'], ['←', 'kBack'], ['P', 'kPlay'], ['Home', 'kReset'], ['End', 'kEnd'],
  ['PageDown / PageUp', 'kClicker'], ['↑ / ↓', 'kSelect'], ['F', 'kPresenter'], ['T', 'kTime'], ['L', 'kLang'], ['?', 'kHelp'],
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

/** faultKey is the catalogue key of a fault kind's menu label: fClockJump
 * for clock-jump; its tooltip is the key with Tip. */
export function faultKey(kind) {
  return 'f' + kind.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** amount says a duration of ms milliseconds in lang: 1s, 1 秒, 500ms. */
export function amount(ms, lang) {
  const [n, en, zh] = ms % 1000 === 0 ? [ms / 1000, 's', ' 秒'] : [ms, 'ms', ' 毫秒'];
  return n + (lang === 'zh' ? zh : en);
}

/** apply rewrites every element with data-i18n under root; an element
 * with data-i18n-ms fills its {d} with that amount. */
export function apply(root, lang) {
  // Only what differs is written: a render (every step) then changes
  // nothing the browser must lay out again.
  const html = lang === 'zh' ? 'zh-CN' : 'en';
  if (document.documentElement.lang !== html) document.documentElement.lang = html;
  if (document.title !== t('docTitle', lang)) document.title = t('docTitle', lang);
  const text = (key, el) => el.dataset.i18nMs ? fill(key, lang, { d: amount(Number(el.dataset.i18nMs), lang) }) : t(key, lang);
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const s = text(el.dataset.i18n, el);
    if (el.textContent !== s) el.textContent = s;
  }
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    const s = text(el.dataset.i18nTitle, el);
    if (el.title !== s) el.title = s;
  }
  for (const el of root.querySelectorAll('[data-i18n-group]')) {
    const s = t(el.dataset.i18nGroup, lang);
    if (el.label !== s) el.label = s;
  }
  for (const el of root.querySelectorAll('[data-i18n-label]')) {
    const s = t(el.dataset.i18nLabel, lang);
    if (el.getAttribute('aria-label') !== s) el.setAttribute('aria-label', s);
  }
}
