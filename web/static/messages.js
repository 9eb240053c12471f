// The server's error codes, in English and Chinese: the page says an
// error from its code and arguments. Everything else the server writes
// comes in both languages already: an event's words (its note, {en, zh}),
// a scenario file's problems ({msg, zh}), an error's arguments in words
// ({en, zh}). No server text is read back here.

/** untranslated holds the names asked for in 中文 that the page's
 * catalogue lacks (i18n.js, name). */
export const untranslated = new Set();

// The server's errors: a code and its arguments, rendered here.
const ERRORS = {
  'bad-message': ['bad message: {detail}', '消息有误：{detail}'],
  'field-case': ['field {field}: field names are matched exactly: write {want}', '字段 {field}：字段名须完全一致（区分大小写）：请写 {want}'],
  'unknown-field': ['field {field} is not in the protocol (docs/protocol.md)', '字段 {field} 不在协议里（见 docs/protocol.md）'],
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
  'unknown-name': ['{detail}', '名字不对：{detail}'],
  'no-op': ['the request has no op (see docs/protocol.md)', '请求没有 op（见 docs/protocol.md）'],
  'bad-argument': ['{op}: {detail}', '{op} 的参数有误：{detail}'],
  'speed-floor': ['play: speed {speed} is under the floor of {min} steps per second', 'play：速度 {speed} 低于每秒 {min} 步的下限'],
  'bad-action': ['this action does not apply here: {detail}', '这个动作在这里不适用：{detail}'],
  'error': ['{detail}', '出错了：{detail}'],
  'internal': ['internal error ({detail}): reload the page', '服务器内部错误（{detail}）：请刷新页面'],
  'no-challenge': ['scenario {id} has no challenge', '场景 {id} 没有挑战'],
  // ---- Budgets (docs/protocol.md) ----
  'memory-threads': ['scenario {id} would hold up to {n} client threads at once, about {need}: over a session\'s memory budget of {max}', '场景 {id} 会同时占用多达 {n} 个客户端线程，约 {need}：超过了每个会话 {max} 的内存预算'],
  'memory-data': ['scenario {id} writes {n} data keys to each of its {nodes} nodes, about {need}: over a session\'s memory budget of {max}', '场景 {id} 向它的 {nodes} 个节点各写入 {n} 个数据键，约 {need}：超过了每个会话 {max} 的内存预算'],
  'evicted': ['this session was evicted to free memory for others: reload the page', '为了给别人腾出内存，这个会话已被清除：请刷新页面'],
  'memory-run': ['the run stopped at step {step}: it holds about {need}, over a session\'s memory budget of {max}', '运行停在第 {step} 步：它占用约 {need}，超过了每个会话 {max} 的内存预算'],
  'memory-server': ['the run stopped at step {step}: the server\'s memory budget of {max} is in use, and this run holds about {held}, more than half its fair share of {share}: the sessions holding the most stop first; step back, or try again later', '运行停在第 {step} 步：服务器 {max} 的内存预算已用尽，而这次运行占用约 {held}，超过它公平份额 {share} 的一半：占用最多的会话先停下；请后退，或者稍后再试'],
  // ---- Find a bad schedule (explore.js) ----
  'explore-real': ['explore: a search runs on embedded Redis only, not on real servers', '搜索只能在内置 Redis 上运行，不能在真实服务器上运行'],
  'explore-running': ['explore: a search is already running', '已经有一个搜索在运行'],
  'explore-busy': ['explore: {max} searches are running on this server; try again shortly', '这台服务器上正在运行 {max} 个搜索；请稍后再试'],
  'recording-big': ['the recording would be {kib} KiB, over the file limit of {max} KiB: step back to an earlier step and save from there', '录制文件会有 {kib} KiB，超过了 {max} KiB 的上限：请先后退到更早的一步再保存'],
  'recording-unreadable': ['the recording would not reopen ({detail}): step back to an earlier step and save from there', '录制文件将无法重新打开（{detail}）：请先后退到更早的一步再保存'],
  'recording-time': ['the recording\'s replay took more than {max} s on this server (busy, or a long run): try again shortly', '录制文件的重放在服务器上超过了 {max} 秒（服务器繁忙，或者运行太长）：请稍后再试'],
  'server-memory': ['this scenario needs about {need}, and the server\'s memory budget of {max} is in use by other sessions (about {used}): try again later, or a smaller scenario', '这个场景大约需要 {need}，而服务器 {max} 的内存预算已被其他会话占用（约 {used}）：请稍后再试，或换一个更小的场景'],
  'live-unavailable': ['the {service} server cannot start here: {detail}. The {service} lessons need it; the other lessons run as before', '{service} 服务器无法在这里启动：{detail}。{service} 的课需要它；其他课照常运行'],
  'live-failed': ['the run on the {service} server stopped: {detail}', '{service} 服务器上的运行停止了：{detail}'],
  'live-busy': ['{max} runs on a live server are running on this server, the most it holds at once: try again in a few seconds', '这台服务器上已有 {max} 个在真实服务器上的运行，这是它同时能承担的上限：请过几秒再试'],
  'live-op': ['{op}: not on a run in real time on a live {service} server (no faults, searches, recordings as scenario files or challenges)', '{op}：在真实 {service} 服务器上实时进行的运行不支持这一操作（不能注入故障、搜索、导出为场景文件或挑战）'],
  'compare-live-running': ['compare: the run on the live {service} server has not ended: play it to its end, then compare the log it recorded', '对比：在真实 {service} 服务器上的运行还没有结束：请先播放到结束，再对比它录下的日志'],
  'compare-live-time': ['compare: the run on the live {service} server took more than {max} s: try again shortly', '对比：在真实 {service} 服务器上的运行超过了 {max} 秒：请稍后再试'],
  'live-recording-bad': ['the link\'s recorded run cannot be shown ({detail}): open the lesson and run it again', '链接里录下的运行无法显示（{detail}）：请打开这节课，重新运行一次'],
  'live-link-big': ['the link carries a recording of {kib} KiB, over the limit of {max} KiB a link may carry', '链接里的录制有 {kib} KiB，超过了链接可携带的 {max} KiB 上限'],
  'redis-lost': ['the run stopped: a Redis server stopped answering ({detail}); check the server, then reload the run', '运行已停止：Redis 服务器不再响应（{detail}）；请检查服务器，然后重新载入这次运行'],
  // ---- Limits per client address and the server's reserve (docs/protocol.md) ----
  'address-sockets': ['your address has {max} sockets open, the most one address may: close other tabs and try again', '你的地址已打开 {max} 个连接，这是一个地址的上限：请关闭其他标签页后再试'],
  'address-sessions': ['your address holds {max} sessions, the most one address may, each with a tab open: close one and try again', '你的地址已有 {max} 个会话（上限），而且每个都有标签页打开：请关闭一个后再试'],
  'address-searches': ['explore: your address runs {max} searches, the most one address may: wait for one to end', '探索：你的地址正在运行 {max} 个搜索，这是一个地址的上限：请等其中一个结束'],
  'server-sockets': ['the server holds {max} sockets, all it may while keeping room for others: try again later', '服务器已有 {max} 个连接，为了给其他人留出余地不能再多：请稍后再试'],
  // ---- Side by side (compare.js) ----
  'compare': ['could not compare: {detail}', '无法对比：{detail}'],
  'compare-unknown': ['compare: {with} is no algorithm or scenario to compare with', '对比：{with} 不是可以对比的算法或场景'],
  'compare-no-pair': ['compare: {id} has no canonical pair: name an algorithm or a scenario with the same clients', '对比：{id} 没有默认的对照：请指定一个算法，或一个客户端相同的场景'],
  'compare-clients': ['compare: {id} and {with} do not have the same clients', '对比：{id} 和 {with} 的客户端不一样'],
  'compare-big': ['the runs have {n} rows, over the view\'s {max}: compare them with visualizer compare', '两次运行有 {n} 行，超过了对比视图的 {max} 行上限：请用 visualizer compare 对比'],
  'compare-time': ['the runs took more than {max} s on this server (busy, or long runs): try again shortly, or compare them with visualizer compare', '两次运行在服务器上超过了 {max} 秒（服务器繁忙，或者运行太长）：请稍后再试，或用 visualizer compare 对比'],
  'compare-memory': ['the runs would hold more than {need}, over a session\'s memory budget of {max}: compare them with visualizer compare', '两次运行会占用超过 {need}，超过了每个会话 {max} 的内存预算：请用 visualizer compare 对比'],
  // ---- Which lock? (report.js) ----
  'report-cell': ['the cell {lock}/{column} has no schedule to open (not decided yet, or nothing found)', '{lock}/{column} 这一格没有可打开的调度（尚未得出结果，或没有发现问题）'],
  'report-deadline': ['the card ran out of its time ({max}) before every cell was searched', '报告卡在搜索完所有格子之前用完了它的时间（{max}）'],
  'report-failed': ['a row or a cell could not be computed: {detail}', '有一行或一格无法计算：{detail}'],
  'report-real': ['the report card runs on embedded Redis only, not on real servers', '选锁报告卡只能在内置 Redis 上运行，不能在真实服务器上运行'],
  // ---- Check my lock (report.js) ----
  'setup-real': ['Check my lock runs on embedded Redis only, not on real servers', '“检查我的锁”只能在内置 Redis 上运行，不能在真实服务器上运行'],
  'setup-running': ['a card is already being checked: wait for it, or cancel it', '已经在检查一张报告卡：请等它完成，或取消它'],
  'setup-busy': ['{max} cards are being checked on this server: try again shortly', '服务器上正在检查 {max} 张报告卡：请稍后再试'],
  'setup-which': ['the file has {n} scenarios ({ids}): load the one whose lock to check', '文件里有 {n} 个场景（{ids}）：请先载入要检查其锁的那一个'],
  'setup-cell': ['the cell {lock}/{column} has no schedule to open (no card, not decided yet, or nothing found)', '{lock}/{column} 这一格没有可打开的调度（没有报告卡、尚未得出结果，或没有发现问题）'],
  'setup-time': ['the card\'s time budget of {max} ran out: {n} cells were not searched (?); they say nothing and give no advice', '报告卡 {max} 的时间预算用完了：{n} 格没有搜索完（?）；它们什么也没说明，也不产生建议'],
  'setup-cancelled': ['cancelled: {n} cells were not searched (?); they say nothing and give no advice', '已取消：{n} 格没有搜索完（?）；它们什么也没说明，也不产生建议'],
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
