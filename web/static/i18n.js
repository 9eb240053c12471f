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
  realBanner: ["Real Redis ({urls}). Time runs on Redis' clock from your first step: a paused view does not pause Redis, so TTLs run out meanwhile and the next step shows those expiries first. Node clock jumps are not applied. Seeking back replays the run from the start, in real time. Times are the moments commands really ran.", '真实 Redis（{urls}）。从你走第一步起，时间以 Redis 的时钟为准：暂停界面并不会暂停 Redis，TTL 照样流逝，下一步会先显示这些过期。节点时钟跳变不会执行。向后跳转会从头实时重放。时间是命令真实执行的时刻。'],
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
};

export const KEYS = [
  ['Space, →, .', 'kStep'], ['←', 'kBack'], ['P', 'kPlay'], ['Home', 'kReset'], ['End', 'kEnd'],
  ['PageDown / PageUp', 'kClicker'], ['F', 'kPresenter'], ['L', 'kLang'], ['?', 'kHelp'],
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
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = t(el.dataset.i18n, lang);
  }
}
