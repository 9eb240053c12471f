// Check my lock's first question (report.js): what to check — the
// scenario loaded, or a lock the user describes in the short form
// (mineform.js). Nothing runs until it is answered: a card takes the
// server's CPUs for up to a minute, so it starts only when the user asks
// for it (the scenario loaded chosen here, or the form's Check this
// lock), and the form's choices, asked for as the question is shown,
// appear at once. Its words, in English and 中文, are here with it.

import { pick } from './i18n.js';
import { el } from './dom.js';

const WORDS = {
  ask: ['What should it check?', '要检查什么？'],
  loaded: ['The scenario loaded', '已加载的场景'],
  loadedWhat: ['{title} ({id}): its lock and every catalog lock in its workload, against each fault. The card starts at once and takes up to a minute.',
    '{title}（{id}）：它的锁和目录里的每一把锁，放进它的工作负载，对每一种故障检查。报告卡立即开始计算，最多需要一分钟。'],
  noneLoaded: ['No scenario is loaded yet: describe your lock instead.', '还没有加载场景：请改为描述你的锁。'],
  describe: ['Describe my lock', '描述我的锁'],
  describeWhat: ['Paste your acquire and release (Lua or commands) or pick a catalog lock; give your workers, TTL, work and retry; tick the faults you fear. Nothing runs until you press Check this lock.',
    '粘贴你的加锁和释放（Lua 或命令），或选一把目录里的锁；填写工作者数、TTL、工作时间和重试间隔；勾选你担心的故障。在你按下“检查这把锁”之前，什么都不会运行。'],
};

/** word says key in lang, its {name}s filled from vals. */
function word(key, lang, vals = {}) {
  let s = WORDS[key][lang === 'zh' ? 1 : 0];
  for (const [k, v] of Object.entries(vals)) s = s.split('{' + k + '}').join(String(v));
  return s;
}

/** MineStart is the question: loaded() checks the scenario loaded,
 * describe() opens the short form. */
export class MineStart {
  constructor(root, loaded, describe) {
    this.root = root;
    const choice = (id, onclick, extra = {}) => {
      const b = el('button', { type: 'button', id: 'report-start-' + id, class: 'rep-start-btn', 'data-testid': 'report-start-' + id,
        'aria-describedby': 'report-start-' + id + '-what', onclick, ...extra });
      return [b, el('div', { class: 'rep-start-choice' }, b, el('p', { id: 'report-start-' + id + '-what', class: 'rep-hint' }))];
    };
    [this.loaded, this.loadedBox] = choice('loaded', loaded);
    [this.describe, this.describeBox] = choice('form', describe, { 'aria-controls': 'report-form', 'aria-expanded': 'false' });
    this.title = el('h3', { id: 'report-start-title', class: 'rep-start-title' });
    root.setAttribute('aria-labelledby', 'report-start-title');
    root.replaceChildren(this.title, el('div', { class: 'rep-start-choices' }, this.loadedBox, this.describeBox));
  }

  /** render says the question in lang, for the run snap loaded (none:
   * only the form can be chosen); formOpen tells whether the form shows. */
  render(lang, snap, formOpen) {
    this.title.textContent = word('ask', lang);
    this.loaded.textContent = word('loaded', lang);
    this.loaded.disabled = !snap;
    this.loadedBox.querySelector('p').textContent = snap
      ? word('loadedWhat', lang, { title: pick(snap.title, lang) || snap.scenario, id: snap.scenario }) : word('noneLoaded', lang);
    this.describe.textContent = word('describe', lang);
    this.describe.setAttribute('aria-expanded', String(!!formOpen));
    this.describeBox.querySelector('p').textContent = word('describeWhat', lang);
  }

  /** focus puts the keyboard on the first choice it can take. */
  focus() {
    (this.loaded.disabled ? this.describe : this.loaded).focus();
  }
}
