// A class (docs/protocol.md, Classes). The teacher presses Start a class:
// the server makes a room with a join code, shown with its link and a QR
// code for the projector. Students open the app, type the code and a
// nickname, and their screens follow the teacher's run, cursor and view
// (each in their own language); a student may Roam in a private copy and
// come Back to the class. The teacher asks questions computed from the run;
// students answer on their devices; Reveal shows the tally as bars and the
// truth from the run. The teacher's right to drive is a key that stays in
// the teacher's link (#teach=CODE.KEY) and this browser's storage, never on
// the projector.

import { state, changed } from './store.js';
import { pick, verdictName } from './i18n.js';
import { el } from './dom.js';
import { toast } from './toast.js';
import { download } from './share.js';
import { renderControls } from './controls.js';

const $ = (id) => document.getElementById(id);

// The class's strings, in English and 中文.
const S = {
  startClass: ['Start a class', '开始上课'],
  joinClass: ['Join a class', '加入课堂'],
  joinTitle: ['Join a class', '加入课堂'],
  joinCode: ['Code on the projector', '投影上的课堂代码'],
  nickname: ['Your nickname', '你的昵称'],
  join: ['Join', '加入'],
  cancel: ['Cancel', '取消'],
  classLabel: ['Class', '课堂'],
  joinAt: ['Join at', '加入地址'],
  you: ['you are', '你是'],
  following: ['Following the teacher', '正在跟随老师'],
  roaming: ['Roaming: your own copy of the run', '自由探索：你自己的运行副本'],
  roam: ['Roam', '自由探索'],
  backToClass: ['Back to the class', '回到课堂'],
  teacherAway: ['The teacher is away: the class ends if they do not come back soon.', '老师暂时离开：如果不尽快回来，课堂将结束。'],
  // The teacher's notice of a student's copy the server had no memory for (refused).
  copyRefused: ['{name} could not roam: no memory for a copy of the run at step {step} (budget {max}); they keep following. Copies refused: {count}.', '{name} 无法自由探索：内存不够复制第 {step} 步的运行（预算 {max}）；他们继续跟随。被拒绝的副本：{count} 个。'],
  counts: ['{members} in the class · {following} following · {roaming} roaming · {answered} answered', '课堂中 {members} 人 · {following} 人跟随 · {roaming} 人自由探索 · {answered} 人已作答'],
  // Presenter mode's bar: the counts in short (the sentence is the tooltip and what a screen reader reads).
  countsShort: ['{members} in · {following} follow{roam} · {answered} ✓', '{members} 人 · {following} 跟随{roam} · {answered} ✓'],
  roamShort: [' · {roaming} roam', ' · {roaming} 自由'],
  ask: ['Ask', '提问'],
  askWhat: ['Question', '问题'],
  kNext: ['Which client moves next?', '下一步由哪个客户端行动？'],
  kReply: ['What will this command reply?', '这条命令会得到什么回复？'],
  kHolder: ['Who holds the lock after this step?', '这一步之后谁持有锁？'],
  kVerdict: ['Which verdict will this run end with?', '这次运行最终会得到哪个判定？'],
  kMove: ['Vote on the next move (challenge)', '投票决定下一步（挑战）'],
  kFree: ['Your own question…', '自己出题…'],
  // The picker's choices in Presenter mode (the question itself is on the card once asked).
  kNextShort: ['Who moves next?', '谁下一步？'],
  kReplyShort: ['What reply?', '什么回复？'],
  kHolderShort: ['Who holds the lock?', '谁持有锁？'],
  kVerdictShort: ['Which verdict?', '哪个判定？'],
  kMoveShort: ['Vote on a move', '投票选步'],
  kFreeShort: ['Own question…', '自己出题…'],
  freeText: ['Question text', '题目'],
  freeChoices: ['Choices, one a line', '选项，每行一个'],
  reveal: ['Reveal', '揭晓'],
  dismiss: ['Dismiss', '收起'],
  dismissTitle: ['Take the question off every screen (its tally stays in the CSV)', '把问题从所有屏幕上收起（统计仍保留在 CSV 中）'],
  playWinner: ['Play the winner', '执行得票最多的一步'],
  playWinnerShort: ['Play it', '执行'],
  hide: ['Hide what gives it away', '隐藏会泄露答案的内容'],
  hideShort: ['Hide the ending', '隐藏结局'],
  hidden: ['hidden until the run gets there', '运行到那里之前隐藏'],
  hiddenLesson: ['(hidden until the end: it tells how the run ends)', '（运行结束前隐藏：它说出了这次运行的结局）'],
  exportCSV: ['Tally (CSV)', '统计 (CSV)'],
  exportCSVShort: ['CSV', 'CSV'],
  teacherLink: ['Copy my teacher link', '复制我的老师链接'],
  teacherLinkCopied: ['Your teacher link is copied: keep it to yourself (it lets its holder drive the class).', '老师链接已复制：请勿分享（持有者可以控制课堂）。'],
  teacherLinkNoCopy: ['This browser keeps your teacher link; to copy it, open the page over https or localhost.', '此浏览器已保存你的老师链接；要复制它，请通过 https 或 localhost 打开页面。'],
  showCode: ['Join code', '加入码'],
  showCodeTip: ['Show the class\'s join code, its link and QR code, for the projector', '显示课堂的加入码、链接和二维码，供投影使用'],
  close: ['Close', '关闭'],
  endClass: ['End the class', '结束课堂'],
  endClassShort: ['End', '结束'],
  endConfirm: ['End the class for everyone? Its tally is kept in this page only until you leave it.', '为所有人结束课堂？统计只保存在本页面，离开即消失。'],
  answered: ['{n} answered', '{n} 人已作答'],
  yourAnswer: ['Your answer is in.', '你的答案已提交。'],
  right: ['Right!', '答对了！'],
  wrong: ['Not this time.', '这次没答对。'],
  truth: ['From the run:', '运行结果：'],
  noTruth: ['A vote: no right answer.', '投票：没有标准答案。'],
  aboutCmd: ['Command:', '命令：'],
  atStep: ['asked at step {step}', '在第 {step} 步提问'],
  ended: ['The class has ended.', '课堂已结束。'],
  endedGone: ['The class has ended: the teacher did not come back.', '课堂已结束：老师没有回来。'],
  endedMoved: ['The class moved to your teacher link in another tab.', '课堂已转到另一个标签页中的老师链接。'],
  endedLeft: ['You left the class.', '你已离开课堂。'],
  leave: ['Leave', '离开'],
  localOnly: ['This page is open as localhost: students cannot reach that address. Open it by this machine\'s address on the classroom network (see README, In class) and start the class there.', '此页面以 localhost 打开：学生无法访问这个地址。请用本机在教室网络中的地址打开页面（见 README 的 In class 部分），再开始上课。'],
  questionLabel: ['Question', '问题'],
  // The questions queued for later steps (the projector's line under the bar, and the remote's card).
  queued: ['Queued:', '已排入：'],
  queueTitle: ['Queued: asked by itself when the run gets there', '已排入：运行到那一步时自动提问'],
  queueNone: ['No question queued.', '没有排入的问题。'],
  queuedAt: ['step {step}', '第 {step} 步'],
  unqueue: ['Take off the queue', '从队列中移除'],
  tallyLabel: ['Tally', '统计'],
};

// The server's class errors, for the page's message catalogue.
export const CLASS_ERRORS = {
  'no-class': ['no class has the code {code}: check it on the projector', '没有代码为 {code} 的课堂：请核对投影上的代码'],
  'class-slow-down': ['too many wrong codes from your address: try again in {seconds} s', '你的地址输错代码次数过多：请 {seconds} 秒后再试'],
  'switch-slow-down': ['too many switches between roaming and following: try again in {seconds} s', '在自由探索和跟随之间切换太频繁：请 {seconds} 秒后再试'],
  'roam-memory': ['no memory for your own copy of the run at step {step} (a budget of {max} is in use): you keep following the class; try again later', '内存不够为你复制第 {step} 步的运行（{max} 的预算已被占用）：你继续跟随课堂；请稍后再试'],
  'bad-key': ['that is not this class\'s teacher link', '这不是此课堂的老师链接'],
  'name-taken': ['someone in this class is already called {name}: pick another nickname', '课堂里已有人叫 {name}：请换一个昵称'],
  'bad-name': ['a nickname is 1 to {max} characters, without control characters', '昵称为 1 到 {max} 个字符，不能含控制字符'],
  'class-full': ['the class is full ({max} students)', '课堂已满（{max} 名学生）'],
  'class-one-seat': ['this browser is in the class already, as {name}: one nickname a browser', '这个浏览器已经以 {name} 的身份在课堂中：每个浏览器只能用一个昵称'],
  'address-classes': ['your address has {max} classes open, the most one address may: end one and try again', '你的地址已开设 {max} 个课堂，这是一个地址的上限：请结束一个后再试'],
  'rooms-cap': ['too many classes on this server (the cap is {max}): try again later', '此服务器上的课堂过多（上限 {max}）：请稍后再试'],
  'class-following': ['you follow the class: press Roam to step on your own', '你正在跟随课堂：按“自由探索”后可自己操作'],
  'not-teacher': ['only the teacher may do that', '只有老师可以这样做'],
  'class-student-only': ['that is for students', '这是学生的操作'],
  'class-already': ['you already teach the class {code}', '你已经在主持课堂 {code}'],
  'class-teacher': ['you teach a class: end it before joining another', '你正在主持课堂：请先结束它再加入别的课堂'],
  'question-closed': ['that question is no longer open', '这个问题已经关闭'],
  'bad-choice': ['choose one of the choices', '请从选项中选择'],
  'already-answered': ['you have answered this question', '你已经回答过这个问题'],
  'no-question': ['no question is on the screens: ask one first', '屏幕上没有问题：请先提问'],
  'bad-question': ['the question needs a text and 2 to 8 choices', '问题需要题目和 2 到 8 个选项'],
  'class-no-command': ['no client sends a command from here: ask another question', '从这里起没有客户端发送命令：换一个问题'],
  'class-no-challenge': ['a vote on moves is for a challenge: take the challenge first', '投票选步骤用于挑战：请先开始挑战'],
  'class-embedded': ['a class and its questions run on embedded Redis', '课堂及其问题只能在内置 Redis 上运行'],
  'no-vote': ['ask the class to vote on a move first', '请先让全班投票选择一步'],
  'no-votes': ['nobody has voted yet', '还没有人投票'],
  'queue-past': ['the run is at step {at}: queue a question for a later step than {step}', '运行已在第 {at} 步：请为比第 {step} 步更晚的一步排入问题'],
  'queue-full': ['{max} questions are queued, the most: take one off first', '已排入 {max} 个问题，已达上限：请先移除一个'],
  'not-queued': ['no question is queued at step {step}', '第 {step} 步没有排入的问题'],
};

const KINDS = [['next', 'kNext'], ['reply', 'kReply'], ['holder', 'kHolder'], ['verdict', 'kVerdict'], ['move', 'kMove'], ['free', 'kFree']];

// The remote's page (remote.js) says the class's words and kinds as the class bar does.
export { S as CLASS_WORDS, KINDS as CLASS_KINDS };

/** browserID is this browser's id for classes, kept in its storage: a
 * browser holds one membership of a class (docs/protocol.md, Classes). */
function browserID() {
  let id = localStorage.getItem('lockstep.browser');
  if (!id) {
    const b = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    localStorage.setItem('lockstep.browser', id);
  }
  return id;
}

function tr(key, vals = {}) {
  let s = S[key][state.lang === 'zh' ? 1 : 0];
  for (const [k, v] of Object.entries(vals)) s = s.split('{' + k + '}').join(String(v));
  return s;
}

/** both is a label's whole words and, for Presenter mode's one-line bar
 * (class.css), its short form on screen: the whole words stay what a
 * screen reader reads. */
function both(key) {
  return [el('span', { class: 'class-long' }, tr(key)), el('span', { class: 'class-short', 'aria-hidden': 'true' }, tr(key + 'Short'))];
}

/** qrSVG draws a QR code's rows ('1' dark) as an SVG with a quiet zone. */
export function qrSVG(rows, px) {
  const n = rows.length, q = 4, side = n + 2 * q;
  let d = '';
  rows.forEach((r, y) => {
    for (let x = 0; x < n; x++) if (r[x] === '1') d += `M${x + q} ${y + q}h1v1h-1z`;
  });
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
  svg.setAttribute('width', String(px));
  svg.setAttribute('height', String(px));
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.setAttribute('class', 'qr');
  const bg = document.createElementNS(ns, 'rect');
  bg.setAttribute('width', String(side));
  bg.setAttribute('height', String(side));
  bg.setAttribute('fill', '#fff');
  const p = document.createElementNS(ns, 'path');
  p.setAttribute('d', d);
  p.setAttribute('fill', '#000');
  svg.append(bg, p);
  return svg;
}

/** choiceText is a choice as the page shows it in lang: a verdict
 * question's choices are verdict names, shown as the page names verdicts. */
function choiceText(q, ch, lang) {
  return q.kind === 'verdict' ? verdictName(pick(ch, 'en'), lang) : pick(ch, lang);
}

/** csv is the tally of every question asked, one row a choice. */
export function csv(history, lang) {
  const q = (s) => '"' + String(s).replace(/"/g, '""') + '"';
  const rows = [['question', 'asked at step', 'kind', 'text', 'choice', 'answers', 'right'].join(',')];
  for (const h of history) {
    h.choices.forEach((c, i) => {
      const right = h.truth && h.truth.length ? (h.truth.includes(i) ? 'yes' : 'no') : '';
      rows.push([h.id, h.at, h.kind, q(pick(h.text, lang) + (h.about ? ' ' + h.about : '')), q(choiceText(h, c, lang)), (h.counts || [])[i] || 0, right].join(','));
    });
  }
  return rows.join('\n') + '\n';
}

export class Classroom {
  /** hooks: goTo(seq), compare() → {open, choice, show(c), close()},
   * code() → the code view, remote(code) → the class bar's Remote button
   * (pair.js). */
  constructor(link, hooks) {
    this.link = link;
    this.hooks = hooks;
    this.cls = null; // the last class message's class
    this.history = []; // the teacher's tally, kept after the class ends (this page only)
    this.sentView = '';
    this.appliedView = '';
    this.viewTimer = 0;
    this.ownHide = localStorage.getItem('lockstep.hide') === 'on';
    this.askKind = 'next';
    this.queue = []; // the questions the room queued for later steps (a teacher's)
    this.build();
    // Some view changes (Side by side opened or closed, a code tab) do not
    // render the whole page: the teacher's view is looked at now and then.
    setInterval(() => { if (this.cls && this.cls.role === 'teacher') this.sendView(); }, 300);
  }

  /** seat is what this tab remembers of its class (to rejoin). */
  get seat() {
    try { return JSON.parse(sessionStorage.getItem('lockstep.class') || 'null'); } catch { return null; }
  }

  set seat(v) {
    if (v) sessionStorage.setItem('lockstep.class', JSON.stringify(v));
    else sessionStorage.removeItem('lockstep.class');
  }

  build() {
    // The page holds the two buttons from the start (labelled in English),
    // so that the header does not move when this script runs.
    this.startBtn = $('start-class');
    this.joinBtn = $('join-class');
    this.startBtn.onclick = () => this.start();
    this.joinBtn.onclick = () => this.openJoin('');
    // The join dialog.
    this.codeIn = el('input', { id: 'join-code-in', 'data-testid': 'join-code', autocomplete: 'off', spellcheck: false, maxLength: 12, size: 8 });
    this.nameIn = el('input', { id: 'nickname-in', 'data-testid': 'nickname', autocomplete: 'nickname', maxLength: 24, size: 16 });
    this.codeLbl = el('label', { htmlFor: 'join-code-in' });
    this.nameLbl = el('label', { htmlFor: 'nickname-in' });
    this.joinTitle = el('h2', { id: 'join-title' });
    this.joinGo = el('button', { class: 'primary', 'data-testid': 'join', type: 'submit' });
    this.joinCancel = el('button', { type: 'button', onclick: () => { this.dialog.hidden = true; } });
    const form = el('form', { class: 'card join-card', onsubmit: (e) => { e.preventDefault(); this.join(); } },
      this.joinTitle, el('p', {}, this.codeLbl, el('br'), this.codeIn), el('p', {}, this.nameLbl, el('br'), this.nameIn),
      el('p', { class: 'buttons' }, this.joinGo, ' ', this.joinCancel));
    this.dialog = el('div', { class: 'overlay', 'data-testid': 'join-dialog', hidden: true, 'aria-labelledby': 'join-title', 'aria-modal': 'true' }, form);
    this.dialog.setAttribute('role', 'dialog');
    document.body.append(this.dialog);
    // The big code for the projector.
    this.bigTitle = el('h2', { id: 'class-big-title' });
    this.bigBody = el('div', { class: 'class-big-body' });
    this.bigClose = el('button', { onclick: () => { this.big.hidden = true; } });
    this.big = el('div', { class: 'overlay', hidden: true, 'aria-labelledby': 'class-big-title', 'aria-modal': 'true' },
      el('div', { class: 'card class-big' }, this.bigTitle, this.bigBody, this.bigClose));
    this.big.setAttribute('role', 'dialog');
    document.body.append(this.big);
    this.bar = $('class');
  }

  start() {
    if (this.cls && this.cls.role === 'teacher') { this.showBig(); return; }
    this.link.send('class-start', { origin: location.origin });
  }

  openJoin(code) {
    this.codeIn.value = code || this.codeIn.value;
    this.dialog.hidden = false;
    (this.codeIn.value ? this.nameIn : this.codeIn).focus();
    this.render();
  }

  join() {
    const code = this.codeIn.value.trim(), name = this.nameIn.value.trim();
    if (!code || !name) { (code ? this.nameIn : this.codeIn).focus(); return; }
    this.link.send('class-join', { code, name, browser: browserID() });
  }

  /** welcome handles a class link or a class to rejoin; true when it took
   * care of what the page loads. */
  welcome(m) {
    const h = location.hash;
    let g = /^#join=([A-Za-z0-9 -]{1,16})$/.exec(h);
    if (g) {
      history.replaceState(null, '', location.pathname + location.search);
      if (!m.loaded) this.link.send('load', { scenario: state.catalog[0].id });
      this.openJoin(g[1]);
      return true;
    }
    g = /^#teach=([A-Za-z0-9]{6})\.([A-Za-z0-9_-]{10,64})$/.exec(h);
    if (g) {
      history.replaceState(null, '', location.pathname + location.search);
      localStorage.setItem('lockstep.teach.' + g[1], g[2]);
      this.link.send('class-teach', { code: g[1], key: g[2] });
      return true;
    }
    const seat = this.seat;
    if (seat && !m.loaded) { // a new session (the server lost ours): rejoin
      if (seat.role === 'teacher') {
        const key = localStorage.getItem('lockstep.teach.' + seat.code);
        if (key) { this.link.send('class-teach', { code: seat.code, key }); return true; }
      } else if (seat.token) {
        this.link.send('class-join', { code: seat.code, token: seat.token, browser: browserID() });
        return true;
      }
      this.seat = null;
    }
    return false;
  }

  /** onMessage takes class messages; true when it did. */
  onMessage(m) {
    if (m.type === 'error' && m.code === 'no-class' && this.seat && !this.cls) this.seat = null;
    if (m.type === 'queue') {
      this.queue = m.queue || [];
      changed();
      return true;
    }
    if (m.type !== 'class') return false;
    const c = m.class;
    if (c.ended) {
      const was = this.cls;
      // A teacher keeps the tally after the class: the bar offers it until dismissed.
      this.endedTally = !!(was && was.role === 'teacher' && this.history.length);
      if (this.endedTally) this.endedCode = was.code;
      this.cls = null;
      this.seat = null;
      this.queue = [];
      document.body.classList.remove('in-class', 'following', 'class-teacher');
      const why = { 'teacher-gone': 'endedGone', 'teacher-moved': 'endedMoved', left: 'endedLeft' }[c.ended] || 'ended';
      if (was) toast(tr(why));
      changed();
      return true;
    }
    if (c.key) localStorage.setItem('lockstep.teach.' + c.code, c.key);
    const fresh = !this.cls;
    this.cls = c;
    this.seat = c.role === 'teacher' ? { code: c.code, role: 'teacher' } : { code: c.code, role: 'student', token: c.token, name: c.name };
    if (c.role === 'teacher' && c.history) this.history = c.history;
    if (c.role === 'student') {
      this.dialog.hidden = true;
      if (c.following) this.applyView(c.view);
    }
    if (fresh && c.role === 'teacher' && c.key) {
      this.endedTally = false;
      // The page's own "hide what gives it away", set before the class
      // started, becomes the room's.
      if (this.ownHide && !c.hide) this.link.send('class-hide', { hide: true });
      this.showBig();
    }
    changed();
    return true;
  }

  /** applyView takes the teacher's view choices (a following student). */
  applyView(v) {
    const key = JSON.stringify(v || null);
    if (!v || key === this.appliedView) return;
    this.appliedView = key;
    state.timeScale = !!v.t;
    const code = this.hooks.code();
    if (code && typeof v.code === 'string') { code.client = v.code; code.key = ''; }
    const cmp = this.hooks.compare();
    if (typeof v.cmp === 'string' && (!cmp.open || cmp.choice !== v.cmp)) cmp.show(v.cmp);
    else if (v.cmp == null && cmp.open) cmp.close();
    if (Number.isInteger(v.sel)) requestAnimationFrame(() => this.hooks.goTo(v.sel));
    else state.selected = null;
  }

  /** viewOf is the teacher's view choices, as students apply them. */
  viewOf() {
    const cmp = this.hooks.compare(), code = this.hooks.code();
    return { t: state.timeScale ? 1 : 0, sel: state.selected ?? null, cmp: cmp.open ? cmp.choice : null, code: code ? code.client : '' };
  }

  /** hiding reports whether what gives the answer away is hidden. */
  hiding() {
    return this.ownHide || !!(this.cls && this.cls.hide);
  }

  /** render draws the class bar and applies the class to the page. */
  render() {
    const c = this.cls, lang = state.lang;
    const teacher = c && c.role === 'teacher', student = c && c.role === 'student';
    document.body.classList.toggle('in-class', !!c);
    document.body.classList.toggle('class-teacher', !!teacher);
    document.body.classList.toggle('following', !!(student && c.following));
    this.lockControls(!!(student && c.following));
    this.startBtn.textContent = teacher ? tr('showCode') : tr('startClass');
    this.startBtn.title = teacher ? tr('showCodeTip') : '';
    this.startBtn.hidden = !!student;
    this.joinBtn.textContent = tr('joinClass');
    this.joinBtn.hidden = !!c;
    this.joinTitle.textContent = tr('joinTitle');
    this.codeLbl.textContent = tr('joinCode');
    this.nameLbl.textContent = tr('nickname');
    this.joinGo.textContent = tr('join');
    this.joinCancel.textContent = tr('cancel');
    this.bigClose.textContent = tr('close');
    if (!this.big.hidden) this.fillBig();
    this.hideGiveaways();
    this.bar.hidden = !c && !this.endedTally;
    this.bar.setAttribute('aria-label', tr('classLabel'));
    if (teacher) this.sendView();
    const snap = state.snap;
    const key = JSON.stringify([c, this.queue, lang, this.askKind, snap && snap.step, !!(snap && snap.challenge && snap.challenge.active), this.endedTally, !!state.presenter]);
    if (key === this.barKey) return;
    this.barKey = key;
    this.bar.textContent = '';
    if (!c) {
      if (this.endedTally) this.bar.append(this.tallyLine());
      return;
    }
    const line = el('div', { class: 'class-line' },
      el('span', { class: 'class-id' }, tr('classLabel') + ' ', el('b', { 'data-testid': 'class-code' }, c.code)));
    if (teacher) this.teacherBar(line, c);
    else this.studentBar(line, c);
    this.bar.append(line);
    if (teacher && this.queue.length) this.bar.append(this.queueLine());
    if (c.away && student) this.bar.append(el('p', { class: 'class-away', role: 'status' }, tr('teacherAway')));
    if (c.refused && teacher) this.bar.append(el('p', { class: 'class-away', role: 'status', 'data-testid': 'copy-refused' }, tr('copyRefused', c.refused)));
    if (c.question) this.bar.append(this.questionCard(c.question, teacher));
  }

  teacherBar(line, c) {
    const n = c.counts || { members: 0, following: 0, roaming: 0, answered: 0 };
    if (c.qr) {
      const small = el('button', { class: 'qr-btn', 'aria-label': tr('showCode'), title: tr('showCodeTip'), onclick: () => this.showBig() });
      small.append(qrSVG(c.qr, 44));
      line.append(small);
    }
    // The sentence, and in Presenter mode (class.css) its short form on
    // screen: the sentence stays the tooltip and what screen readers read.
    const vals = { members: n.online ?? n.members, following: n.following, roaming: n.roaming, answered: n.answered };
    const full = tr('counts', vals);
    const short = tr('countsShort', { ...vals, roam: n.roaming ? tr('roamShort', vals) : '' });
    line.append(el('span', { class: 'class-count', 'data-testid': 'room-count', role: 'status', title: full },
      el('span', { class: 'class-long' }, full), el('span', { class: 'class-short', 'aria-hidden': 'true' }, short)));
    // In Presenter mode the picker names each kind in short, so that the
    // bar keeps one line; the question itself is on the card once asked.
    const suffix = state.presenter ? 'Short' : '';
    const kinds = KINDS.filter(([k]) => k !== 'move' || (state.snap && state.snap.challenge && state.snap.challenge.active));
    const kind = el('select', { 'data-testid': 'ask-kind', 'aria-label': tr('askWhat'), title: tr((kinds.find(([k]) => k === this.askKind) || kinds[0])[1]),
      onchange: (e) => { this.askKind = e.target.value; this.barKey = ''; this.render(); } },
    ...kinds.map(([k, s]) => el('option', { value: k, selected: k === this.askKind, title: tr(s) }, tr(s + suffix))));
    line.append(kind);
    let text = null, choices = null;
    if (this.askKind === 'free') { // kept across renders, so that what is typed stays
      text = this.freeText || (this.freeText = el('input', { 'data-testid': 'ask-text', maxLength: 200, size: 24 }));
      choices = this.freeChoices || (this.freeChoices = el('textarea', { 'data-testid': 'ask-choices', rows: 2, cols: 18 }));
      for (const [e, k] of [[text, 'freeText'], [choices, 'freeChoices']]) {
        e.setAttribute('aria-label', tr(k));
        e.placeholder = tr(k);
      }
      line.append(text, choices);
    }
    line.append(el('button', { class: 'primary', 'data-testid': 'ask', onclick: () => {
      const ask = { kind: this.askKind };
      if (text) { ask.text = text.value; ask.choices = choices.value.split('\n').map((s) => s.trim()).filter(Boolean); }
      this.link.send('class-ask', { ask });
    } }, tr('ask')));
    const q = c.question;
    line.append(el('button', { 'data-testid': 'reveal', disabled: !q || q.revealed, onclick: () => this.link.send('class-reveal') }, tr('reveal')));
    if (q) line.append(el('button', { 'data-testid': 'dismiss-question', title: tr('dismissTitle'), onclick: () => this.link.send('class-dismiss') }, tr('dismiss')));
    if (q && q.kind === 'move') line.append(el('button', { 'data-testid': 'play-winner', title: tr('playWinner'), onclick: () => this.link.send('class-play') }, ...both('playWinner')));
    const hide = el('input', { type: 'checkbox', 'data-testid': 'class-hide', checked: this.hiding(), onchange: (e) => this.setHide(e.target.checked) });
    line.append(el('label', { class: 'class-hide', title: tr('hide') }, hide, ' ', el('span', { class: 'class-long' }, tr('hide')), el('span', { class: 'class-short', 'aria-hidden': 'true' }, tr('hideShort'))));
    line.append(this.csvButton(c.code));
    line.append(el('button', { 'data-testid': 'teacher-link', onclick: () => this.copyTeacherLink(c.code) }, tr('teacherLink')));
    if (this.hooks.remote) line.append(this.hooks.remote(c.code));
    line.append(el('button', { class: 'danger', 'data-testid': 'end-class', title: tr('endClass'), onclick: () => { if (confirm(tr('endConfirm'))) this.link.send('class-end'); } }, ...both('endClass')));
  }

  /** queueLine lists the questions queued for later steps, each with its
   * step and a button that takes it off (the remote queues them; each is
   * asked by itself when the run gets there). */
  queueLine() {
    const suffix = state.presenter ? 'Short' : '';
    const items = this.queue.map((q) => {
      const kind = KINDS.find(([k]) => k === q.kind);
      return el('li', { 'data-step': String(q.step) }, tr('queuedAt', { step: q.step }) + ' · ' + (q.text || (kind ? tr(kind[1] + suffix) : q.kind)), ' ',
        el('button', { class: 'class-x', 'aria-label': tr('unqueue'), title: tr('unqueue'), onclick: () => this.link.send('class-unqueue', { step: q.step }) }, '✕'));
    });
    return el('div', { class: 'class-queue', 'data-testid': 'class-queue', title: tr('queueTitle') },
      el('span', { class: 'class-queue-label' }, tr('queued')), el('ul', {}, ...items));
  }

  /** csv is the tally's CSV as Tally (CSV) downloads it (by default this
   * page's history, in its language). */
  csv(history = this.history, lang = state.lang) {
    return csv(history, lang);
  }

  /** csvButton downloads the tally of every question asked. */
  csvButton(code) {
    return el('button', { 'data-testid': 'export-csv', title: tr('exportCSV'), disabled: !this.history.length, onclick: () => download('class-' + code + '-tally.csv', csv(this.history, state.lang), 'text/csv') }, ...both('exportCSV'));
  }

  /** tallyLine is the bar after the teacher's class ended: the tally to
   * keep, and a button to put the bar away. */
  tallyLine() {
    const code = this.endedCode || 'class';
    return el('div', { class: 'class-line' }, el('span', { class: 'class-you' }, tr('ended')), ' ',
      this.csvButton(code), ' ',
      el('button', { 'data-testid': 'dismiss-tally', onclick: () => { this.endedTally = false; changed(); } }, tr('close')));
  }

  studentBar(line, c) {
    line.append(el('span', { class: 'class-you' }, tr('you') + ' ', el('b', {}, c.name)));
    line.append(el('span', { class: 'class-mode ' + (c.following ? 'on' : 'off'), 'data-testid': 'follow', 'data-following': String(c.following), role: 'status' },
      tr(c.following ? 'following' : 'roaming')));
    if (c.following) line.append(el('button', { 'data-testid': 'roam', onclick: () => this.link.send('class-roam') }, tr('roam')));
    else line.append(el('button', { class: 'primary', 'data-testid': 'back-to-class', onclick: () => { this.appliedView = ''; this.link.send('class-follow'); } }, tr('backToClass')));
    line.append(el('button', { 'data-testid': 'leave-class', onclick: () => this.link.send('class-leave') }, tr('leave')));
  }

  questionCard(q, teacher) {
    const lang = state.lang;
    const card = el('section', { class: 'class-q', 'data-testid': 'question', 'data-id': String(q.id), 'aria-label': tr('questionLabel') },
      el('p', { class: 'class-q-text' }, el('b', {}, pick(q.text, lang)), ' ', el('span', { class: 'muted' }, tr('atStep', { step: q.at }))));
    if (q.about) card.append(el('p', { class: 'class-q-about' }, tr('aboutCmd') + ' ', el('code', {}, q.about)));
    // The bars wait for the reveal on every screen, the projector's too:
    // until then the room sees how many answered, not which way, so that
    // an early majority does not sway the rest.
    const shown = q.revealed;
    const max = Math.max(1, ...(q.counts || [0]));
    const list = el('ol', { class: 'class-choices' + (shown ? ' tally' : ''), 'data-testid': shown ? 'tally' : 'choices', 'aria-label': shown ? tr('tallyLabel') : tr('questionLabel') });
    q.choices.forEach((ch, i) => {
      const n = (q.counts || [])[i] || 0;
      const right = q.revealed && q.truth && q.truth.includes(i);
      const mine = q.mine === i;
      const label = choiceText(q, ch, lang);
      let body;
      if (!teacher && q.open && q.mine == null) {
        body = el('button', { class: 'class-choice', 'data-testid': 'answer', 'data-choice': String(i), onclick: () => this.link.send('class-answer', { question: q.id, choice: i }) }, label);
      } else {
        body = el('span', { class: 'class-choice' + (mine ? ' mine' : '') }, label);
      }
      const li = el('li', { class: (right ? 'right ' : '') + (mine ? 'mine' : ''), 'data-choice': String(i), 'data-count': String(n) }, body);
      if (shown) {
        const bar = el('span', { class: 'class-fill', 'aria-hidden': 'true' });
        bar.style.width = (100 * n / max).toFixed(1) + '%';
        li.append(el('span', { class: 'class-bar-track' }, bar), el('span', { class: 'class-n' }, String(n)));
      }
      if (right) li.append(el('span', { class: 'class-right' }, ' ✓'));
      list.append(li);
    });
    card.append(list);
    const foot = el('p', { class: 'class-q-foot', role: 'status' });
    if (teacher || q.revealed) foot.append(tr('answered', { n: q.answered }) + ' ');
    if (!teacher && q.mine != null && !q.revealed) foot.append(tr('yourAnswer'));
    if (q.revealed) {
      if (q.truth && q.truth.length) {
        foot.append(tr('truth') + ' ' + q.truth.map((i) => choiceText(q, q.choices[i], lang)).join(', ') + '. ');
        if (!teacher && q.mine != null) foot.append(tr(q.truth.includes(q.mine) ? 'right' : 'wrong'));
      } else foot.append(tr('noTruth'));
    }
    card.append(foot);
    return card;
  }

  /** lockControls disables the run's controls while a student follows
   * the class (the teacher drives), and gives them back after. */
  lockControls(on) {
    const sel = '.controls button:not(#time-scale), .controls select, .controls input, #pending button, #client-faults button, #client-faults select, #node-faults button, #node-faults select, [data-testid=explore] button';
    if (on) {
      for (const e of document.querySelectorAll(sel)) {
        if (!e.disabled) { e.disabled = true; e.dataset.classOff = '1'; }
      }
      return;
    }
    const off = document.querySelectorAll('[data-class-off]');
    if (!off.length) return;
    for (const e of off) { e.disabled = false; delete e.dataset.classOff; }
    renderControls(); // what the run allows (Back at step 0, Step at the end)
  }

  /** sendView tells the class what the teacher's page shows, at most
   * every 150 ms. */
  sendView() {
    const v = JSON.stringify(this.viewOf());
    if (v === this.sentView || this.viewTimer) return;
    this.viewTimer = setTimeout(() => {
      this.viewTimer = 0;
      const now = JSON.stringify(this.viewOf());
      if (now === this.sentView || !this.cls || this.cls.role !== 'teacher') return;
      this.sentView = now;
      this.link.send('class-view', { view: JSON.parse(now) });
    }, 150);
  }

  /** hideGiveaways hides, until the run ends, the expected verdict and
   * the lesson's paragraph (it states how the run ends: "the stock is sold
   * twice") and the challenge's goal beside the lesson's run (most often
   * the same ending), the setting or the teacher's. (The chapters the run
   * has not reached and the narration's future are never shown:
   * chapters.js, panels.js.) The page's render writes the first two afresh
   * each time, and the goal keeps its text aside, so what is hidden comes
   * back at the end or when hiding stops. The lesson's-plan
   * label over the paragraph stays: it says what the paragraph is, not
   * what it tells. */
  hideGiveaways() {
    const on = this.hiding(), snap = state.snap;
    const box = $('hide-giveaways');
    if (box) {
      box.checked = on;
      box.disabled = !!(this.cls && this.cls.role === 'student');
    }
    const lbl = $('hide-giveaways-label');
    if (lbl) lbl.textContent = tr('hide');
    const before = on && !(snap && snap.ended); // before the first state too: the page's first lesson
    if (before) $('expect').textContent = '(' + tr('hidden') + ')';
    const lesson = $('lesson-text');
    if (lesson) {
      if (before) lesson.textContent = tr('hiddenLesson');
      lesson.toggleAttribute('data-hidden', before);
    }
    // The challenge's goal, offered beside the lesson's run, is most often
    // the lesson's ending ("Get B's lock deleted by A"); in the challenge
    // it is the task, and stays.
    const goal = document.querySelector('[data-testid=challenge-goal] .authored');
    if (goal) {
      if (before && !(snap && snap.challenge && snap.challenge.active)) {
        if (!goal.dataset.text) goal.dataset.text = goal.textContent;
        goal.textContent = tr('hiddenLesson');
      } else if (goal.dataset.text) {
        goal.textContent = goal.dataset.text;
        delete goal.dataset.text;
      }
    }
  }

  /** setHide is the page's own setting (outside a class, or the teacher's
   * for the class). */
  setHide(on) {
    if (this.cls && this.cls.role === 'teacher') this.link.send('class-hide', { hide: on });
    this.ownHide = on;
    localStorage.setItem('lockstep.hide', on ? 'on' : 'off');
    changed();
  }

  showBig() {
    this.big.hidden = false;
    this.fillBig();
    this.bigClose.focus();
  }

  fillBig() {
    const c = this.cls;
    if (!c || c.role !== 'teacher') { this.big.hidden = true; return; }
    this.bigTitle.textContent = tr('joinClass');
    this.bigBody.textContent = '';
    this.bigBody.append(el('p', { class: 'class-big-code', 'data-testid': 'class-big-code' }, c.code));
    if (c.qr) this.bigBody.append(qrSVG(c.qr, 300));
    this.bigBody.append(el('p', {}, tr('joinAt') + ' ', el('code', { 'data-testid': 'class-link' }, c.link)));
    // A page opened as localhost gives a link no student's device reaches.
    if (['localhost', '127.0.0.1', '[::1]'].includes(location.hostname)) this.bigBody.append(el('p', { class: 'class-away', role: 'note' }, tr('localOnly')));
  }

  copyTeacherLink(code) {
    const key = localStorage.getItem('lockstep.teach.' + code);
    const url = location.origin + location.pathname + '#teach=' + code + '.' + key;
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(() => toast(tr('teacherLinkCopied')), () => toast(tr('teacherLinkNoCopy')));
    else toast(tr('teacherLinkNoCopy'));
  }
}
