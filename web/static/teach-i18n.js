// The strings of the teaching tools (code view, chapters, challenges) in
// English and 中文, apart from i18n.js so that each tool stays one file.

const S = {
  code: ['Code', '代码'],
  codeOf: ['The lock code {client} runs', '{client} 运行的锁代码'],
  codeAuto: ['follow', '跟随'],
  codeAutoTip: ['Follow the client of the newest command', '跟随最新命令所属的客户端'],
  codeHide: ['Hide code', '隐藏代码'],
  codeShow: ['Code', '代码'],
  codeNone: ['{client} has sent no command of its lock yet.', '{client} 还没有发出锁的任何命令。'],
  codeWorkload: ['{client}\'s latest command ({cmd}) is the lesson\'s workload, not lock code.', '{client} 最近的命令（{cmd}）是课程的业务代码，不是锁代码。'],
  codeLast: ['Lit: its latest lock command, #{seq}.', '高亮的是它最近一条锁命令 #{seq}。'],
  codeCmd: ['#{seq} {kind}: {cmd}', '#{seq} {kind}：{cmd}'],
  codeVia: ['called from', '调用自'],
  codeScript: ['Lua script {name}, run on the node as one command', 'Lua 脚本 {name}，在节点上作为一条命令执行'],
  codeRan: ['Lit: the redis.call lines this run of the script executed.', '高亮：这次脚本执行到的 redis.call 行。'],
  codeAll: ['The script is about to run (or its node cannot tell which lines ran): the whole script is lit.', '脚本即将执行（或节点无法告知执行了哪些行）：整段脚本都高亮。'],
  codeLoading: ['Loading {file}…', '正在加载 {file}…'],
  chapters: ['Chapters', '章节'],
  paced: ['Stop at each chapter when playing', '播放时在每一章停下'],
  beatStop: ['Stopped at a chapter: press Play to go on.', '已在一章处停下：按“播放”继续。'],
  chapterAt: ['step {step}', '第 {step} 步'],
  challenge: ['Challenge', '挑战'],
  chTake: ['Take the challenge', '接受挑战'],
  chLeave: ['Back to the lesson', '回到课程'],
  chRetry: ['Try again', '再试一次'],
  chIntro: ['You schedule the run: step clients by hand (or Step), inject faults. Every step and every fault is a move. The lesson\'s own faults and narration are off.', '由你来调度：手动让客户端行动（或按“下一步”），注入故障。每一步、每个故障都算一步棋。课程自带的故障和旁白都已关闭。'],
  chMoves: ['Moves: {n} of {max}', '步数：{n} / {max}'],
  chFaults: ['Faults: {n} of {max}', '故障：{n} / {max}'],
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
};

/** tt gives the string for key in lang, its {placeholders} filled. */
export function tt(key, lang, vals = {}) {
  const s = S[key];
  let out = s ? (lang === 'zh' ? s[1] : s[0]) : key;
  for (const [k, v] of Object.entries(vals)) out = out.split('{' + k + '}').join(String(v));
  return out;
}

/** el makes an element with properties and children. */
export function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'title' || k === 'lang') e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const k of kids) if (k != null && k !== false) e.append(k);
  return e;
}
