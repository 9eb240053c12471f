// Check my lock's first question (report.js): what to check — the
// scenario loaded, or a lock the user describes in the short form
// (mineform.js). Nothing runs until it is answered: a card takes the
// server's CPUs for up to a minute, so it starts only when the user asks
// for it (the scenario loaded chosen here, or the form's Check this
// lock), and the form's choices, asked for as the question is shown,
// appear at once. Its words are the catalogue's page.minestart.<key>.

import { fill, pick } from './i18n.js';
import { el } from './dom.js';

/** word says key in lang, its {name}s filled from vals. */
const word = (key, lang, vals = {}) => fill('minestart.' + key, lang, vals);

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
